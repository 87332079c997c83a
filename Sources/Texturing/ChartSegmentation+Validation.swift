extension ChartSegmentation.State {
    /// Sets the axes of `charts` (when asked), ejects their steep and overlapping triangles and
    /// returns the ejected ones.
    mutating func validate(_ charts: [Int32], recomputingAxes: Bool) -> [Int32] {
        let (start, members) = membership()
        var ejected: [Int32] = []
        for c in charts where alive[Int(c)] {
            let list = members[Int(start[Int(c)])..<Int(start[Int(c) + 1])]
            if list.isEmpty { continue }
            let s = Int(seed[Int(c)])
            if recomputingAxes {
                var sum = SIMD3<Double>.zero
                for t in list where !degenerate[Int(t)] { sum += normal[Int(t)] * area[Int(t)] }
                var ax = ChartFrame.normalized(sum)
                if chartOf[s] == c && (ax * normal[s]).sum() < parameters.projectionCosine { ax = normal[s] }
                if (ax * ax).sum() == 0 { ax = SIMD3(0, 0, 1) }
                axis[Int(c)] = ax
            }
            let ax = axis[Int(c)]
            var kept: [Int32] = []
            kept.reserveCapacity(list.count)
            for t in list where !degenerate[Int(t)] {
                if Int(t) != s && (normal[Int(t)] * ax).sum() < parameters.projectionCosine {
                    chartOf[Int(t)] = -1
                    ejected.append(t)
                } else {
                    kept.append(t)
                }
            }
            ejected += ejectOverlaps(among: kept, frame: ChartFrame(axis: ax))
        }
        return ejected
    }

    /// Ejects the later-grown triangle of every overlapping pair (greedily, so each pair loses one).
    mutating func ejectOverlaps(among list: [Int32], frame: ChartFrame) -> [Int32] {
        guard list.count > 1 else { return [] }
        stamp += 1
        var points: [SIMD2<Double>] = []
        var local: [SIMD3<Int32>] = []
        local.reserveCapacity(list.count)
        let origin = SIMD3<Double>(positions[Int(triangles[Int(list[0])].x)])
        for t in list {
            var corners = SIMD3<Int32>.zero
            for k in 0..<3 {
                let v = Int(triangles[Int(t)][k])
                if localStamp[v] != stamp {
                    localStamp[v] = stamp
                    localIndex[v] = Int32(points.count)
                    points.append(frame.project(SIMD3<Double>(positions[v]) - origin))
                }
                corners[k] = localIndex[v]
            }
            local.append(corners)
        }
        let pairs = ProjectedOverlaps.pairs(points: points, triangles: local)
        if pairs.isEmpty { return [] }
        var ordered = pairs.map { p -> (later: Int32, earlier: Int32) in
            let a = list[Int(p.0)], b = list[Int(p.1)]
            return rank[Int(a)] > rank[Int(b)] ? (a, b) : (b, a)
        }
        ordered.sort { (rank[Int($0.later)], rank[Int($0.earlier)]) < (rank[Int($1.later)], rank[Int($1.earlier)]) }
        var ejected: [Int32] = []
        for (later, earlier) in ordered where chartOf[Int(later)] >= 0 && chartOf[Int(earlier)] >= 0 {
            chartOf[Int(later)] = -1
            ejected.append(later)
        }
        return ejected
    }

    /// Triangles grouped by chart (counting sort, triangle order within a chart).
    func membership() -> (start: [Int32], members: [Int32]) {
        var start = [Int32](repeating: 0, count: axis.count + 1)
        for c in chartOf where c >= 0 { start[Int(c) + 1] += 1 }
        for k in 0..<axis.count { start[k + 1] += start[k] }
        var fill = start
        var members = [Int32](repeating: 0, count: Int(start[axis.count]))
        for (t, c) in chartOf.enumerated() where c >= 0 {
            members[Int(fill[Int(c)])] = Int32(t)
            fill[Int(c)] += 1
        }
        return (start, members)
    }
}
