import ReconstructionCore
import Rendering

/// A 100 × 80 camera with a 100-pixel focal length and the principal point at the image centre.
let smallCamera = CameraIntrinsics(width: 100, height: 80, fx: 100, fy: 100, cx: 50, cy: 40)

/// A quad facing a camera at the origin looking down +z: corners (x0, y0)…(x1, y1) at depth z.
func frontalQuad(x0: Float, x1: Float, y0: Float, y1: Float, z: Float) -> TriangleMesh {
    let positions: [SIMD3<Float>] = [SIMD3(x0, y0, z), SIMD3(x1, y0, z), SIMD3(x1, y1, z), SIMD3(x0, y1, z)]
    // Counter-clockwise seen from the camera side (−z), so the front faces the camera.
    return TriangleMesh(positions: positions, triangles: [SIMD3(0, 2, 1), SIMD3(0, 3, 2)])
}

/// An axis-aligned cube centred at the origin, triangles counter-clockwise seen from outside.
func unitCube(size: Float = 1) -> TriangleMesh {
    let h = size / 2
    var positions: [SIMD3<Float>] = []
    var triangles: [SIMD3<UInt32>] = []
    // Each face: outward axis, and two in-plane axes u, v with u × v = outward.
    let faces: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] = [
        (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)), (SIMD3(-1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 1, 0)),
        (SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0)), (SIMD3(0, -1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)),
        (SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 1, 0)), (SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(1, 0, 0)),
    ]
    for (n, u, v) in faces {
        let base = UInt32(positions.count)
        for (a, b) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] as [(Float, Float)] {
            positions.append(h * (n + a * u + b * v))
        }
        triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)]
    }
    return TriangleMesh(positions: positions, triangles: triangles)
}

/// A camera at `centre` looking at `target`, upright with respect to world +z (x right, y down).
func lookAt(centre: Vector3, target: Vector3, up: Vector3 = Vector3(0, 0, 1)) -> RigidTransform {
    let forward = (target - centre).normalized
    let right = forward.cross(up).normalized
    let down = forward.cross(right)
    let rotation = Matrix3(rows: right, down, forward)
    return RigidTransform(rotation: rotation, translation: -(rotation * centre))
}

/// Linear light of an 8-bit sRGB value.
func linear(_ byte: UInt8) -> Double { Double(SRGB.linear(fromEncoded: Float(byte) / 255)) }
