import ReconstructionCore

/// A camera's intrinsics and pose converted to `Float` scalars for inner loops.
///
/// Camera frame: x right, y down, z forward; pixel centres at `i + 0.5` (COLMAP's convention).
struct ProjectiveCamera: Sendable {
    /// Image size in pixels.
    let width: Int
    let height: Int
    /// Focal lengths and principal point in pixels.
    let fx: Float, fy: Float, cx: Float, cy: Float
    /// Radial distortion on normalised coordinates.
    let k1: Float, k2: Float
    let hasDistortion: Bool
    /// Rows of the `cameraFromWorld` rotation and its translation (metres).
    let cameraFromWorldRow0: SIMD3<Float>, cameraFromWorldRow1: SIMD3<Float>, cameraFromWorldRow2: SIMD3<Float>
    let cameraFromWorldTranslation: SIMD3<Float>
    /// Columns of the `worldFromCamera` rotation (camera axes in the world) and the camera centre (metres).
    let cameraXInWorld: SIMD3<Float>, cameraYInWorld: SIMD3<Float>, cameraZInWorld: SIMD3<Float>
    let centreInWorld: SIMD3<Float>

    /// Nil when the intrinsics or the pose hold non-finite or unusable values.
    init?(intrinsics k: CameraIntrinsics, worldFromCamera: RigidTransform) {
        let scalars = [k.fx, k.fy, k.cx, k.cy, k.k1, k.k2] + worldFromCamera.rotation.m + worldFromCamera.translation.array
        guard scalars.allSatisfy({ $0.isFinite }), k.fx > 0, k.fy > 0, k.width > 0, k.height > 0 else { return nil }
        width = k.width
        height = k.height
        fx = Float(k.fx)
        fy = Float(k.fy)
        cx = Float(k.cx)
        cy = Float(k.cy)
        k1 = Float(k.k1)
        k2 = Float(k.k2)
        hasDistortion = k.hasDistortion
        let r = worldFromCamera.rotation
        let column = { (j: Int) in SIMD3<Float>(Float(r[0, j]), Float(r[1, j]), Float(r[2, j])) }
        cameraXInWorld = column(0)
        cameraYInWorld = column(1)
        cameraZInWorld = column(2)
        let t = worldFromCamera.translation
        centreInWorld = SIMD3(Float(t.x), Float(t.y), Float(t.z))
        let cameraFromWorld = worldFromCamera.inverse
        let row = { (i: Int) in
            SIMD3<Float>(Float(cameraFromWorld.rotation[i, 0]), Float(cameraFromWorld.rotation[i, 1]), Float(cameraFromWorld.rotation[i, 2]))
        }
        cameraFromWorldRow0 = row(0)
        cameraFromWorldRow1 = row(1)
        cameraFromWorldRow2 = row(2)
        let ct = cameraFromWorld.translation
        cameraFromWorldTranslation = SIMD3(Float(ct.x), Float(ct.y), Float(ct.z))
    }

    /// A world point (metres) in the camera frame.
    @inline(__always)
    func cameraPoint(_ world: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(simdDot(cameraFromWorldRow0, world), simdDot(cameraFromWorldRow1, world), simdDot(cameraFromWorldRow2, world))
            + cameraFromWorldTranslation
    }

    /// A direction given in the world frame, expressed in the camera frame.
    @inline(__always)
    func cameraDirection(_ world: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(simdDot(cameraFromWorldRow0, world), simdDot(cameraFromWorldRow1, world), simdDot(cameraFromWorldRow2, world))
    }

    /// Pixel coordinates of normalised image coordinates `(x/z, y/z)`, distortion applied.
    @inline(__always)
    func pixel(normalisedX u: Float, normalisedY v: Float) -> SIMD2<Float> {
        if hasDistortion {
            let r2 = u * u + v * v
            let d = 1 + k1 * r2 + k2 * r2 * r2
            return SIMD2(fx * u * d + cx, fy * v * d + cy)
        }
        return SIMD2(fx * u + cx, fy * v + cy)
    }

    /// Normalised undistorted coordinates `(x/z, y/z)` of the ray through pixel position `(px, py)`.
    @inline(__always)
    func normalisedRay(pixelX px: Float, pixelY py: Float) -> SIMD2<Float> {
        let distorted = SIMD2((px - cx) / fx, (py - cy) / fy)
        guard hasDistortion else { return distorted }
        var p = distorted
        for _ in 0..<8 {  // fixed-point inversion of the radial model
            let r2 = simdDot2(p, p)
            let d = 1 + k1 * r2 + k2 * r2 * r2
            guard d > 0.1 else { return distorted }
            p = distorted / d
        }
        return p
    }

    /// The world direction of a camera-frame direction.
    @inline(__always)
    func worldDirection(_ c: SIMD3<Float>) -> SIMD3<Float> {
        cameraXInWorld * c.x + cameraYInWorld * c.y + cameraZInWorld * c.z
    }
}

@inline(__always)
func simdDot2(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float { a.x * b.x + a.y * b.y }
