import ReconstructionCore

/// A mesh's vertices moved into one camera's frame, with the camera's pinhole projection, in doubles.
///
/// Distortion in the intrinsics is ignored: rendered images are undistorted pinhole images.
struct CameraView {
    /// Focal lengths and principal point, pixels.
    let fx: Double, fy: Double, cx: Double, cy: Double
    let width: Int, height: Int
    /// Vertex positions in the camera frame (x right, y down, z forward), metres.
    let cameraVertices: [SIMD3<Double>]
    /// Columns of the world-from-camera rotation, to turn camera-frame directions into world ones.
    let worldFromCameraColumns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    init(mesh: TriangleMesh, intrinsics: CameraIntrinsics, cameraFromWorld: RigidTransform) {
        fx = intrinsics.fx
        fy = intrinsics.fy
        cx = intrinsics.cx
        cy = intrinsics.cy
        width = intrinsics.width
        height = intrinsics.height
        let m = cameraFromWorld.rotation.m
        let r0 = SIMD3(m[0], m[1], m[2]), r1 = SIMD3(m[3], m[4], m[5]), r2 = SIMD3(m[6], m[7], m[8])
        let t = SIMD3(cameraFromWorld.translation.x, cameraFromWorld.translation.y, cameraFromWorld.translation.z)
        cameraVertices = mesh.positions.map { p in
            let q = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
            return SIMD3(dot(r0, q), dot(r1, q), dot(r2, q)) + t
        }
        // Rows of cameraFromWorld are the columns of worldFromCamera.
        worldFromCameraColumns = (SIMD3<Float>(r0), SIMD3<Float>(r1), SIMD3<Float>(r2))
    }

    /// The camera-frame ray (u, v, 1) through pixel coordinates (x, y) in pixels.
    @inline(__always)
    func ray(x: Double, y: Double) -> SIMD3<Double> {
        SIMD3((x - cx) / fx, (y - cy) / fy, 1)
    }

    /// A camera-frame direction in the world frame.
    @inline(__always)
    func worldDirection(_ d: SIMD3<Float>) -> SIMD3<Float> {
        worldFromCameraColumns.0 * d.x + worldFromCameraColumns.1 * d.y + worldFromCameraColumns.2 * d.z
    }
}

/// Where the ray z·`ray` from the camera centre meets the plane of triangle (a, b, c): the depth z
/// and the barycentric weights of b and c (a has 1 − b1 − b2). Exact, so perspective-correct.
@inline(__always)
func intersect(ray: SIMD3<Double>, _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>)
    -> (depth: Double, b1: Double, b2: Double)
{
    let e1 = b - a, e2 = c - a
    let n = cross(e1, e2)
    let depth = dot(n, a) / dot(n, ray)
    let w = ray * depth - a
    let nn = dot(n, n)
    let b1 = dot(cross(w, e2), n) / nn
    let b2 = dot(cross(e1, w), n) / nn
    return (depth, b1, b2)
}
