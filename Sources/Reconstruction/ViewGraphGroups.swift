/// Connected groups of the view graph: images joined by verified pairs (union–find).
struct ViewGraphGroups: Sendable {
    private var parent: [Int]

    init(imageCount: Int, pairs: [(Int, Int)]) {
        parent = Array(0..<imageCount)
        for (a, b) in pairs {
            let ra = root(a), rb = root(b)
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        for i in parent.indices { parent[i] = root(i) }  // flatten: every entry names its group's root
    }

    private func root(_ i: Int) -> Int {
        var r = i
        while parent[r] != r { r = parent[r] }
        return r
    }

    /// The images in `image`'s group, itself included, in index order.
    func members(of image: Int) -> [Int] {
        parent.indices.filter { parent[$0] == parent[image] }
    }

    /// Every group's members in index order, largest group first (ties: lowest first member).
    func bySize() -> [[Int]] {
        var members: [Int: [Int]] = [:]
        for (i, r) in parent.enumerated() { members[r, default: []].append(i) }
        return members.values.sorted { $0.count > $1.count || ($0.count == $1.count && $0[0] < $1[0]) }
    }
}
