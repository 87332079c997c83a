import ReconstructionCore

/// Meshes with known geometry for the surface tests.
enum TestMeshes {
    /// An icosphere: the icosahedron with each triangle split `subdivisions` times into four,
    /// vertices pushed onto the sphere of `radius` around the origin; triangles counter-clockwise
    /// seen from outside.
    static func sphere(radius: Float = 1, subdivisions: Int = 4) -> TriangleMesh {
        let g: Float = (1 + Float(5).squareRoot()) / 2
        var positions: [SIMD3<Float>] = [
            [-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0],
            [0, -1, g], [0, 1, g], [0, -1, -g], [0, 1, -g],
            [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1],
        ].map { (p: SIMD3<Float>) in p / simdLength(p) }
        var triangles: [SIMD3<UInt32>] = [
            [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
            [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
            [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
            [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
        ]
        for _ in 0..<subdivisions {
            var midpoints: [UInt64: UInt32] = [:]
            func midpoint(_ i: UInt32, _ j: UInt32) -> UInt32 {
                let key = UInt64(min(i, j)) << 32 | UInt64(max(i, j))
                if let m = midpoints[key] { return m }
                let p = (positions[Int(i)] + positions[Int(j)]) / 2
                positions.append(p / simdLength(p))
                midpoints[key] = UInt32(positions.count - 1)
                return UInt32(positions.count - 1)
            }
            triangles = triangles.flatMap { t -> [SIMD3<UInt32>] in
                let ab = midpoint(t.x, t.y), bc = midpoint(t.y, t.z), ca = midpoint(t.z, t.x)
                return [[t.x, ab, ca], [t.y, bc, ab], [t.z, ca, bc], [ab, bc, ca]]
            }
        }
        return TriangleMesh(positions: positions.map { $0 * radius }, triangles: triangles)
    }

    /// A flat square grid in the plane z = `height`, from (0, 0) to (`size`, `size`), with `cells`
    /// squares per side, each split into two triangles facing +z.
    static func grid(size: Float = 1, cells: Int = 10, height: Float = 0) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        for j in 0...cells {
            for i in 0...cells {
                positions.append([Float(i) / Float(cells) * size, Float(j) / Float(cells) * size, height])
            }
        }
        var triangles: [SIMD3<UInt32>] = []
        let row = UInt32(cells + 1)
        for j in 0..<UInt32(cells) {
            for i in 0..<UInt32(cells) {
                let a = j * row + i, b = a + 1, c = a + row, d = c + 1
                triangles.append([a, b, d])
                triangles.append([a, d, c])
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// The triangles of `mesh` whose centroid satisfies `keep` (vertices unchanged).
    static func filtered(_ mesh: TriangleMesh, keep: (SIMD3<Float>) -> Bool) -> TriangleMesh {
        var result = mesh
        result.triangles = mesh.triangles.indices.filter { i in
            let (a, b, c) = mesh.corners(of: i)
            return keep((a + b + c) / 3)
        }.map { mesh.triangles[$0] }
        return result
    }
}

/// A deterministic random source for the tests.
struct TestRandom {
    var generator: SeededGenerator
    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }
    mutating func uniform(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnitFloat()
    }
    mutating func point(_ range: ClosedRange<Float>) -> SIMD3<Float> {
        SIMD3(uniform(range), uniform(range), uniform(range))
    }
}
