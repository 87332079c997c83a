/// The skyline of a packing (per column, the first free row) with a minimum tree over it, so a
/// packer can jump straight to the columns low enough to be worth trying.
struct SkylineIndex {
    /// First free row per column.
    private(set) var rows: [Int]
    private var leaves: Int
    /// Implicit binary tree: node k has children 2k and 2k + 1; leaves start at `leaves`.
    private var minimum: [Int]

    init(columns: Int, row: Int) {
        rows = [Int](repeating: row, count: columns)
        leaves = 1
        while leaves < columns { leaves *= 2 }
        minimum = [Int](repeating: Int.max, count: 2 * leaves)
        for c in 0..<columns { minimum[leaves + c] = row }
        for k in stride(from: leaves - 1, to: 0, by: -1) { minimum[k] = min(minimum[2 * k], minimum[2 * k + 1]) }
    }

    /// Raises column `c` to at least `row`.
    mutating func raise(_ c: Int, to row: Int) {
        guard row > rows[c] else { return }
        rows[c] = row
        var k = leaves + c
        minimum[k] = row
        k /= 2
        while k > 0 {
            let m = min(minimum[2 * k], minimum[2 * k + 1])
            if minimum[k] == m { break }
            minimum[k] = m
            k /= 2
        }
    }

    /// The lowest free row among columns `from...to` (`Int.max` for an empty range).
    func lowestRow(from: Int, to: Int) -> Int {
        guard from <= to else { return Int.max }
        var result = Int.max
        var l = from + leaves, r = to + leaves + 1
        while l < r {
            if l & 1 == 1 { result = min(result, minimum[l]); l += 1 }
            if r & 1 == 1 { r -= 1; result = min(result, minimum[r]) }
            l /= 2
            r /= 2
        }
        return result
    }

    /// The first column in `from...to` whose free row is below `row`, or nil.
    func firstColumn(below row: Int, from: Int, to: Int) -> Int? {
        guard from <= to else { return nil }
        return search(node: 1, nodeLow: 0, nodeHigh: leaves - 1, from: from, to: to, below: row)
    }

    private func search(node: Int, nodeLow: Int, nodeHigh: Int, from: Int, to: Int, below row: Int) -> Int? {
        if nodeHigh < from || nodeLow > to || minimum[node] >= row { return nil }
        if nodeLow == nodeHigh { return nodeLow }
        let middle = (nodeLow + nodeHigh) / 2
        if let c = search(node: 2 * node, nodeLow: nodeLow, nodeHigh: middle, from: from, to: to, below: row) { return c }
        return search(node: 2 * node + 1, nodeLow: middle + 1, nodeHigh: nodeHigh, from: from, to: to, below: row)
    }
}
