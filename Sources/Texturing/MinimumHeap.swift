/// A binary min-heap of (non-negative cost, index) pairs packed into one `UInt64`: the cost's
/// `Float` bit pattern in the high half (non-negative floats order like their bits), the index in
/// the low half, so ties break by index and the order is deterministic.
struct MinimumHeap {
    private var items: [UInt64] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(cost: Float, index: Int32) {
        let c = cost.isFinite ? max(0, cost) : Float.greatestFiniteMagnitude
        items.append(UInt64(c.bitPattern) << 32 | UInt64(UInt32(bitPattern: index)))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent] <= items[i] { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    /// The index with the smallest cost, removed.
    mutating func pop() -> Int32? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            let n = items.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n && items[l] < items[m] { m = l }
                if r < n && items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(m, i)
                i = m
            }
        }
        return Int32(bitPattern: UInt32(truncatingIfNeeded: top))
    }
}
