import Foundation
import ReconstructionCore

/// Small test meshes, counter-clockwise seen from outside.
enum AtlasFixtures {
    /// A unit icosphere: 20 · 4^subdivisions triangles.
    static func icosphere(subdivisions: Int) -> TriangleMesh {
        let g = (1 + Float(5).squareRoot()) / 2
        var positions: [SIMD3<Float>] = [
            SIMD3(-1, g, 0), SIMD3(1, g, 0), SIMD3(-1, -g, 0), SIMD3(1, -g, 0),
            SIMD3(0, -1, g), SIMD3(0, 1, g), SIMD3(0, -1, -g), SIMD3(0, 1, -g),
            SIMD3(g, 0, -1), SIMD3(g, 0, 1), SIMD3(-g, 0, -1), SIMD3(-g, 0, 1),
        ].map { $0 / simdLength($0) }
        var triangles: [SIMD3<UInt32>] = [
            SIMD3(0, 11, 5), SIMD3(0, 5, 1), SIMD3(0, 1, 7), SIMD3(0, 7, 10), SIMD3(0, 10, 11),
            SIMD3(1, 5, 9), SIMD3(5, 11, 4), SIMD3(11, 10, 2), SIMD3(10, 7, 6), SIMD3(7, 1, 8),
            SIMD3(3, 9, 4), SIMD3(3, 4, 2), SIMD3(3, 2, 6), SIMD3(3, 6, 8), SIMD3(3, 8, 9),
            SIMD3(4, 9, 5), SIMD3(2, 4, 11), SIMD3(6, 2, 10), SIMD3(8, 6, 7), SIMD3(9, 8, 1),
        ]
        for _ in 0..<subdivisions {
            var midpoints: [UInt64: UInt32] = [:]
            func midpoint(_ a: UInt32, _ b: UInt32) -> UInt32 {
                let key = UInt64(min(a, b)) << 32 | UInt64(max(a, b))
                if let m = midpoints[key] { return m }
                let p = positions[Int(a)] + positions[Int(b)]
                positions.append(p / simdLength(p))
                midpoints[key] = UInt32(positions.count - 1)
                return UInt32(positions.count - 1)
            }
            triangles = triangles.flatMap { t -> [SIMD3<UInt32>] in
                let ab = midpoint(t.x, t.y), bc = midpoint(t.y, t.z), ca = midpoint(t.z, t.x)
                return [SIMD3(t.x, ab, ca), SIMD3(t.y, bc, ab), SIMD3(t.z, ca, bc), SIMD3(ab, bc, ca)]
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// A unit latitude–longitude sphere (with the usual sliver fans at the poles).
    static func uvSphere(rings: Int, segments: Int) -> TriangleMesh {
        var positions: [SIMD3<Float>] = [SIMD3(0, 1, 0)]
        for r in 1..<rings {
            let phi = Float.pi * Float(r) / Float(rings)
            for s in 0..<segments {
                let theta = 2 * Float.pi * Float(s) / Float(segments)
                positions.append(SIMD3(sin(phi) * cos(theta), cos(phi), sin(phi) * sin(theta)))
            }
        }
        positions.append(SIMD3(0, -1, 0))
        let south = UInt32(positions.count - 1)
        func ring(_ r: Int, _ s: Int) -> UInt32 { UInt32(1 + (r - 1) * segments + s % segments) }
        var triangles: [SIMD3<UInt32>] = []
        for s in 0..<segments { triangles.append(SIMD3(0, ring(1, s + 1), ring(1, s))) }
        for r in 1..<(rings - 1) {
            for s in 0..<segments {
                let a = ring(r, s), b = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1)
                triangles += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        for s in 0..<segments { triangles.append(SIMD3(south, ring(rings - 1, s), ring(rings - 1, s + 1))) }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// A closed axis-aligned cube of side `size` with each face split into `divisions`² squares,
    /// vertices welded along the cube's edges.
    static func cube(size: Float = 1, divisions: Int) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        var index: [SIMD3<Int32>: UInt32] = [:]
        var triangles: [SIMD3<UInt32>] = []
        func vertex(_ p: SIMD3<Int32>) -> UInt32 {
            if let k = index[p] { return k }
            positions.append(SIMD3<Float>(p) * size / Float(divisions) - size / 2)
            index[p] = UInt32(positions.count - 1)
            return UInt32(positions.count - 1)
        }
        let d = Int32(divisions)
        // Each face: fixed axis, its side (0 or d), and two in-face axes ordered so u × v points out.
        let faces: [(axis: Int, side: Int32, u: Int, v: Int)] = [
            (0, d, 1, 2), (0, 0, 2, 1), (1, d, 2, 0), (1, 0, 0, 2), (2, d, 0, 1), (2, 0, 1, 0),
        ]
        for f in faces {
            for i in 0..<d {
                for j in 0..<d {
                    func corner(_ a: Int32, _ b: Int32) -> UInt32 {
                        var p = SIMD3<Int32>.zero
                        p[f.axis] = f.side
                        p[f.u] = a
                        p[f.v] = b
                        return vertex(p)
                    }
                    let p00 = corner(i, j), p10 = corner(i + 1, j), p11 = corner(i + 1, j + 1), p01 = corner(i, j + 1)
                    triangles += [SIMD3(p00, p10, p11), SIMD3(p00, p11, p01)]
                }
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// An open flat grid of `n` × `n` squares in the z = 0 plane, `size` across, facing +z.
    static func planeGrid(n: Int, size: Float = 1) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        for j in 0...n {
            for i in 0...n { positions.append(SIMD3(Float(i), Float(j), 0) * size / Float(n)) }
        }
        var triangles: [SIMD3<UInt32>] = []
        for j in 0..<n {
            for i in 0..<n {
                let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
                triangles += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// A vase: a surface of revolution about y with a bulging profile, open at the top, closed
    /// by a fan at the bottom.
    static func vase(rings: Int, segments: Int) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        for r in 0...rings {
            let y = Float(r) / Float(rings)
            let radius = 0.35 + 0.2 * sin(Float.pi * y * 1.3) - 0.1 * y
            for s in 0..<segments {
                let theta = 2 * Float.pi * Float(s) / Float(segments)
                positions.append(SIMD3(radius * cos(theta), y, -radius * sin(theta)))
            }
        }
        let bottom = UInt32(positions.count)
        positions.append(SIMD3(0, 0, 0))
        func at(_ r: Int, _ s: Int) -> UInt32 { UInt32(r * segments + s % segments) }
        var triangles: [SIMD3<UInt32>] = []
        for r in 0..<rings {
            for s in 0..<segments {
                triangles += [SIMD3(at(r, s), at(r, s + 1), at(r + 1, s + 1)), SIMD3(at(r, s), at(r + 1, s + 1), at(r + 1, s))]
            }
        }
        for s in 0..<segments { triangles.append(SIMD3(bottom, at(0, s + 1), at(0, s))) }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// A gently rising helical ramp of 1.5 turns: every normal is within ~20° of +y, yet its
    /// straight-down projection folds over itself.
    static func helicalRamp(steps: Int = 90, across: Int = 4) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        for i in 0...steps {
            let theta = 3 * Float.pi * Float(i) / Float(steps)
            for j in 0...across {
                let radius = 0.5 + 0.5 * Float(j) / Float(across)
                positions.append(SIMD3(radius * cos(theta), 0.25 * theta / (2 * Float.pi), -radius * sin(theta)))
            }
        }
        var triangles: [SIMD3<UInt32>] = []
        for i in 0..<steps {
            for j in 0..<across {
                let a = UInt32(i * (across + 1) + j), b = a + 1, c = a + UInt32(across + 1), d = c + 1
                triangles += [SIMD3(a, d, c), SIMD3(a, b, d)]
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles)
    }

    /// A plane grid plus trouble: a triangle repeating a corner, a zero-area triangle of three
    /// collinear grid vertices, a needle sliver, and a tiny triangle far from everything.
    static func gridWithDegenerateAndTinyParts() -> TriangleMesh {
        var mesh = planeGrid(n: 12)
        mesh.triangles.append(SIMD3(5, 5, 20))              // repeated corner
        mesh.triangles.append(SIMD3(30, 31, 32))            // collinear (one grid row)
        let base = UInt32(mesh.positions.count)
        mesh.positions += [SIMD3(0.5, -0.002, 0), SIMD3(0.9, -0.002, 0), SIMD3(0.7, -0.0020001, 0)]
        mesh.triangles.append(SIMD3(base, base + 1, base + 2))  // needle just outside the grid
        let far = UInt32(mesh.positions.count)
        mesh.positions += [SIMD3(5, 5, 5), SIMD3(5.01, 5, 5), SIMD3(5, 5.01, 5)]
        mesh.triangles.append(SIMD3(far, far + 1, far + 2))     // tiny far component
        return mesh
    }

    /// `mesh` with every vertex moved along its direction from the origin by up to ±`amplitude`/2
    /// (relative): the rough surface a photogrammetry mesh has.
    static func roughened(_ mesh: TriangleMesh, amplitude: Float, seed: UInt64) -> TriangleMesh {
        var generator = SeededGenerator(seed: seed)
        var rough = mesh
        rough.positions = mesh.positions.map { $0 * (1 + amplitude * (generator.nextUnitFloat() - 0.5)) }
        return rough
    }

    /// Random triangles over a few shared vertices: intersecting, non-manifold edges, mixed
    /// orientations, repeated triangles.
    static func triangleSoup(vertices: Int, triangles: Int, seed: UInt64) -> TriangleMesh {
        var generator = SeededGenerator(seed: seed)
        let positions = (0..<vertices).map { _ in
            SIMD3(generator.nextUnitFloat(), generator.nextUnitFloat(), generator.nextUnitFloat())
        }
        let list = (0..<triangles).map { _ in
            SIMD3<UInt32>((0..<3).map { _ in UInt32(generator.next() % UInt64(vertices)) })
        }
        return TriangleMesh(positions: positions, triangles: list + list.prefix(5))
    }
}
