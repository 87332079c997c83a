/// Which image pairs are matched. Exhaustive matching costs n²; ordered captures need only a
/// window of neighbours, and large unordered ones a retrieval shortlist.
public enum PairSelection: Sendable, Equatable {
    /// Every pair.
    case exhaustive
    /// Each image with the next `window` images in capture order.
    case sequential(window: Int)
    /// Exhaustive up to `exhaustiveLimit` images, otherwise sequential window plus retrieval.
    case automatic

    /// Images up to which `.automatic` matches every pair.
    public static let exhaustiveLimit = 40

    /// The pairs (i < j) to match among `count` images.
    public func pairs(count: Int) -> [ImagePair] {
        switch self {
        case .exhaustive:
            return Self.exhaustivePairs(count)
        case .sequential(let window):
            var out: [ImagePair] = []
            for i in 0..<count {
                for j in (i + 1)..<min(count, i + 1 + max(1, window)) { out.append(ImagePair(i, j)) }
            }
            return out
        case .automatic:
            return count <= Self.exhaustiveLimit ? Self.exhaustivePairs(count) : PairSelection.sequential(window: 20).pairs(count: count)
        }
    }

    private static func exhaustivePairs(_ n: Int) -> [ImagePair] {
        var out: [ImagePair] = []
        out.reserveCapacity(n * (n - 1) / 2)
        for i in 0..<n { for j in (i + 1)..<n { out.append(ImagePair(i, j)) } }
        return out
    }
}

/// Two image indices, `first < second`.
public struct ImagePair: Hashable, Sendable, CustomStringConvertible {
    public var first: Int
    public var second: Int
    public init(_ first: Int, _ second: Int) {
        self.first = min(first, second)
        self.second = max(first, second)
    }
    public var description: String { "(\(first), \(second))" }
}
