/// Connected groups of the view graph: images joined by verified pairs (union–find).
struct ViewGraphGroups {
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
        let r = root(image)
        return parent.indices.filter { root($0) == r }
    }

    /// The members of the largest group (ties: the group of the lowest image index).
    func largest() -> [Int] {
        var size: [Int: Int] = [:]
        for r in parent { size[r, default: 0] += 1 }
        guard let root = size.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key else { return [] }
        return parent.indices.filter { parent[$0] == root }
    }
}
