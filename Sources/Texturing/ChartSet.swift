import ReconstructionCore

/// The charts of a segmented mesh, flattened: each chart's vertices projected onto its plane,
/// turned to their smallest bounding rectangle (wider than tall) and moved to start at the origin.
/// Units are metres (the mesh's units). UV vertex `k` belongs to one chart only.
struct ChartSet {
    /// Position index of each UV vertex.
    var uvPosition: [UInt32] = []
    /// Chart-plane coordinates of each UV vertex, metres, each chart's in 0…`extents[chart]`.
    var points: [SIMD2<Double>] = []
    /// UV vertex indices per triangle (same order as the mesh's triangles).
    var uvTriangles: [SIMD3<UInt32>] = []
    /// Each chart's triangles as UV vertex indices: `chartTriangles[chartStart[c] ..< chartStart[c + 1]]`.
    var chartStart: [Int] = [0]
    var chartTriangles: [SIMD3<Int32>] = []
    /// Each chart's border edges (UV vertex pairs; see `ChartFootprint`):
    /// `outline[outlineStart[c] ..< outlineStart[c + 1]]`.
    var outlineStart: [Int] = [0]
    var outline: [SIMD2<Int32>] = []
    /// Size of each chart's rectangle, metres (x ≥ y).
    var extents: [SIMD2<Double>] = []
    /// Projected area of each chart, square metres.
    var areas: [Double] = []

    var count: Int { extents.count }

    init(positions: [SIMD3<Float>], triangles: [SIMD3<UInt32>], adjacency: TriangleAdjacency,
         chartOf: [Int32], frames: [ChartFrame]) {
        let chartCount = frames.count
        // Triangles grouped by chart, in triangle order.
        var start = [Int](repeating: 0, count: chartCount + 1)
        for c in chartOf { start[Int(c) + 1] += 1 }
        for c in 0..<chartCount { start[c + 1] += start[c] }
        var fill = start
        var members = [Int32](repeating: 0, count: triangles.count)
        for (t, c) in chartOf.enumerated() {
            members[fill[Int(c)]] = Int32(t)
            fill[Int(c)] += 1
        }

        uvTriangles = [SIMD3<UInt32>](repeating: .zero, count: triangles.count)
        chartTriangles.reserveCapacity(triangles.count)
        var localIndex = [UInt32](repeating: 0, count: positions.count)
        var localStamp = [Int32](repeating: -1, count: positions.count)
        for c in 0..<chartCount {
            let frame = frames[c]
            let first = points.count
            let list = members[start[c]..<start[c + 1]]
            let origin = SIMD3<Double>(positions[Int(triangles[Int(list.first!)].x)])
            for t in list {
                var corners = SIMD3<UInt32>.zero
                for k in 0..<3 {
                    let v = Int(triangles[Int(t)][k])
                    if localStamp[v] != Int32(c) {
                        localStamp[v] = Int32(c)
                        localIndex[v] = UInt32(points.count)
                        uvPosition.append(UInt32(v))
                        var p = frame.project(SIMD3<Double>(positions[v]) - origin)
                        if !(p.x.isFinite && p.y.isFinite) { p = .zero }
                        points.append(p)
                    }
                    corners[k] = localIndex[v]
                }
                uvTriangles[Int(t)] = corners
                chartTriangles.append(SIMD3<Int32>(truncatingIfNeeded: corners))
            }
            chartStart.append(chartTriangles.count)

            // Smallest rectangle, then translate to the origin.
            let rectangle = MinimumAreaRectangle(points: Array(points[first...]))
            var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
            for k in first..<points.count {
                let q = rectangle.rotate(points[k])
                points[k] = q
                lo = pointwiseMin(lo, q)
                hi = pointwiseMax(hi, q)
            }
            for k in first..<points.count { points[k] = pointwiseMax(points[k] - lo, .zero) }
            extents.append(pointwiseMax(hi - lo, .zero))

            var area = 0.0
            for t in list {
                let corners = SIMD3<Int32>(truncatingIfNeeded: uvTriangles[Int(t)])
                let a = points[Int(corners.x)], b = points[Int(corners.y)], d = points[Int(corners.z)]
                let twice = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x)
                area += abs(twice) / 2
                let longest = max(((b - a) * (b - a)).sum(), ((d - b) * (d - b)).sum(), ((a - d) * (a - d)).sum())
                let flat = !(twice > 1e-6 * longest)
                for e in 0..<3 {
                    let u = adjacency.neighbours[3 * Int(t) + e]
                    if flat || u < 0 || chartOf[Int(u)] != Int32(c) {
                        outline.append(SIMD2(corners[e], corners[(e + 1) % 3]))
                    }
                }
            }
            outlineStart.append(outline.count)
            areas.append(area)
        }
    }
}
