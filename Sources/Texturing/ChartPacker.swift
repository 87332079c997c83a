/// Places charts in a square texture at one common scale (texels per metre), as large as the
/// packing allows.
///
/// The texture is covered by a grid of square cells (one texel each up to 2048 texels, coarser
/// above so the cost does not grow with the texture). At a given scale every chart becomes a
/// conservative cell footprint; charts go in largest first, each in whichever of its four
/// quarter turns and at whichever column leaves its top lowest, resting on a skyline (per column,
/// the first row free of every placed chart grown by the padding). The scale is found by
/// bisection between a failing upper bound (the scale at which the charts' area alone fills the
/// texture) and the largest scale known to fit. Three chart orders are tried (by height, by area,
/// by width); the best scale wins.
struct ChartPacker {
    /// Where a chart goes: its turn and the grid cell of its footprint's corner.
    struct Placement: Sendable {
        var quarterTurns: Int
        var column: Int
        var row: Int
        /// Footprint size in orientation 0, cells.
        var width: Int
        var height: Int
    }

    struct Packing {
        /// Texels per metre.
        var scale: Double
        var placements: [Placement]
    }

    let textureSize: Int
    let cellTexels: Int
    let gridSize: Int
    /// Empty cells between charts, and between a chart and the border.
    let paddingCells: Int

    /// Columns a wide chart is tried at in the coarse pass (then refined around the best).
    static let coarseSteps = 24

    /// Chart coordinates start this far (texels) from a footprint's edge.
    static let marginTexels = 0.05

    init(textureSize: Int, paddingTexels: Int, maximumGridSize: Int = 2048) {
        self.textureSize = textureSize
        cellTexels = max(1, (textureSize + maximumGridSize - 1) / maximumGridSize)
        gridSize = textureSize / cellTexels
        paddingCells = (max(0, paddingTexels) + cellTexels - 1) / cellTexels
    }

    /// The charts packed at the largest scale found, or nil when they do not fit even when tiny
    /// (more charts than padded cells).
    func pack(_ charts: ChartSet) -> Packing? {
        guard charts.count > 0 else { return Packing(scale: 1, placements: []) }
        let e = charts.extents
        let orders = [
            (0..<charts.count).sorted { (e[$0].y, e[$0].x, $1) > (e[$1].y, e[$1].x, $0) },
            (0..<charts.count).sorted { (e[$0].x * e[$0].y, $1) > (e[$1].x * e[$1].y, $0) },
            (0..<charts.count).sorted { (e[$0].x, e[$0].y, $1) > (e[$1].x, e[$1].y, $0) },
        ]
        var best: Packing? = nil
        for order in orders {
            if let p = pack(charts, order: order, atLeast: best?.scale ?? 0), p.scale > best?.scale ?? 0 { best = p }
        }
        return best
    }

    /// The largest scale found for one chart order, or nil when it cannot beat `floor` (> 0).
    private func pack(_ charts: ChartSet, order: [Int], atLeast floor: Double) -> Packing? {
        let usable = Double((gridSize - 2 * paddingCells) * cellTexels) - 2 * ChartPacker.marginTexels
        guard usable > 0 else { return nil }
        let totalArea = charts.areas.reduce(0, +)
        let longest = charts.extents.reduce(0.0) { max($0, $1.x) }
        var upper = Double.infinity
        if totalArea > 0 { upper = (usable * usable / totalArea).squareRoot() }
        if longest > 0 { upper = min(upper, usable / longest) }
        if !upper.isFinite { upper = 1 }  // every chart is a point

        // Bracket: shrink from the upper bound until a packing fits (give up at once when an
        // earlier order's scale is known and this one cannot beat it).
        var low = floor > 0 ? min(upper, floor * 1.003) : upper * 0.8
        var packed: [Placement]? = attempt(charts, order: order, scale: low)
        if packed == nil && floor > 0 { return nil }
        var shrinks = 0
        while packed == nil {
            shrinks += 1
            if shrinks > 60 { return nil }
            low *= 0.7
            packed = attempt(charts, order: order, scale: low)
        }
        var high = shrinks == 0 ? upper : low / 0.7
        // Bisect geometrically to 0.3 %.
        for _ in 0..<16 where high / low > 1.003 {
            let middle = (low * high).squareRoot()
            if let p = attempt(charts, order: order, scale: middle) {
                low = middle
                packed = p
            } else {
                high = middle
            }
        }
        return Packing(scale: low, placements: packed!)
    }

    /// The chart's footprint at `scale` texels per metre.
    func footprint(of chart: Int, in charts: ChartSet, scale: Double) -> ChartFootprint {
        let m = ChartPacker.marginTexels
        let outline = charts.outline[charts.outlineStart[chart]..<charts.outlineStart[chart + 1]]
        return ChartFootprint(corner: { charts.points[$0] * scale + m }, outline: outline,
                              extent: charts.extents[chart] * scale + m, cellTexels: cellTexels)
    }

    /// Texel coordinates (x right, y up, 0…textureSize) of a chart point (metres, chart frame).
    func texel(of point: SIMD2<Double>, placement: Placement, scale: Double) -> SIMD2<Double> {
        let q = ChartFootprint.turn(point * scale + ChartPacker.marginTexels, quarterTurns: placement.quarterTurns,
                                    width: placement.width, height: placement.height, cellTexels: cellTexels)
        return q + SIMD2(Double(placement.column * cellTexels), Double(placement.row * cellTexels))
    }

    /// One skyline packing at `scale`, or nil when a chart does not fit.
    func attempt(_ charts: ChartSet, order: [Int], scale: Double) -> [Placement]? {
        let p = paddingCells
        let limit = gridSize - p  // first row / column past the usable area
        var skyline = SkylineIndex(columns: gridSize, row: p)
        var placements = [Placement](repeating: Placement(quarterTurns: 0, column: 0, row: 0, width: 0, height: 0),
                                     count: charts.count)
        for chart in order {
            let footprint = footprint(of: chart, in: charts, scale: scale)
            var best: (top: Int, row: Int, column: Int, turns: Int)? = nil
            var bestHigh: [Int32] = []
            let turns = footprint.width == 1 && footprint.height == 1 ? 1 : 4
            for turn in 0..<turns {
                let profile = footprint.profile(quarterTurns: turn)
                let w = profile.width
                guard w <= limit - p else { continue }
                let maxHigh = Int(profile.high.max() ?? 0)
                // Lowest-reaching columns first: they usually decide, so rejection comes early.
                let occupied = (0..<w).filter { profile.low[$0] != ChartFootprint.empty }
                    .sorted { (profile.low[$0], $0) < (profile.low[$1], $1) }
                let low = occupied.map { Int(profile.low[$0]) }
                skyline.rows.withUnsafeBufferPointer { sky in
                    // The chart's top at column x, or nil when not below `cutoff`.
                    func top(at x: Int, cutoff: Int) -> Int? {
                        var y = p
                        for (k, c) in occupied.enumerated() {
                            let need = sky[x + c] - low[k]
                            if need > y {
                                y = need
                                if y + maxHigh >= cutoff { return nil }
                            }
                        }
                        return y + maxHigh < cutoff ? y + maxHigh : nil
                    }
                    func consider(_ x: Int) {
                        if let t = top(at: x, cutoff: best?.top ?? limit) {
                            best = (t, t - maxHigh, x, turn)
                            bestHigh = profile.high
                        }
                    }
                    // Wide charts: every `stride`-th column first, then around the three best.
                    let stride = max(1, w / ChartPacker.coarseSteps)
                    if stride == 1 {
                        // Only columns where the lowest-reaching column of the chart could still
                        // rest low enough to beat the best top so far.
                        guard let c0 = occupied.first else { return }
                        // Start where that column meets the lowest skyline: usually close to the
                        // best, so the search below skips almost everything.
                        let floor = skyline.lowestRow(from: p + c0, to: limit - w + c0)
                        if let column = skyline.firstColumn(below: floor + 1, from: p + c0, to: limit - w + c0) {
                            consider(column - c0)
                        }
                        let maxLow = low.max() ?? 0
                        let solid = occupied.count == w  // no empty column: jumps are safe
                        var x = p
                        while x <= limit - w {
                            let cutoff = best?.top ?? limit
                            if p + maxHigh >= cutoff { break }
                            guard let column = skyline.firstColumn(below: cutoff - maxHigh + low[0], from: x + c0, to: limit - w + c0)
                            else { break }
                            x = column - c0
                            // A column too high for any part of the chart rules out every
                            // position covering it: jump past the rightmost such column.
                            let blocking = cutoff - maxHigh + maxLow
                            var a = x + w - 1
                            while solid && a >= x && sky[a] < blocking { a -= 1 }
                            if solid && a >= x {
                                x = a + 1
                                continue
                            }
                            consider(x)
                            x += 1
                        }
                    } else {
                        // The three best coarse columns (top, then column), kept sorted.
                        var coarse: [(top: Int, x: Int)] = []
                        for x in Swift.stride(from: p, through: limit - w, by: stride) {
                            let cutoff = coarse.count == 3 ? coarse[2].top : limit
                            guard let t = top(at: x, cutoff: cutoff) else { continue }
                            if coarse.count == 3 { coarse.removeLast() }
                            let k = coarse.firstIndex { $0.top > t } ?? coarse.count
                            coarse.insert((t, x), at: k)
                        }
                        var refined: [Int] = []
                        for (_, x0) in coarse {
                            for x in max(p, x0 - stride + 1)...min(limit - w, x0 + stride - 1) { refined.append(x) }
                        }
                        refined.sort()
                        var previous = -1
                        for x in refined where x != previous {
                            consider(x)
                            previous = x
                        }
                    }
                }
            }
            guard let b = best else { return nil }
            placements[chart] = Placement(quarterTurns: b.turns, column: b.column, row: b.row,
                                          width: footprint.width, height: footprint.height)
            // Raise the skyline by the chart grown by the padding.
            let w = bestHigh.count
            for c in -p..<(w + p) {
                let column = b.column + c
                if column < 0 || column >= gridSize { continue }
                var m: Int32 = -1
                for k in max(0, c - p)...min(w - 1, c + p) { m = max(m, bestHigh[k]) }
                if m >= 0 { skyline.raise(column, to: b.row + Int(m) + p + 1) }
            }
        }
        return placements
    }
}
