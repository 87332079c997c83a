import ReconstructionCore

extension TriangleMesh {
    /// Gives each vertex in `targets` a colour from the rest of the mesh: the mean colour of its
    /// neighbours that are nearer (in edges) to a vertex outside `targets`, ring by ring outwards,
    /// so an unseen patch takes the colours around its rim. Vertices not connected to any vertex
    /// outside `targets` keep their colour. Returns how many got one.
    @discardableResult
    public mutating func spreadColours(into targets: Set<Int>) -> Int {
        guard hasColors, !targets.isEmpty else { return 0 }
        var neighbours = [[Int]](repeating: [], count: vertexCount)
        for t in triangles {
            let a = Int(t.x), b = Int(t.y), c = Int(t.z)
            guard a < vertexCount, b < vertexCount, c < vertexCount else { continue }
            neighbours[a] += [b, c]
            neighbours[b] += [a, c]
            neighbours[c] += [a, b]
        }
        // Rings in breadth-first order from the coloured vertices: a vertex's colour is the mean of
        // its neighbours in earlier rings, all of which are final by then.
        var ring = [Int](repeating: -1, count: vertexCount)
        var queue: [Int] = []
        for v in 0..<vertexCount where !targets.contains(v) {
            ring[v] = 0
            queue.append(v)
        }
        var head = 0, coloured = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            if ring[v] > 0 {
                var sum = SIMD3<Float>(repeating: 0), count: Float = 0
                for n in neighbours[v] where ring[n] >= 0 && ring[n] < ring[v] {
                    sum += colors[n]
                    count += 1
                }
                colors[v] = sum / count  // count ≥ 1: the vertex that reached v is in the ring before
                coloured += 1
            }
            for n in neighbours[v] where ring[n] < 0 {
                ring[n] = ring[v] + 1
                queue.append(n)
            }
        }
        return coloured
    }
}
