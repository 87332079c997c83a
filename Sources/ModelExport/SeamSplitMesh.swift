import ReconstructionCore

/// A `TexturedMesh` with one index per vertex, as glTF needs: a position is duplicated for every
/// distinct atlas coordinate it takes at some triangle corner (UV seams), and nowhere else.
/// Vertices appear in order of first use; triangle order and winding are kept.
struct SeamSplitMesh {
    var positions: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    /// Atlas coordinates, `TexturedMesh`'s convention (u right, v down) = glTF's.
    var uvs: [SIMD2<Float>] = []
    /// Three vertex indices per triangle.
    var indices: [UInt32] = []

    /// The mesh must be consistent (`TexturedMesh.inconsistency` nil).
    init(_ mesh: TexturedMesh) {
        positions.reserveCapacity(mesh.uvs.count)
        normals.reserveCapacity(mesh.uvs.count)
        uvs.reserveCapacity(mesh.uvs.count)
        indices.reserveCapacity(mesh.triangles.count * 3)
        // Usually each atlas coordinate belongs to one position: remember that pair per UV index and
        // fall back to a dictionary only for UVs shared by several positions.
        var vertexOfUV = [Int32](repeating: -1, count: mesh.uvs.count)
        var positionOfUV = [UInt32](repeating: 0, count: mesh.uvs.count)
        var others: [UInt64: UInt32] = [:]
        for (t, uvt) in zip(mesh.triangles, mesh.uvTriangles) {
            for k in 0..<3 {
                let p = t[k], uv = uvt[k]
                let vertex: UInt32
                if vertexOfUV[Int(uv)] < 0 {
                    vertex = append(mesh, position: p, uv: uv)
                    vertexOfUV[Int(uv)] = Int32(bitPattern: vertex)
                    positionOfUV[Int(uv)] = p
                } else if positionOfUV[Int(uv)] == p {
                    vertex = UInt32(bitPattern: vertexOfUV[Int(uv)])
                } else {
                    let key = UInt64(p) << 32 | UInt64(uv)
                    if let known = others[key] {
                        vertex = known
                    } else {
                        vertex = append(mesh, position: p, uv: uv)
                        others[key] = vertex
                    }
                }
                indices.append(vertex)
            }
        }
    }

    private mutating func append(_ mesh: TexturedMesh, position p: UInt32, uv: UInt32) -> UInt32 {
        positions.append(mesh.positions[Int(p)])
        normals.append(mesh.normals[Int(p)])
        uvs.append(mesh.uvs[Int(uv)])
        return UInt32(positions.count - 1)
    }
}
