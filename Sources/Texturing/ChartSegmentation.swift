/// Splits a mesh into charts that each project orthographically onto one plane without flips or
/// fold-overs.
///
/// Charts grow greedily from seeds across manifold edges, flattest neighbour first, while a
/// triangle's normal stays within the growth cone of the chart's running mean normal. Each chart
/// then takes its area-weighted mean normal as projection axis; triangles tilted past the
/// projection limit, and triangles whose projection overlaps an earlier-grown triangle of the
/// chart, are ejected and grow charts of their own. Small charts then join a neighbour whose axis
/// they fit within the projection limit, unless that makes them overlap. Degenerate (near
/// zero-area) triangles never seed or eject; they join a chart they touch.
struct ChartSegmentation {
    struct Parameters {
        /// Cosine of the growth cone's half-angle.
        var growthCosine: Double
        /// Cosine of the steepest angle between a triangle's normal and its chart's axis.
        var projectionCosine: Double
        /// Charts with fewer (non-degenerate) triangles than this try to join a neighbour.
        var smallChartTriangles: Int
        /// Weight of a candidate's distance from the chart's centroid (per square root of the
        /// chart's area) against its normal's deviation (1 − cos) in the growth order.
        var compactness: Double
    }

    /// Chart of every triangle, in 0..<`frames.count`.
    private(set) var chartOf: [Int32]
    /// Projection plane of every chart.
    private(set) var frames: [ChartFrame]

    init(positions: [SIMD3<Float>], triangles: [SIMD3<UInt32>], adjacency: TriangleAdjacency, parameters: Parameters) {
        var work = Work(positions: positions, triangles: triangles, adjacency: adjacency, parameters: parameters)
        work.run()
        (chartOf, frames) = work.compacted()
    }
}

/// The segmentation's state while it runs.
private struct Work {
    let positions: [SIMD3<Float>]
    let triangles: [SIMD3<UInt32>]
    let adjacency: TriangleAdjacency
    let parameters: ChartSegmentation.Parameters
    let n: Int
    /// Unit normal and area per triangle; degenerate triangles have a zero normal.
    var normal: [SIMD3<Double>]
    var area: [Double]
    var degenerate: [Bool]

    var chartOf: [Int32]
    /// Order in which triangles joined their chart (earlier wins an overlap).
    var rank: [Int32]
    var nextRank: Int32 = 0
    /// Triangles ejected after a merge: they do not try to merge again.
    var noMerge: [Bool]
    /// Per chart: projection axis, seed triangle, still in use.
    var axis: [SIMD3<Double>] = []
    var seed: [Int32] = []
    var alive: [Bool] = []

    /// Scratch for projecting a chart's vertices.
    var localIndex: [Int32]
    var localStamp: [Int32]
    var stamp: Int32 = 0

    init(positions: [SIMD3<Float>], triangles: [SIMD3<UInt32>], adjacency: TriangleAdjacency,
         parameters: ChartSegmentation.Parameters) {
        self.positions = positions
        self.triangles = triangles
        self.adjacency = adjacency
        self.parameters = parameters
        n = triangles.count
        normal = [SIMD3<Double>](repeating: .zero, count: n)
        area = [Double](repeating: 0, count: n)
        degenerate = [Bool](repeating: true, count: n)
        for (k, t) in triangles.enumerated() {
            let a = SIMD3<Double>(positions[Int(t.x)]), b = SIMD3<Double>(positions[Int(t.y)]), c = SIMD3<Double>(positions[Int(t.z)])
            let cross = ChartFrame.cross(b - a, c - a)
            let twice = (cross * cross).sum().squareRoot()
            let longest = max(((b - a) * (b - a)).sum(), ((c - b) * (c - b)).sum(), ((a - c) * (a - c)).sum())
            // Height below a millionth of the longest edge: no usable normal.
            if twice.isFinite && twice > 1e-6 * longest && twice > 0 {
                normal[k] = cross / twice
                area[k] = twice / 2
                degenerate[k] = false
            }
        }
        chartOf = [Int32](repeating: -1, count: n)
        rank = [Int32](repeating: 0, count: n)
        noMerge = [Bool](repeating: false, count: n)
        localIndex = [Int32](repeating: 0, count: positions.count)
        localStamp = [Int32](repeating: -1, count: positions.count)
    }

    mutating func run() {
        settle()
        for _ in 0..<4 {
            let merged = mergeSmallCharts()
            if merged.isEmpty { break }
            for t in validate(merged, recomputingAxes: false) { noMerge[Int(t)] = true }
            settle()
        }
        attachDegenerateTriangles()
    }

    /// Grows charts over the unassigned triangles and validates them until nothing is ejected.
    /// Terminates: a chart never ejects its seed, so every round assigns at least one triangle.
    private mutating func settle() {
        while true {
            let grown = grow()
            if grown.isEmpty { return }
            if validate(grown, recomputingAxes: true).isEmpty { return }
        }
    }

    // MARK: Growth

    private mutating func grow() -> [Int32] {
        var created: [Int32] = []
        var heap = MinimumHeap()
        let cosine = parameters.growthCosine
        for s in 0..<n where chartOf[s] < 0 && !degenerate[s] {
            let c = Int32(axis.count)
            created.append(c)
            seed.append(Int32(s))
            alive.append(true)
            var sum = normal[s] * area[s]
            var ax = normal[s]
            var grown = Growth(centroidSum: centroid(s) * area[s], area: area[s])
            assign(s, to: c)
            pushNeighbours(of: s, axis: ax, growth: grown, into: &heap)
            while let popped = heap.pop() {
                let t = Int(popped)
                if chartOf[t] >= 0 { continue }
                if !degenerate[t] {
                    if (normal[t] * ax).sum() < cosine { continue }
                    sum += normal[t] * area[t]
                    let l = (sum * sum).sum().squareRoot()
                    if l > 0 { ax = sum / l }
                    grown.centroidSum += centroid(t) * area[t]
                    grown.area += area[t]
                }
                assign(t, to: c)
                pushNeighbours(of: t, axis: ax, growth: grown, into: &heap)
            }
            heap.removeAll()
            axis.append(ax)
        }
        return created
    }

    @inline(__always)
    private mutating func assign(_ t: Int, to c: Int32) {
        chartOf[t] = c
        rank[t] = nextRank
        nextRank += 1
    }

    /// A growing chart's area-weighted centroid sum and area.
    struct Growth {
        var centroidSum: SIMD3<Double>
        var area: Double
    }

    @inline(__always)
    private func centroid(_ t: Int) -> SIMD3<Double> {
        let k = triangles[t]
        return (SIMD3<Double>(positions[Int(k.x)]) + SIMD3<Double>(positions[Int(k.y)]) + SIMD3<Double>(positions[Int(k.z)])) / 3
    }

    /// Pushes the unassigned edge neighbours of `t`. Cost: how far the normal turns from the
    /// chart's axis, plus how far the triangle lies from the chart's centroid relative to the
    /// chart's size (keeps charts round, so they pack tightly and have short seams).
    @inline(__always)
    private func pushNeighbours(of t: Int, axis ax: SIMD3<Double>, growth: Growth, into heap: inout MinimumHeap) {
        let centre = growth.centroidSum / max(growth.area, 1e-300)
        let reach = 1 / max(growth.area, 1e-300).squareRoot()
        for e in 0..<3 {
            let u = adjacency.neighbours[3 * t + e]
            if u < 0 || chartOf[Int(u)] >= 0 { continue }
            var cost = degenerate[Int(u)] ? 1 : 1 - (normal[Int(u)] * ax).sum()
            if parameters.compactness > 0 {
                let d = centroid(Int(u)) - centre
                cost += parameters.compactness * (d * d).sum().squareRoot() * reach
            }
            heap.push(cost: Float(cost), index: u)
        }
    }

    // MARK: Validation

    /// Sets the axes of `charts` (when asked), ejects their steep and overlapping triangles and
    /// returns the ejected ones.
    private mutating func validate(_ charts: [Int32], recomputingAxes: Bool) -> [Int32] {
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
    private mutating func ejectOverlaps(among list: [Int32], frame: ChartFrame) -> [Int32] {
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
    private func membership() -> (start: [Int32], members: [Int32]) {
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

    // MARK: Merging

    /// Moves small charts into the neighbour they share the longest border with, when all their
    /// triangles fit that neighbour's axis. Returns the charts that received triangles.
    private mutating func mergeSmallCharts() -> [Int32] {
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

    // MARK: Degenerate leftovers

    /// Degenerate triangles not reached by growth join the chart of a triangle they share an edge
    /// or a corner with, spreading breadth-first; all-degenerate pieces get one chart each.
    private mutating func attachDegenerateTriangles() {
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
    private func touchedChart(of t: Int) -> Int32 {
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
    private func spread(from t: Int, queue: inout [Int], queued: inout [Bool]) {
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
