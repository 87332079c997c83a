import CReconstruction
import ReconstructionCore
import Texturing

/// Ray queries on a triangle mesh through the shim's Embree scene. Immutable once built; safe to
/// query from several threads.
public final class RayScene: RayCasting, @unchecked Sendable {
    private let handle: OpaquePointer

    public init(mesh: TriangleMesh) throws {
        let positions = mesh.positions.flatMap { [$0.x, $0.y, $0.z] }
        let triangles = mesh.triangles.flatMap { [$0.x, $0.y, $0.z] }
        var out: OpaquePointer?
        try ShimError.check {
            rc_ray_scene_new(positions, Int32(mesh.positions.count), triangles, Int32(mesh.triangles.count), &out, $0)
        }
        handle = out!
    }

    deinit { rc_ray_scene_free(handle) }

    /// Builds ray scenes for the bakers.
    public static let factory: RayCasterFactory = { try RayScene(mesh: $0) }

    public func closestHits(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [RayHit?] {
        precondition(origins.count == directions.count)
        let n = origins.count
        if n == 0 { return [] }
        var distance = [Float](repeating: 0, count: n)
        var triangle = [Int32](repeating: -1, count: n)
        var uv = [Float](repeating: 0, count: 2 * n)
        try withFlat(origins) { o in
            try withFlat(directions) { d in
                try ShimError.check { rc_ray_scene_intersect(handle, o, d, Int32(n), near, far, &distance, &triangle, &uv, $0) }
            }
        }
        return (0..<n).map { i in
            guard triangle[i] >= 0 else { return nil }
            let u = uv[2 * i], v = uv[2 * i + 1]
            return RayHit(distance: distance[i], triangle: Int(triangle[i]), barycentrics: SIMD3(1 - u - v, u, v))
        }
    }

    public func occluded(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [Bool] {
        precondition(origins.count == directions.count)
        let n = origins.count
        if n == 0 { return [] }
        var flags = [UInt8](repeating: 0, count: n)
        try withFlat(origins) { o in
            try withFlat(directions) { d in
                try ShimError.check { rc_ray_scene_occluded(handle, o, d, Int32(n), near, far, &flags, $0) }
            }
        }
        return flags.map { $0 != 0 }
    }

    /// SIMD3<Float> is 16 bytes (padded); the shim wants packed xyz triples.
    private func withFlat<R>(_ vectors: [SIMD3<Float>], _ body: (UnsafePointer<Float>) throws -> R) throws -> R {
        var flat = [Float](repeating: 0, count: vectors.count * 3)
        for (i, v) in vectors.enumerated() {
            flat[3 * i] = v.x
            flat[3 * i + 1] = v.y
            flat[3 * i + 2] = v.z
        }
        return try flat.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
