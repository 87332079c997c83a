extension ChartSegmentation.State {
    /// Moves small charts into the neighbour they share the longest border with, when all their
    /// triangles fit that neighbour's axis. Returns the charts that received triangles.
    mutating func mergeSmallCharts() -> [Int32] {
        let (start, flat) = membership()
        var members: [[Int32]] = (0..<axis.count).map { c in Array(flat[Int(start[c])..<Int(start[c + 1])]) }
        var size = members.map { list in list.reduce(0) { $0 + (degenerate[Int($1)] ? 0 : 1) } }
        let small = parameters.smallChartTriangles
        let candidates = (0..<axis.count).filter { c in
            alive[c] && size[c] > 0 && size[c] < small && !members[c].contains { noMerge[Int($0)] }
        }.sorted { (size[$0], $0) < (size[$1], $1) }
        var received: [Bool] = Array(repeating: false, count: axis.count)
        for s in candidates where alive[s] && size[s] < small {
            var borders: [(chart: Int32, length: Double)] = []
            for t in members[s] {
                let tri = triangles[Int(t)]
                for e in 0..<3 {
                    let u = adjacency.neighbours[3 * Int(t) + e]
                    if u < 0 { continue }
                    let other = chartOf[Int(u)]
                    if other < 0 || Int(other) == s { continue }
                    let d = positions[Int(tri[(e + 1) % 3])] - positions[Int(tri[e])]
                    let length = Double((d * d).sum().squareRoot())
                    if let k = borders.firstIndex(where: { $0.chart == other }) { borders[k].length += length } else {
                        borders.append((other, length))
                    }
                }
            }
            borders.sort { ($0.length, -$0.chart) > ($1.length, -$1.chart) }
            for (target, _) in borders {
                let ax = axis[Int(target)]
                let fits = members[s].allSatisfy { t in
                    degenerate[Int(t)] || (normal[Int(t)] * ax).sum() >= parameters.projectionCosine
                }
                if !fits { continue }
                for t in members[s] { assign(Int(t), to: target) }
                members[Int(target)] += members[s]
                members[s] = []
                size[Int(target)] += size[s]
                size[s] = 0
                alive[s] = false
                received[Int(target)] = true
                break
            }
        }
        return (0..<axis.count).filter { received[$0] && alive[$0] }.map { Int32($0) }
    }

    /// Degenerate triangles not reached by growth join the chart of a triangle they share an edge
    /// or a corner with, spreading breadth-first; all-degenerate pieces get one chart each.
    mutating func attachDegenerateTriangles() {
        var queue: [Int] = []
        var queued = [Bool](repeating: false, count: n)
        for t in 0..<n where chartOf[t] < 0 && touchedChart(of: t) >= 0 {
            queue.append(t)
            queued[t] = true
        }
        var head = 0
        var next = 0  // scan position for pieces no chart reaches
        while true {
            if head == queue.count {
                while next < n && chartOf[next] >= 0 { next += 1 }
                if next == n { return }
                // Nothing reachable: this triangle starts a chart of its own.
                seed.append(Int32(next))
                alive.append(true)
                axis.append(SIMD3(0, 0, 1))
                assign(next, to: Int32(axis.count - 1))
                queued[next] = true
                spread(from: next, queue: &queue, queued: &queued)
                continue
            }
            let t = queue[head]
            head += 1
            if chartOf[t] < 0 { assign(t, to: touchedChart(of: t)) }
            spread(from: t, queue: &queue, queued: &queued)
        }
    }

    /// Chart of an edge neighbour or, failing that, of a triangle sharing a corner; −1 if none.
    func touchedChart(of t: Int) -> Int32 {
        var found: Int32 = -1
        for e in 0..<3 where found < 0 {
            let u = Int(adjacency.neighbours[3 * t + e])
            if u >= 0 { found = chartOf[u] }
        }
        let corners = triangles[t]
        for k in 0..<3 where found < 0 {
            let v = Int(corners[k])
            var j = Int(adjacency.vertexStart[v])
            let end = Int(adjacency.vertexStart[v + 1])
            while found < 0 && j < end {
                found = chartOf[Int(adjacency.vertexTriangles[j])]
                j += 1
            }
        }
        return found
    }

    /// Queues the unassigned triangles sharing a corner with `t`.
    func spread(from t: Int, queue: inout [Int], queued: inout [Bool]) {
        for k in 0..<3 {
            let v = Int(triangles[t][k])
            for j in Int(adjacency.vertexStart[v])..<Int(adjacency.vertexStart[v + 1]) {
                let u = Int(adjacency.vertexTriangles[j])
                if chartOf[u] < 0 && !queued[u] {
                    queued[u] = true
                    queue.append(u)
                }
            }
        }
    }

    /// Chart indices renumbered densely (in order of first use by chart index) and their frames.
    func compacted() -> ([Int32], [ChartFrame]) {
        var used = [Bool](repeating: false, count: axis.count)
        for c in chartOf { used[Int(c)] = true }
        var renumber = [Int32](repeating: -1, count: axis.count)
        var frames: [ChartFrame] = []
        for c in 0..<axis.count where used[c] {
            renumber[c] = Int32(frames.count)
            frames.append(ChartFrame(axis: axis[c]))
        }
        return (chartOf.map { renumber[Int($0)] }, frames)
    }
}
