import ReconstructionCore

/// Vertices grouped by connected component (vertices sharing a triangle are connected).
struct VertexComponents {
    private let label: [Int32]
    private let members: [[UInt32]]

    init(_ mesh: TriangleMesh) {
        let (triangleLabels, count) = mesh.triangleComponents()
        var label = [Int32](repeating: -1, count: mesh.positions.count)
        var members = [[UInt32]](repeating: [], count: count)
        for (t, l) in zip(mesh.triangles, triangleLabels) {
            for v in [t.x, t.y, t.z] where label[Int(v)] < 0 {
                label[Int(v)] = Int32(l)
                members[l].append(v)
            }
        }
        self.label = label
        self.members = members
    }

    /// The vertices of `vertex`'s component.
    func vertices(of vertex: UInt32) -> [UInt32] {
        let l = label[Int(vertex)]
        return l >= 0 ? members[Int(l)] : [vertex]
    }
}
