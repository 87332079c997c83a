import ReconstructionCore

/// A photo that colours the model: its pixels, its camera and, optionally, its object mask.
public struct BakingView: Sendable {
    public var name: String
    /// The photo (sRGB), at any resolution.
    public var image: RGBImage
    /// The camera at the photo's resolution, with its lens distortion.
    public var intrinsics: CameraIntrinsics
    /// Pose in the frame of the mesh being textured.
    public var cameraFromWorld: RigidTransform
    /// Object mask at any resolution (non-zero = object); pixels outside it never colour the model.
    public var mask: GrayImage?
    /// The longer side of the whole photo when this view is a part of it (`cropped(toProjectionsOf:)`),
    /// in the pixels of `intrinsics`; nil when it is the whole photo. Visibility is then rendered at
    /// the density the whole photo would get.
    public var uncroppedLongerSide: Int?
    /// The photo holds no colour (a greyscale photo among colour ones): it colours only the
    /// surface that no colour photo sees. See `looksGreyscale(_:)`.
    public var isGreyscale = false

    public init(name: String, image: RGBImage, intrinsics: CameraIntrinsics, cameraFromWorld: RigidTransform, mask: GrayImage? = nil) {
        self.name = name
        self.image = image
        self.intrinsics = intrinsics
        self.cameraFromWorld = cameraFromWorld
        self.mask = mask
    }

    /// Whether a photo holds no colour: at most 1 pixel in 500 has channels that differ (a
    /// greyscale JPEG or PNG decodes with equal channels; a colour photo of even a grey scene has
    /// sensor and compression noise in its chroma).
    public static func looksGreyscale(_ image: RGBImage) -> Bool {
        let count = image.width * image.height
        guard count > 0 else { return false }
        let allowed = count / 500
        var coloured = 0
        return image.pixels.withUnsafeBufferPointer { px in
            for k in 0..<count {
                let r = Int(px[3 * k]), g = Int(px[3 * k + 1]), b = Int(px[3 * k + 2])
                if r != g || g != b {
                    coloured += 1
                    if coloured > allowed { return false }
                }
            }
            return true
        }
    }
}

/// A view's camera in single precision for the per-texel loops.
struct BakingCamera: Sendable {
    let r0, r1, r2: SIMD3<Float>
    let t: SIMD3<Float>
    let centre: SIMD3<Float>
    let fx, fy, cx, cy, k1, k2: Float
    let width, height: Int

    init(_ intrinsics: CameraIntrinsics, _ cameraFromWorld: RigidTransform) {
        let r = cameraFromWorld.rotation
        func row(_ i: Int) -> SIMD3<Float> { let v = r.row(i); return SIMD3(Float(v.x), Float(v.y), Float(v.z)) }
        r0 = row(0); r1 = row(1); r2 = row(2)
        let tr = cameraFromWorld.translation
        t = SIMD3(Float(tr.x), Float(tr.y), Float(tr.z))
        let c = cameraFromWorld.cameraCentreInWorld
        centre = SIMD3(Float(c.x), Float(c.y), Float(c.z))
        fx = Float(intrinsics.fx); fy = Float(intrinsics.fy); cx = Float(intrinsics.cx); cy = Float(intrinsics.cy)
        k1 = Float(intrinsics.k1); k2 = Float(intrinsics.k2)
        width = intrinsics.width; height = intrinsics.height
    }

    /// The point in camera coordinates.
    @inline(__always) func camera(_ p: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(simdDot(r0, p) + t.x, simdDot(r1, p) + t.y, simdDot(r2, p) + t.z)
    }

    /// Pixel of a camera-frame point through the pinhole (no distortion), scaled by `scale`.
    @inline(__always) func pinholePixel(_ q: SIMD3<Float>, scale: Float) -> SIMD2<Float> {
        SIMD2((fx * q.x / q.z + cx) * scale, (fy * q.y / q.z + cy) * scale)
    }

    /// Pixel of a camera-frame point through the lens (radial distortion).
    @inline(__always) func pixel(_ q: SIMD3<Float>) -> SIMD2<Float> {
        let u = q.x / q.z, v = q.y / q.z
        let r2 = u * u + v * v
        let d = 1 + k1 * r2 + k2 * r2 * r2
        return SIMD2(fx * u * d + cx, fy * v * d + cy)
    }
}
