import Foundation
import ReconstructionCore

/// Closed surfaces of revolution about the z axis.
enum LatheMesh {
    /// Revolves `profile` — (radius, height) points in metres from the bottom centre (radius 0) up
    /// to the top centre (radius 0) — in `segments` steps; `radiusFactor(angle, profileIndex)`
    /// scales each ring vertex's radius (bumps). Triangles are counter-clockwise seen from outside.
    static func make(
        profile: [SIMD2<Float>], segments n: Int, radiusFactor: (_ angleRadians: Float, _ profileIndex: Int) -> Float
    ) -> TriangleMesh {
        precondition(profile.count >= 3 && profile.first!.x == 0 && profile.last!.x == 0, "profile runs pole to pole")
        var positions: [SIMD3<Float>] = [SIMD3(0, 0, profile[0].y)]
        for k in 1..<(profile.count - 1) {
            for i in 0..<n {
                let angle = 2 * Float.pi * Float(i) / Float(n)
                let r = profile[k].x * radiusFactor(angle, k)
                positions.append(SIMD3(r * cos(angle), r * sin(angle), profile[k].y))
            }
        }
        let topPole = UInt32(positions.count)
        positions.append(SIMD3(0, 0, profile[profile.count - 1].y))
        let ringCount = profile.count - 2
        func vertex(ring: Int, _ i: Int) -> UInt32 { UInt32(1 + ring * n + (i % n)) }
        var triangles: [SIMD3<UInt32>] = []
        triangles.reserveCapacity(2 * n * ringCount)
        for i in 0..<n {
            triangles.append(SIMD3(0, vertex(ring: 0, i + 1), vertex(ring: 0, i)))
        }
        for ring in 0..<(ringCount - 1) {
            for i in 0..<n {
                let a = vertex(ring: ring, i), b = vertex(ring: ring, i + 1)
                let c = vertex(ring: ring + 1, i + 1), d = vertex(ring: ring + 1, i)
                triangles.append(SIMD3(a, b, c))
                triangles.append(SIMD3(a, c, d))
            }
        }
        for i in 0..<n {
            triangles.append(SIMD3(vertex(ring: ringCount - 1, i), vertex(ring: ringCount - 1, i + 1), topPole))
        }
        var mesh = TriangleMesh(positions: positions, triangles: triangles)
        mesh.normals = mesh.computedVertexNormals()
        return mesh
    }
}
