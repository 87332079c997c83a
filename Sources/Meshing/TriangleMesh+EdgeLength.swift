import ReconstructionCore

extension TriangleMesh {
    /// Median length of the triangles' edges (each edge counted once per triangle side), metres; 0 without triangles.
    public func medianEdgeLength() -> Float {
        var lengths: [Float] = []
        let step = max(1, triangles.count / 100_000)
        lengths.reserveCapacity(3 * triangles.count / step + 3)
        for i in stride(from: 0, to: triangles.count, by: step) {
            let (a, b, c) = corners(of: i)
            lengths += [simdLength(b - a), simdLength(c - b), simdLength(a - c)]
        }
        guard !lengths.isEmpty else { return 0 }
        lengths.sort()
        return lengths[lengths.count / 2]
    }
}
