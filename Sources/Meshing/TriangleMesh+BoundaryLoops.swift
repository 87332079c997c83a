import ReconstructionCore

extension TriangleMesh {
    /// The mesh's boundary as simple closed loops of vertex indices.
    ///
    /// A boundary edge is a triangle edge `a → b` with no triangle using `b → a`; its loop walks
    /// it backwards, `b → a`, so a triangle `(loop[i], loop[i + 1], x)` added to close the loop is
    /// oriented like its neighbours. Where the boundary passes a vertex more than once (two holes
    /// touching at a corner), the walk is cut into separate loops there, so no loop repeats a
    /// vertex. Boundary edges that do not close into a loop (non-manifold edges) are left out.
    /// Triangles with an out-of-range index are ignored.
    public func boundaryLoops() -> [[UInt32]] {
        let n = UInt32(positions.count)
        var directed = Set<UInt64>()
        directed.reserveCapacity(triangles.count * 3)
        @inline(__always) func key(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(a) << 32 | UInt64(b) }
        let valid = triangles.filter { $0.x < n && $0.y < n && $0.z < n }
        for t in valid {
            directed.insert(key(t.x, t.y))
            directed.insert(key(t.y, t.z))
            directed.insert(key(t.z, t.x))
        }
        // Walk edges (b → a for each boundary edge a → b), grouped by their start vertex.
        var walks: [(from: UInt32, to: UInt32)] = []
        for t in valid {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] where !directed.contains(key(b, a)) {
                walks.append((b, a))
            }
        }
        guard !walks.isEmpty else { return [] }
        walks.sort { ($0.from, $0.to) < ($1.from, $1.to) }
        var firstOut: [UInt32: Int] = [:]
        for (i, w) in walks.enumerated().reversed() { firstOut[w.from] = i }
        var used = [Bool](repeating: false, count: walks.count)
        /// An unused walk edge leaving `v`, or nil.
        func takeEdge(from v: UInt32) -> UInt32? {
            guard var i = firstOut[v] else { return nil }
            while i < walks.count, walks[i].from == v {
                if !used[i] {
                    used[i] = true
                    return walks[i].to
                }
                i += 1
            }
            return nil
        }

        var loops: [[UInt32]] = []
        for start in walks.indices where !used[start] {
            var path: [UInt32] = [walks[start].from]
            var position: [UInt32: Int] = [walks[start].from: 0]
            var current = walks[start].from
            while let next = takeEdge(from: current) {
                if let k = position[next] {
                    // Closed a loop: cut it out and continue from `next`.
                    let loop = Array(path[k...])
                    for v in loop.dropFirst() { position[v] = nil }
                    path.removeSubrange((k + 1)...)
                    if loop.count >= 3 { loops.append(loop) }
                    current = next
                } else {
                    position[next] = path.count
                    path.append(next)
                    current = next
                }
            }
        }
        return loops
    }
}
