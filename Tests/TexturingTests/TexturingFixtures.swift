import Foundation
import ReconstructionCore
import Rendering
import Texturing

/// Exact ray queries by testing every triangle (Möller–Trumbore): slow, obviously right.
struct BruteForceRays: RayCasting {
    let mesh: TriangleMesh

    func closestHits(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [RayHit?] {
        zip(origins, directions).map { origin, direction in
            var best: RayHit?
            for k in mesh.triangles.indices {
                let (a, b, c) = mesh.corners(of: k)
                guard let (t, u, v) = Self.intersect(origin, direction, a, b, c), t >= near, t <= far else { continue }
                if best == nil || t < best!.distance { best = RayHit(distance: t, triangle: k, barycentrics: SIMD3(1 - u - v, u, v)) }
            }
            return best
        }
    }

    func occluded(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [Bool] {
        try closestHits(origins: origins, directions: directions, near: near, far: far).map { $0 != nil }
    }

    static func intersect(_ o: SIMD3<Float>, _ d: SIMD3<Float>, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) -> (Float, Float, Float)? {
        let e1 = b - a, e2 = c - a
        let p = simdCross(d, e2)
        let det = simdDot(e1, p)
        guard abs(det) > 1e-12 else { return nil }
        let s = o - a
        let u = simdDot(s, p) / det
        guard u >= 0, u <= 1 else { return nil }
        let q = simdCross(s, e1)
        let v = simdDot(d, q) / det
        guard v >= 0, u + v <= 1 else { return nil }
        return (simdDot(e2, q) / det, u, v)
    }
}

enum Fixtures {
    /// A grid over [−half, half]² at z = height(x, y), facing +z, `n` × `n` quads, with planar UVs
    /// u = (x + half) / (2 half), v = (half − y) / (2 half) (so +x is +u and +y is up the image).
    static func grid(n: Int, half: Float = 0.5, height: (Float, Float) -> Float = { _, _ in 0 }) -> TexturedMesh {
        var positions: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], triangles: [SIMD3<UInt32>] = []
        for j in 0...n {
            for i in 0...n {
                let x = -half + 2 * half * Float(i) / Float(n), y = -half + 2 * half * Float(j) / Float(n)
                positions.append(SIMD3(x, y, height(x, y)))
                uvs.append(SIMD2((x + half) / (2 * half), (half - y) / (2 * half)))
            }
        }
        for j in 0..<n {
            for i in 0..<n {
                let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
                triangles.append(SIMD3(a, b, d))
                triangles.append(SIMD3(a, d, c))
            }
        }
        let geometry = TriangleMesh(positions: positions, triangles: triangles)
        return TexturedMesh(positions: positions, normals: geometry.computedVertexNormals(), triangles: triangles,
                            uvs: uvs, uvTriangles: triangles)
    }

    /// A camera at `centre` looking at `target`, image y pointing along world −`up`.
    static func camera(at centre: SIMD3<Float>, lookingAt target: SIMD3<Float>, up: SIMD3<Float> = SIMD3(0, 1, 0)) -> RigidTransform {
        let z = simdNormalize(target - centre)
        let x = simdNormalize(simdCross(z, up))
        let y = simdCross(z, x)
        func v(_ s: SIMD3<Float>) -> Vector3 { Vector3(Double(s.x), Double(s.y), Double(s.z)) }
        let rotation = Matrix3(rows: v(x), v(y), v(z))
        return RigidTransform(rotation: rotation, translation: -(rotation * v(centre)))
    }

    static func simdNormalize(_ a: SIMD3<Float>) -> SIMD3<Float> { a / simdLength(a) }

    static let intrinsics = CameraIntrinsics(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)

    /// The photo of `mesh` from `cameraFromWorld`, unlit, with the albedo a function of position
    /// (linear RGB), on a black background.
    static func photo(of mesh: TriangleMesh, from cameraFromWorld: RigidTransform,
                      albedo: @escaping @Sendable (SIMD3<Float>, Int) -> SIMD3<Float>) -> RGBImage {
        var options = MeshRasterizer.Options()
        options.lighting = .unlit
        options.culling = .none
        options.albedo = .procedural { albedo($0.position, $0.triangleIndex) }
        return MeshRasterizer(options: options).render(mesh, intrinsics: intrinsics, cameraFromWorld: cameraFromWorld).color
    }

    /// One baking view per pose: `mesh` photographed from it (`photo(of:from:albedo:)`), named by its index.
    static func views(of mesh: TriangleMesh, from poses: [RigidTransform],
                      albedo: @escaping @Sendable (SIMD3<Float>, Int) -> SIMD3<Float>) -> [BakingView] {
        poses.enumerated().map { i, pose in
            BakingView(name: "\(i)", image: photo(of: mesh, from: pose, albedo: albedo), intrinsics: intrinsics, cameraFromWorld: pose)
        }
    }

    /// sRGB 0…255 of a linear colour.
    static func encoded(_ linear: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((0..<3).map { SRGB.encoded(fromLinear: linear[$0]) * 255 })
    }
}
