import ReconstructionCore

/// Points binned in a uniform grid of cubic cells, for nearest-neighbour queries.
struct NeighbourGrid: Sendable {
    let points: [SIMD3<Float>]
    /// Cell edge, metres.
    let cellSize: Float
    /// Point indices sorted by cell.
    private let order: [Int32]
    /// Cell key → range in `order`.
    private let cells: [Int64: Range<Int>]
    /// The occupied cells' keys and ranges, in `order`'s order.
    private let occupied: [(Int64, Range<Int>)]

    /// Bins the finite points of `points` in cells of `cellSize` (> 0).
    init(points: [SIMD3<Float>], cellSize: Float) {
        self.points = points
        self.cellSize = cellSize
        var keyed: [(key: Int64, index: Int32)] = []
        keyed.reserveCapacity(points.count)
        for (i, p) in points.enumerated() where p.x.isFinite && p.y.isFinite && p.z.isFinite {
            keyed.append((Self.key(Self.cell(of: p, size: cellSize)), Int32(i)))
        }
        keyed.sort { $0.key < $1.key }
        order = keyed.map(\.index)
        var cells: [Int64: Range<Int>] = [:]
        var start = 0
        for i in 1...max(1, keyed.count) where i == keyed.count || keyed[i].key != keyed[start].key {
            if start < keyed.count { cells[keyed[start].key] = start..<i }
            start = i
        }
        self.cells = cells
        occupied = cells.map { ($0.key, $0.value) }.sorted { $0.1.lowerBound < $1.1.lowerBound }
    }

    static func cell(of p: SIMD3<Float>, size: Float) -> SIMD3<Int32> {
        let c = (p / size).rounded(.down)
        return SIMD3<Int32>(c.clamped(lowerBound: SIMD3(repeating: -1_000_000), upperBound: SIMD3(repeating: 1_000_000)))
    }

    /// 21 bits per axis.
    static func key(_ c: SIMD3<Int32>) -> Int64 {
        let mask: Int64 = (1 << 21) - 1
        return (Int64(c.x) & mask) << 42 | (Int64(c.y) & mask) << 21 | (Int64(c.z) & mask)
    }

    /// Calls `body(members, candidates)` for each occupied cell, with the indices of its points
    /// and of the points in it and its 26 neighbours, for the occupied cells in `cellRange`
    /// (in a fixed order; there are `occupiedCellCount`), so callers can share the work out.
    func forEachCell(in cellRange: Range<Int>, _ body: (ArraySlice<Int32>, [Int32]) -> Void) {
        var candidates: [Int32] = []
        for c in cellRange {
            let (key, range) = occupied[c]
            let centre = Self.unpack(key)
            candidates.removeAll(keepingCapacity: true)
            for z in Int32(-1)...1 {
                for y in Int32(-1)...1 {
                    for x in Int32(-1)...1 {
                        if let r = cells[Self.key(centre &+ SIMD3(x, y, z))] { candidates += order[r] }
                    }
                }
            }
            body(order[range], candidates)
        }
    }

    /// Number of occupied cells.
    var occupiedCellCount: Int { occupied.count }

    /// The cell coordinates of a key (inverse of `key` for coordinates within ±2²⁰).
    static func unpack(_ key: Int64) -> SIMD3<Int32> {
        func field(_ shift: Int64) -> Int32 {
            let raw = (key >> shift) & ((1 << 21) - 1)
            return Int32(raw >= (1 << 20) ? raw - (1 << 21) : raw)
        }
        return SIMD3(field(42), field(21), field(0))
    }

    /// Indices of the (up to) `k` points nearest `p` within `maximumRings` cells, nearest first
    /// (a point at `p` itself included).
    func nearest(_ k: Int, to p: SIMD3<Float>, maximumRings: Int = 2) -> [Int32] {
        let centre = Self.cell(of: p, size: cellSize)
        var candidates: [(distance: Float, index: Int32)] = []
        for rings in 1...max(1, maximumRings) {
            candidates.removeAll(keepingCapacity: true)
            let r = Int32(rings)
            for z in -r...r {
                for y in -r...r {
                    for x in -r...r {
                        guard let range = cells[Self.key(centre &+ SIMD3(x, y, z))] else { continue }
                        for i in order[range] {
                            let d = points[Int(i)] - p
                            candidates.append((simdDot(d, d), i))
                        }
                    }
                }
            }
            // Enough points, and the k-th is nearer than any point outside the searched cells can be.
            if candidates.count >= k {
                candidates.sort { $0.distance < $1.distance }
                let reach = Float(rings) * cellSize
                if candidates[k - 1].distance <= reach * reach || rings == maximumRings { break }
            }
        }
        if candidates.count < k { candidates.sort { $0.distance < $1.distance } }
        return candidates.prefix(k).map(\.index)
    }
}
