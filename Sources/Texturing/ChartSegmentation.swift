/// Splits a mesh into charts that each project orthographically onto one plane without flips or
/// fold-overs.
///
/// Charts grow greedily from seeds across manifold edges, flattest and nearest neighbour first,
/// while a triangle's normal stays within the growth cone of the chart's running mean normal. Each chart
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
        var work = State(positions: positions, triangles: triangles, adjacency: adjacency, parameters: parameters)
        work.run()
        (chartOf, frames) = work.compacted()
    }
}

extension ChartSegmentation {
    /// The segmentation's state while it runs (validation and merging in their own files).
    struct State {
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
        mutating func settle() {
            while true {
                let grown = grow()
                if grown.isEmpty { return }
                if validate(grown, recomputingAxes: true).isEmpty { return }
            }
        }

        // MARK: Growth

        mutating func grow() -> [Int32] {
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
        mutating func assign(_ t: Int, to c: Int32) {
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
        func centroid(_ t: Int) -> SIMD3<Double> {
            let k = triangles[t]
            return (SIMD3<Double>(positions[Int(k.x)]) + SIMD3<Double>(positions[Int(k.y)]) + SIMD3<Double>(positions[Int(k.z)])) / 3
        }

        /// Pushes the unassigned edge neighbours of `t`. Cost: how far the normal turns from the
        /// chart's axis, plus how far the triangle lies from the chart's centroid relative to the
        /// chart's size (keeps charts round, so they pack tightly and have short seams).
        @inline(__always)
        func pushNeighbours(of t: Int, axis ax: SIMD3<Double>, growth: Growth, into heap: inout MinimumHeap) {
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
    }
}
