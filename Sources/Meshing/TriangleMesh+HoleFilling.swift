import ReconstructionCore

extension TriangleMesh {
    /// The mesh with each boundary loop of at most `maximumEdges` edges closed: a loop of three
    /// by one triangle, a longer one by a fan around a new vertex at the loop's centroid (colour
    /// and normal averaged from the loop). New triangles are oriented like their neighbours.
    /// Loops are `boundaryLoops()`: where holes touch at a vertex they are separate loops, each
    /// filled on its own. The border of a lone triangle is left open (closing it would only add
    /// its back face).
    /// - Returns: the mesh and the number of holes filled.
    public func fillingHoles(maximumEdges: Int) -> (mesh: TriangleMesh, filledHoles: Int) {
        guard maximumEdges >= 3, !triangles.isEmpty else { return (self, 0) }
        var mesh = self
        let keepColors = hasColors, keepNormals = hasNormals
        var filled = 0
        var existing: Set<SIMD3<UInt32>>? = nil  // triangles' vertex sets, built when first needed
        for loop in boundaryLoops() where loop.count <= maximumEdges {
            if loop.count == 3 {
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
