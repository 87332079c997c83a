import Foundation
import ReconstructionCore

/// A view made ready for stereo: its photo at the working resolution, undistorted, in colour,
/// and grey pyramid levels with their pinhole intrinsics and masks.
struct StereoImage: Sendable {
    /// Grey pixels, the pinhole camera and the mask at one resolution.
    struct Level: Sendable {
        var gray: GrayImage
        var intrinsics: CameraIntrinsics
        var mask: GrayImage?
    }

    var rgb: RGBImage
    /// The working resolution.
    var level: Level
    /// Half the working resolution (2 × 2 means), for the coarse pass.
    var halved: Level
}

/// Decodes, reduces and undistorts photos for dense stereo.
enum StereoImageLoader {
    /// The working size: the photo's, scaled down (aspect kept) so the longer side is at most
    /// `maxDimension`.
    static func workingSize(width: Int, height: Int, maxDimension: Int) -> (width: Int, height: Int) {
        guard max(width, height) > maxDimension, maxDimension > 0 else { return (width, height) }
        let scale = Double(maxDimension) / Double(max(width, height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The largest power-of-two reduction (1, 2, 4 or 8) that keeps the photo at least as large
    /// as `target` (JPEG decodes at that size directly; the rest is area resampling).
    static func reduction(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        var r = 1
        while r < 8, width / (2 * r) >= target.width, height / (2 * r) >= target.height { r *= 2 }
        return r
    }

    static func load(_ view: DenseStereo.View, maxDimension: Int) throws -> StereoImage {
        var intrinsics = view.intrinsics
        var rgb: RGBImage
        switch view.image {
        case .file(let url):
            let target = workingSize(width: intrinsics.width, height: intrinsics.height, maxDimension: maxDimension)
            let r = reduction(width: intrinsics.width, height: intrinsics.height, target: target)
            rgb = try ImageCodec.decodeRGB(try Data(contentsOf: url), reduction: r)
            intrinsics = reduced(intrinsics, by: r, toWidth: rgb.width, height: rgb.height)
        case .pixels(let image):
            if intrinsics.width != image.width || intrinsics.height != image.height {
                intrinsics = intrinsics.scaled(toWidth: image.width, height: image.height)
            }
            let target = workingSize(width: image.width, height: image.height, maxDimension: maxDimension)
            let r = reduction(width: image.width, height: image.height, target: target)
            rgb = r == 1 ? image : boxReduced(image, by: r)
            intrinsics = reduced(intrinsics, by: r, toWidth: rgb.width, height: rgb.height)
        }
        let target = workingSize(width: rgb.width, height: rgb.height, maxDimension: maxDimension)
        if (rgb.width, rgb.height) != target {
            rgb = areaResampled(rgb, width: target.width, height: target.height)
            intrinsics = intrinsics.scaled(toWidth: target.width, height: target.height)
        }
        var mask = view.mask.map { resampled($0, width: rgb.width, height: rgb.height) }
        var pixels = rgb
        if intrinsics.hasDistortion {
            pixels = undistorted(rgb, intrinsics: intrinsics)
            mask = mask.map { undistorted($0, intrinsics: intrinsics) }
            intrinsics.k1 = 0
            intrinsics.k2 = 0
        }
        let level = StereoImage.Level(gray: gray(pixels), intrinsics: intrinsics, mask: mask)
        return StereoImage(rgb: pixels, level: level, halved: halved(level))
    }

    /// Downsampling by any factor ≥ 1: each output pixel is the mean of the input area it covers
    /// (partly covered pixels weighted by their overlap), rows then columns.
    static func areaResampled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        /// For each output index, the input indices it covers and their overlap weights (sum 1).
        func taps(input: Int, output: Int) -> [[(index: Int, weight: Float)]] {
            let scale = Double(input) / Double(output)
            return (0..<output).map { o in
                let start = Double(o) * scale, end = Double(o + 1) * scale
                var list: [(Int, Float)] = []
                var i = Int(start)
                while Double(i) < end, i < input {
                    let overlap = min(end, Double(i + 1)) - max(start, Double(i))
                    if overlap > 1e-9 { list.append((i, Float(overlap / scale))) }
                    i += 1
                }
                return list
            }
        }
        let columns = taps(input: image.width, output: width), rows = taps(input: image.height, output: height)
        var horizontal = [Float](repeating: 0, count: image.height * width * 3)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                for x in 0..<width {
                    var sum = SIMD3<Float>.zero
                    for (i, w) in columns[x] {
                        let p = 3 * (y * image.width + i)
                        sum += w * SIMD3(Float(src[p]), Float(src[p + 1]), Float(src[p + 2]))
                    }
                    let o = 3 * (y * width + x)
                    horizontal[o] = sum.x
                    horizontal[o + 1] = sum.y
                    horizontal[o + 2] = sum.z
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD3<Float>.zero
                for (j, w) in rows[y] {
                    let p = 3 * (j * width + x)
                    sum += w * SIMD3(horizontal[p], horizontal[p + 1], horizontal[p + 2])
                }
                let o = 3 * (y * width + x)
                out[o] = UInt8(min(255, max(0, sum.x.rounded())))
                out[o + 1] = UInt8(min(255, max(0, sum.y.rounded())))
                out[o + 2] = UInt8(min(255, max(0, sum.z.rounded())))
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// The level at half size: 2 × 2 means of grey, a mask pixel set when any of its four is.
    static func halved(_ level: StereoImage.Level) -> StereoImage.Level {
        let source = level.gray
        let width = max(1, source.width / 2), height = max(1, source.height / 2)
        func reduce(_ image: GrayImage, _ combine: (Int, Int, Int, Int) -> Int) -> GrayImage {
            var out = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                let y0 = min(2 * y, image.height - 1), y1 = min(2 * y + 1, image.height - 1)
                for x in 0..<width {
                    let x0 = min(2 * x, image.width - 1), x1 = min(2 * x + 1, image.width - 1)
                    out[y * width + x] = UInt8(combine(Int(image.pixels[y0 * image.width + x0]), Int(image.pixels[y0 * image.width + x1]),
                                                       Int(image.pixels[y1 * image.width + x0]), Int(image.pixels[y1 * image.width + x1])))
                }
            }
            return GrayImage(width: width, height: height, pixels: out)
        }
        return StereoImage.Level(gray: reduce(source) { ($0 + $1 + $2 + $3 + 2) / 4 },
                                 intrinsics: reduced(level.intrinsics, by: 2, toWidth: width, height: height),
                                 mask: level.mask.map { reduce($0) { max($0, $1, $2, $3) } })
    }

    /// Intrinsics of an image reduced `r` times. A reduction by r maps pixel coordinates x to x / r
    /// (corner convention) when the reduced size is the full size / r, rounded either way;
    /// otherwise the intrinsics are scaled to the new size.
    static func reduced(_ k: CameraIntrinsics, by r: Int, toWidth width: Int, height: Int) -> CameraIntrinsics {
        guard r > 1 else {
            return k.width == width && k.height == height ? k : k.scaled(toWidth: width, height: height)
        }
        guard abs(width * r - k.width) < r, abs(height * r - k.height) < r else {
            return k.scaled(toWidth: width, height: height)
        }
        let s = 1 / Double(r)
        return CameraIntrinsics(width: width, height: height, fx: k.fx * s, fy: k.fy * s, cx: k.cx * s, cy: k.cy * s,
                                k1: k.k1, k2: k.k2)
    }

    /// Mean of each r × r block (the last partial row and column are dropped).
    static func boxReduced(_ image: RGBImage, by r: Int) -> RGBImage {
        let width = image.width / r, height = image.height / r
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let area = r * r
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                for x in 0..<width {
                    var sum = SIMD3<Int>.zero
                    for dy in 0..<r {
                        let row = (y * r + dy) * image.width
                        for dx in 0..<r {
                            let i = 3 * (row + x * r + dx)
                            sum &+= SIMD3(Int(src[i]), Int(src[i + 1]), Int(src[i + 2]))
                        }
                    }
                    let o = 3 * (y * width + x)
                    out[o] = UInt8((sum.x + area / 2) / area)
                    out[o + 1] = UInt8((sum.y + area / 2) / area)
                    out[o + 2] = UInt8((sum.z + area / 2) / area)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// Luma (Rec. 601 weights), rounded.
    static func gray(_ image: RGBImage) -> GrayImage {
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { p in
            for i in out.indices {
                let y = 0.299 * Float(p[3 * i]) + 0.587 * Float(p[3 * i + 1]) + 0.114 * Float(p[3 * i + 2])
                out[i] = UInt8(min(255, y.rounded()))
            }
        }
        return GrayImage(width: image.width, height: image.height, pixels: out)
    }

    /// Nearest-neighbour resampling of a mask to another size.
    static func resampled(_ mask: GrayImage, width: Int, height: Int) -> GrayImage {
        if mask.width == width && mask.height == height { return mask }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let sy = min(mask.height - 1, Int((Double(y) + 0.5) * Double(mask.height) / Double(height)))
            for x in 0..<width {
                let sx = min(mask.width - 1, Int((Double(x) + 0.5) * Double(mask.width) / Double(width)))
                out[y * width + x] = mask.pixels[sy * mask.width + sx]
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Where the pinhole pixel (x, y) (continuous) lies in the distorted image.
    static func distortedPosition(x: Double, y: Double, _ k: CameraIntrinsics) -> (Double, Double) {
        let u = (x - k.cx) / k.fx, v = (y - k.cy) / k.fy
        let r2 = u * u + v * v
        let d = 1 + k.k1 * r2 + k.k2 * r2 * r2
        return (k.fx * u * d + k.cx, k.fy * v * d + k.cy)
    }

    /// The photo as the undistorted pinhole camera with the same fx, fy, cx, cy sees it (bilinear).
    static func undistorted(_ image: RGBImage, intrinsics k: CameraIntrinsics) -> RGBImage {
        let width = image.width, height = image.height
        var out = [UInt8](repeating: 0, count: width * height * 3)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                for x in 0..<width {
                    let (sx, sy) = distortedPosition(x: Double(x) + 0.5, y: Double(y) + 0.5, k)
                    let fx = min(max(sx - 0.5, 0), Double(width) - 1.001), fy = min(max(sy - 0.5, 0), Double(height) - 1.001)
                    let ix = Int(fx), iy = Int(fy)
                    let ax = fx - Double(ix), ay = fy - Double(iy)
                    for c in 0..<3 {
                        let p00 = Double(src[3 * (iy * width + ix) + c]), p01 = Double(src[3 * (iy * width + ix + 1) + c])
                        let p10 = Double(src[3 * ((iy + 1) * width + ix) + c])
                        let p11 = Double(src[3 * ((iy + 1) * width + ix + 1) + c])
                        let top = p00 + ax * (p01 - p00), bottom = p10 + ax * (p11 - p10)
                        out[3 * (y * width + x) + c] = UInt8(min(255, max(0, (top + ay * (bottom - top)).rounded())))
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// A mask as the undistorted camera sees it (nearest neighbour).
    static func undistorted(_ mask: GrayImage, intrinsics k: CameraIntrinsics) -> GrayImage {
        var out = [UInt8](repeating: 0, count: mask.width * mask.height)
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let (sx, sy) = distortedPosition(x: Double(x) + 0.5, y: Double(y) + 0.5, k)
                let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
                guard ix >= 0, iy >= 0, ix < mask.width, iy < mask.height else { continue }
                out[y * mask.width + x] = mask.pixels[iy * mask.width + ix]
            }
        }
        return GrayImage(width: mask.width, height: mask.height, pixels: out)
    }
}
