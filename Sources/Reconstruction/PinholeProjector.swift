import ReconstructionCore

/// A pinhole camera and its pose in single precision, for per-pixel loops (depth filtering and
/// fusion): pixel centres at i + 0.5 (COLMAP).
struct PinholeProjector: Sendable {
    let fx: Float, fy: Float, cx: Float, cy: Float
    let width: Int, height: Int
    /// Rows of the camera-from-world rotation, and its translation.
    let row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>
    let translation: SIMD3<Float>
    /// Columns of the world-from-camera rotation are the rows above; the camera centre in world.
    let centre: SIMD3<Float>

    init(intrinsics k: CameraIntrinsics, worldFromCamera: RigidTransform) {
        let cameraFromWorld = worldFromCamera.inverse
        let r = cameraFromWorld.rotation.m, t = cameraFromWorld.translation
        fx = Float(k.fx)
        fy = Float(k.fy)
        cx = Float(k.cx)
        cy = Float(k.cy)
        width = k.width
        height = k.height
        row0 = SIMD3(Float(r[0]), Float(r[1]), Float(r[2]))
        row1 = SIMD3(Float(r[3]), Float(r[4]), Float(r[5]))
        row2 = SIMD3(Float(r[6]), Float(r[7]), Float(r[8]))
        translation = SIMD3(Float(t.x), Float(t.y), Float(t.z))
        let c = worldFromCamera.translation
        centre = SIMD3(Float(c.x), Float(c.y), Float(c.z))
    }

    @inline(__always)
    func toCamera(_ world: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((row0 * world).sum(), (row1 * world).sum(), (row2 * world).sum()) + translation
    }

    @inline(__always)
    func toWorld(_ camera: SIMD3<Float>) -> SIMD3<Float> {
        let p = camera - translation
        return row0 * p.x + row1 * p.y + row2 * p.z
    }

    /// A camera-frame direction in world axes.
    @inline(__always)
    func directionToWorld(_ camera: SIMD3<Float>) -> SIMD3<Float> {
        row0 * camera.x + row1 * camera.y + row2 * camera.z
    }

    /// The camera-frame point at pixel (x, y) (continuous coordinates) and depth `depth`.
    @inline(__always)
    func backProject(x: Float, y: Float, depth: Float) -> SIMD3<Float> {
        SIMD3((x - cx) / fx * depth, (y - cy) / fy * depth, depth)
    }

    /// The camera-frame point at the centre of pixel (column, row).
    @inline(__always)
    func backProject(column: Int, row: Int, depth: Float) -> SIMD3<Float> {
        backProject(x: Float(column) + 0.5, y: Float(row) + 0.5, depth: depth)
    }

    /// Continuous pixel coordinates of a camera-frame point; nil behind the camera.
    @inline(__always)
    func project(_ camera: SIMD3<Float>) -> SIMD2<Float>? {
        guard camera.z > 0 else { return nil }
        return SIMD2(fx * camera.x / camera.z + cx, fy * camera.y / camera.z + cy)
    }

    /// The pixel index containing continuous coordinates `p`, or nil outside the image.
    @inline(__always)
    func pixelIndex(_ p: SIMD2<Float>) -> Int? {
        guard p.x >= 0, p.y >= 0 else { return nil }
        let column = Int(p.x), row = Int(p.y)
        guard column < width, row < height else { return nil }
        return row * width + column
    }
}
