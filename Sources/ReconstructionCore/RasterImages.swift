/// An 8-bit RGB image, rows top to bottom, pixels interleaved `r, g, b` (sRGB).
public struct RGBImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage needs width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.width = width
        self.height = height
        var p = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: p.count, by: 3) {
            p[i] = fill.0
            p[i + 1] = fill.1
            p[i + 2] = fill.2
        }
        self.pixels = p
    }
}

/// An 8-bit single-channel image (a mask, a confidence map, a grey photo), rows top to bottom.
public struct GrayImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "GrayImage needs width × height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    /// Whether this mask, stretched over an image of `imageWidth` × `imageHeight` pixels, is
    /// non-zero at that image's pixel (x, y).
    @inline(__always)
    public func keeps(x: Int, y: Int, imageWidth: Int, imageHeight: Int) -> Bool {
        let mx = min(width - 1, x * width / imageWidth), my = min(height - 1, y * height / imageHeight)
        return pixels[my * width + mx] != 0
    }
}

/// A depth map: per pixel, the depth along the camera's z axis in metres; 0 means no depth.
public struct DepthMap: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height` depths in metres, 0 where missing.
    public var metres: [Float]

    public init(width: Int, height: Int, metres: [Float]) {
        precondition(metres.count == width * height, "DepthMap needs width × height values")
        self.width = width
        self.height = height
        self.metres = metres
    }

    public init(width: Int, height: Int) {
        self.init(width: width, height: height, metres: [Float](repeating: 0, count: width * height))
    }

    @inline(__always)
    public subscript(x: Int, y: Int) -> Float {
        get { metres[y * width + x] }
        set { metres[y * width + x] = newValue }
    }
}
