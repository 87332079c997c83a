import Foundation
import ReconstructionCore

/// Boxes with rounded edges and corners.
enum RoundedBoxMesh {
    /// A box centred at the origin with half sizes `halfExtents` and edge radius `radius` (metres),
    /// flat parts split every `spacing` metres or less, each rounded edge in `2 × roundSegments`
    /// steps. Vertices shared by faces are welded; triangles are counter-clockwise seen from outside.
    static func make(halfExtents h: SIMD3<Float>, radius r: Float, spacing: Float, roundSegments: Int) -> TriangleMesh {
        let inner = h - r
        // Coordinates along each axis: the rounded band spaced by equal arc angles, the flat part evenly.
        let coordinates: [[Float]] = (0..<3).map { axis in
            let flatSegments = max(2, Int((2 * inner[axis] / spacing).rounded(.up)))
            let band = (1...roundSegments).map { k in r * tan(Float.pi / 4 * Float(k) / Float(roundSegments)) }
            var c = band.reversed().map { -inner[axis] - $0 }
            c += (0...flatSegments).map { m in -inner[axis] + 2 * inner[axis] * Float(m) / Float(flatSegments) }
            c += band.map { inner[axis] + $0 }
            c[0] = -h[axis]
            c[c.count - 1] = h[axis]
            return c
        }
        // Faces: outward axis and sign, in-plane axes u, v with u × v pointing outwards.
        let faces: [(normal: Int, sign: Float, u: Int, v: Int)] = [
            (0, 1, 1, 2), (0, -1, 2, 1), (1, 1, 2, 0), (1, -1, 0, 2), (2, 1, 0, 1), (2, -1, 1, 0),
        ]
        var positions: [SIMD3<Float>] = []
        var normals: [SIMD3<Float>] = []
        var indexOf: [SIMD3<UInt32>: UInt32] = [:]
        var triangles: [SIMD3<UInt32>] = []
        for face in faces {
            let us = coordinates[face.u], vs = coordinates[face.v]
            var grid = [UInt32](repeating: 0, count: us.count * vs.count)
            for (j, cv) in vs.enumerated() {
                for (i, cu) in us.enumerated() {
                    var x = SIMD3<Float>(repeating: 0)
                    x[face.normal] = face.sign * h[face.normal]
                    x[face.u] = cu
                    x[face.v] = cv
                    // Round: push the point out from the inner box by the radius.
                    let core = simd_clamp(x, -inner, inner)
                    let offset = x - core
                    let length = simdLength(offset)
                    let normal = offset / length
                    let p = core + r * normal
                    let key = SIMD3(p.x.bitPattern, p.y.bitPattern, p.z.bitPattern)
                    if let existing = indexOf[key] {
                        grid[j * us.count + i] = existing
                    } else {
                        let index = UInt32(positions.count)
                        indexOf[key] = index
                        positions.append(p)
                        normals.append(normal)
                        grid[j * us.count + i] = index
                    }
                }
            }
            for j in 0..<(vs.count - 1) {
                for i in 0..<(us.count - 1) {
                    let a = grid[j * us.count + i], b = grid[j * us.count + i + 1]
                    let c = grid[(j + 1) * us.count + i + 1], d = grid[(j + 1) * us.count + i]
                    triangles.append(SIMD3(a, b, c))
                    triangles.append(SIMD3(a, c, d))
                }
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles, normals: normals)
    }

    private static func simd_clamp(_ x: SIMD3<Float>, _ lo: SIMD3<Float>, _ hi: SIMD3<Float>) -> SIMD3<Float> {
        pointwiseMin(pointwiseMax(x, lo), hi)
    }
}
