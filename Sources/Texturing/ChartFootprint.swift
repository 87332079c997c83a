/// The cells of the packing grid a chart may cover at one scale, reduced to what a skyline packer
/// needs: the lowest and highest covered row of each column, in each of the four quarter-turn
/// orientations. Conservative: every cell the chart touches (grown by a small tolerance) counts,
/// so no texel centre of the chart falls outside it.
///
/// Only the chart's outline is drawn: the lowest point of the chart within a column strip cannot
/// lie inside the chart (moving down would stay in both), so it lies on a border edge, and the
/// same holds for the highest point and for rows. Border edges are the edges not shared by
/// exactly two triangles in opposite directions, plus every edge of a zero-area triangle.
struct ChartFootprint {
    /// Columns and rows of the footprint in orientation 0.
    let width: Int
    let height: Int
    /// Per column: lowest and highest covered row (`empty` / −1 for an empty column).
    private var columnLow: [Int32]
    private var columnHigh: [Int32]
    /// Per row: leftmost and rightmost covered column.
    private var rowLeft: [Int32]
    private var rowRight: [Int32]

    static let empty = Int32.max

    /// Texels by which cells are grown before testing: absorbs rounding to `Float` UVs.
    static let toleranceTexels = 0.02

    /// - Parameters:
    ///   - corner: the chart's points in texels of the chart's own frame (all ≥ 0).
    ///   - outline: the chart's border edges (pairs of point indices).
    ///   - extent: the largest coordinates of the points, texels.
    ///   - cellTexels: texels per cell side.
    init(corner: (Int) -> SIMD2<Double>, outline: ArraySlice<SIMD2<Int32>>, extent: SIMD2<Double>, cellTexels: Int) {
        let cell = Double(cellTexels)
        let tolerance = ChartFootprint.toleranceTexels / cell
        width = Int(((extent.x / cell) + tolerance).rounded(.down)) + 1
        height = Int(((extent.y / cell) + tolerance).rounded(.down)) + 1
        columnLow = [Int32](repeating: ChartFootprint.empty, count: width)
        columnHigh = [Int32](repeating: -1, count: width)
        rowLeft = [Int32](repeating: ChartFootprint.empty, count: height)
        rowRight = [Int32](repeating: -1, count: height)
        for e in outline {
            cover(corner(Int(e.x)) / cell, corner(Int(e.y)) / cell, tolerance: tolerance)
        }
    }

    /// Marks the cells (grown by `e`) that the segment a–b touches, row by row.
    private mutating func cover(_ a: SIMD2<Double>, _ b: SIMD2<Double>, tolerance e: Double) {
        let y0 = clamp(Int((min(a.y, b.y) - e).rounded(.down)), height)
        let y1 = clamp(Int((max(a.y, b.y) + e).rounded(.down)), height)
        let dy = b.y - a.y
        for y in y0...y1 {
            // The part of the segment inside the grown row band [y − e, y + 1 + e].
            var xlo = min(a.x, b.x), xhi = max(a.x, b.x)
            if dy != 0 {
                let t0 = (Double(y) - e - a.y) / dy, t1 = (Double(y + 1) + e - a.y) / dy
                let s0 = max(0, min(t0, t1)), s1 = min(1, max(t0, t1))
                if s0 > s1 { continue }
                let xa = a.x + s0 * (b.x - a.x), xb = a.x + s1 * (b.x - a.x)
                xlo = min(xa, xb)
                xhi = max(xa, xb)
            }
            // Cells whose grown span [x − e, x + 1 + e] meets [xlo, xhi].
            let x0 = clamp(Int((xlo - 1 - e).rounded(.up)), width)
            let x1 = clamp(Int((xhi + e).rounded(.down)), width)
            if x0 > x1 { continue }
            rowLeft[y] = min(rowLeft[y], Int32(x0))
            rowRight[y] = max(rowRight[y], Int32(x1))
            for x in x0...x1 {
                columnLow[x] = min(columnLow[x], Int32(y))
                columnHigh[x] = max(columnHigh[x], Int32(y))
            }
        }
    }

    @inline(__always)
    private func clamp(_ v: Int, _ count: Int) -> Int { max(0, min(count - 1, v)) }

    /// Columns of the footprint turned by `quarterTurns` × 90° counter-clockwise: its width and
    /// height and, per column, the lowest and highest covered row.
    func profile(quarterTurns: Int) -> (width: Int, height: Int, low: [Int32], high: [Int32]) {
        let e = ChartFootprint.empty
        switch quarterTurns & 3 {
        case 0:
            return (width, height, columnLow, columnHigh)
        case 1:  // cell (x, y) → (h − 1 − y, x)
            let low = (0..<height).map { k in rowLeft[height - 1 - k] }
            let high = (0..<height).map { k in rowRight[height - 1 - k] }
            return (height, width, low, high)
        case 2:  // cell (x, y) → (w − 1 − x, h − 1 − y)
            let h = Int32(height)
            let low = (0..<width).map { k in columnHigh[width - 1 - k] < 0 ? e : h - 1 - columnHigh[width - 1 - k] }
            let high = (0..<width).map { k in columnLow[width - 1 - k] == e ? -1 : h - 1 - columnLow[width - 1 - k] }
            return (width, height, low, high)
        default:  // cell (x, y) → (y, w − 1 − x)
            let w = Int32(width)
            let low = (0..<height).map { k in rowRight[k] < 0 ? e : w - 1 - rowRight[k] }
            let high = (0..<height).map { k in rowLeft[k] == e ? -1 : w - 1 - rowLeft[k] }
            return (height, width, low, high)
        }
    }

    /// A point of the chart (texels, orientation 0) after `quarterTurns`, within a footprint of
    /// `width` × `height` cells of `cellTexels`.
    static func turn(_ q: SIMD2<Double>, quarterTurns: Int, width: Int, height: Int, cellTexels: Int) -> SIMD2<Double> {
        let wt = Double(width * cellTexels), ht = Double(height * cellTexels)
        switch quarterTurns & 3 {
        case 0: return q
        case 1: return SIMD2(ht - q.y, q.x)
        case 2: return SIMD2(wt - q.x, ht - q.y)
        default: return SIMD2(q.y, wt - q.x)
        }
    }
}
