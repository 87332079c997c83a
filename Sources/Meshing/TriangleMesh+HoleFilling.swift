import ReconstructionCore

extension TriangleMesh {
    /// The mesh with each boundary loop of at most `maximumEdges` edges closed: a loop of three
    /// by one triangle, a longer one by a fan around a new vertex at the loop's centroid (colour
    /// and normal averaged from the loop). New triangles are oriented like their neighbours.
    /// Loops through a vertex where the boundary branches, and the border of a lone triangle,
    /// are left open.
    /// - Returns: the mesh and the number of holes filled.
    public func fillingHoles(maximumEdges: Int) -> (mesh: TriangleMesh, filledHoles: Int) {
        guard maximumEdges >= 3, !triangles.isEmpty else { return (self, 0) }
        // Outgoing edges per vertex (counting sort), to find each edge's reverse without hashing.
        let vertexCount = positions.count
        var outStart = [Int32](repeating: 0, count: vertexCount + 1)
        for t in triangles where t.x < vertexCount && t.y < vertexCount && t.z < vertexCount {
            outStart[Int(t.x) + 1] += 1
            outStart[Int(t.y) + 1] += 1
            outStart[Int(t.z) + 1] += 1
        }
        for v in 0..<vertexCount { outStart[v + 1] += outStart[v] }
        var outTarget = [UInt32](repeating: 0, count: Int(outStart[vertexCount]))
        var fill = outStart
        let valid = triangles.filter { $0.x < vertexCount && $0.y < vertexCount && $0.z < vertexCount }
        for t in valid {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                outTarget[Int(fill[Int(a)])] = b
                fill[Int(a)] += 1
            }
        }
        func hasEdge(_ a: UInt32, _ b: UInt32) -> Bool {
            outTarget[Int(outStart[Int(a)])..<Int(outStart[Int(a) + 1])].contains(b)
        }
        // A boundary edge a → b (no triangle has b → a) is walked backwards by the hole: b → a.
        var next = [Int64](repeating: -1, count: vertexCount)
        var branching = [Bool](repeating: false, count: vertexCount)
        for t in valid {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] where !hasEdge(b, a) {
                if next[Int(b)] >= 0 { branching[Int(b)] = true }
                next[Int(b)] = Int64(a)
            }
        }
        var mesh = self
        let keepColors = hasColors, keepNormals = hasNormals
        var visited = [Bool](repeating: false, count: vertexCount)
        var filled = 0
        var existing: Set<SIMD3<UInt32>>? = nil  // triangles' vertex sets, built when first needed
        for first in 0..<vertexCount where next[first] >= 0 && !visited[first] {
            let start = UInt32(first)
            var loop: [UInt32] = []
            var v = start
            var closed = false
            while !visited[Int(v)], loop.count <= maximumEdges {
                visited[Int(v)] = true
                loop.append(v)
                let w = next[Int(v)]
                guard w >= 0 else { break }
                if w == Int64(start) { closed = true; break }
                v = UInt32(w)
            }
            guard closed, loop.count <= maximumEdges, loop.allSatisfy({ !branching[Int($0)] }) else { continue }
            if loop.count == 3 {
                // The border of a lone triangle: closing it would only add its back face.
                if existing == nil { existing = Set(triangles.map(sortedCorners)) }
                if existing!.contains(sortedCorners(SIMD3(loop[0], loop[1], loop[2]))) { continue }
                mesh.triangles.append(SIMD3(loop[0], loop[1], loop[2]))
            } else {
                let centre = UInt32(mesh.positions.count)
                let n = Float(loop.count)
                mesh.positions.append(loop.reduce(SIMD3<Float>.zero) { $0 + positions[Int($1)] } / n)
                if keepColors { mesh.colors.append(loop.reduce(SIMD3<Float>.zero) { $0 + colors[Int($1)] } / n) }
                if keepNormals {
                    let sum = loop.reduce(SIMD3<Float>.zero) { $0 + normals[Int($1)] }
                    let length = simdLength(sum)
                    mesh.normals.append(length > 0 ? sum / length : SIMD3(0, 0, 1))
                }
                for i in loop.indices {
                    mesh.triangles.append(SIMD3(loop[i], loop[(i + 1) % loop.count], centre))
                }
            }
            filled += 1
        }
        return (mesh, filled)
    }
}

/// A triangle's vertex indices in increasing order.
@inline(__always)
func sortedCorners(_ t: SIMD3<UInt32>) -> SIMD3<UInt32> {
    let lo = min(t.x, min(t.y, t.z)), hi = max(t.x, max(t.y, t.z))
    return SIMD3(lo, t.x ^ t.y ^ t.z ^ lo ^ hi, hi)
}
