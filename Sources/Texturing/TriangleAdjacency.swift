import ReconstructionCore

/// Edge neighbours of every triangle, found through the triangles around each vertex (no hashing).
/// Edge `e` of triangle `t` runs from corner `e` to corner `(e + 1) % 3`. Two triangles are
/// neighbours across an edge only when exactly two triangles use it and they traverse it in
/// opposite directions (consistently oriented); non-manifold and inconsistently oriented edges
/// count as borders, so charts never grow across them.
struct TriangleAdjacency {
    /// `neighbours[3 * t + e]`: the triangle across edge `e` of `t`, or −1.
    let neighbours: [Int32]
    /// Triangles around each vertex: `vertexTriangles[vertexStart[v] ..< vertexStart[v + 1]]`.
    let vertexStart: [Int32]
    let vertexTriangles: [Int32]

    init(triangles: [SIMD3<UInt32>], vertexCount: Int) {
        var start = [Int32](repeating: 0, count: vertexCount + 1)
        for t in triangles {
            start[Int(t.x) + 1] += 1
            if t.y != t.x { start[Int(t.y) + 1] += 1 }
            if t.z != t.x && t.z != t.y { start[Int(t.z) + 1] += 1 }
        }
        for v in 0..<vertexCount { start[v + 1] += start[v] }
        var fill = start
        var around = [Int32](repeating: 0, count: Int(start[vertexCount]))
        for (k, t) in triangles.enumerated() {
            around[Int(fill[Int(t.x)])] = Int32(k); fill[Int(t.x)] += 1
            if t.y != t.x { around[Int(fill[Int(t.y)])] = Int32(k); fill[Int(t.y)] += 1 }
            if t.z != t.x && t.z != t.y { around[Int(fill[Int(t.z)])] = Int32(k); fill[Int(t.z)] += 1 }
        }

        var across = [Int32](repeating: -1, count: 3 * triangles.count)
        triangles.withUnsafeBufferPointer { tris in
            around.withUnsafeBufferPointer { around in
                for k in 0..<tris.count {
                    let t = tris[k]
                    for e in 0..<3 {
                        let a = t[e], b = t[(e + 1) % 3]
                        if a == b { continue }
                        var other: Int32 = -1, users = 0
                        for j in Int(start[Int(a)])..<Int(start[Int(a) + 1]) {
                            let u = Int(around[j])
                            if u == k { continue }
                            let s = tris[u]
                            // Does u contain the edge {a, b}, and in which direction?
                            for f in 0..<3 where s[f] == a || s[f] == b {
                                let g = (f + 1) % 3
                                if (s[f] == a && s[g] == b) || (s[f] == b && s[g] == a) {
                                    users += 1
                                    other = (s[f] == b && s[g] == a) ? Int32(u) : -2
                                    break
                                }
                            }
                        }
                        if users == 1 && other >= 0 { across[3 * k + e] = other }
                    }
                }
            }
        }
        neighbours = across
        vertexStart = start
        vertexTriangles = around
    }
}
