/// Which image pairs are matched. Exhaustive matching costs n²; ordered captures need only a
/// window of neighbours, and large unordered ones a retrieval shortlist.
public enum PairSelection: Sendable, Equatable {
    /// Every pair.
    case exhaustive
    /// Each image with the next `window` images in capture order.
    case sequential(window: Int)
    /// Each image with its `neighbours` most similar images by image retrieval (`ImageRetrieval`),
    /// plus the next `window` in capture order (0: none).
    case retrieval(neighbours: Int, window: Int)
    /// Exhaustive up to `exhaustiveLimit` images, otherwise `automaticBeyondLimit`.
    case automatic

    /// Images up to which `.automatic` matches every pair.
    public static let exhaustiveLimit = 40
    /// What `.automatic` does beyond `exhaustiveLimit` images: retrieval finds the overlapping
    /// photos of an unordered capture and closes the loops of an ordered one, and a short window
    /// keeps consecutive photos of an ordered capture linked.
    public static let automaticBeyondLimit = PairSelection.retrieval(neighbours: automaticNeighbours, window: automaticWindow)
    public static let automaticNeighbours = 10
    public static let automaticWindow = 10

    /// The selection that applies to `count` images (`.automatic` resolved).
    public func resolved(count: Int) -> PairSelection {
        guard self == .automatic else { return self }
        return count <= Self.exhaustiveLimit ? .exhaustive : Self.automaticBeyondLimit
    }

    /// The pairs (i < j) to match among images with these features, in a stable order.
    public func pairs(for features: [ImageFeatures], retrieval: ImageRetrieval = ImageRetrieval()) throws -> [ImagePair] {
        let count = features.count
        switch resolved(count: count) {
        case .retrieval(let neighbours, let window):
            var selected = Set(Self.windowPairs(count, window: window))
            for (i, similar) in try retrieval.neighbours(of: features, count: neighbours).enumerated() {
                for j in similar { selected.insert(ImagePair(i, j)) }
            }
            return selected.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
        case let other:
            return other.pairs(count: count)
        }
    }

    /// The pairs (i < j) for selections that need only the image count (all but retrieval, for
    /// which this is the window's share).
    public func pairs(count: Int) -> [ImagePair] {
        switch resolved(count: count) {
        case .exhaustive, .automatic:
            return Self.exhaustivePairs(count)
        case .sequential(let window):
            return Self.windowPairs(count, window: max(1, window))
        case .retrieval(_, let window):
            return Self.windowPairs(count, window: window)
        }
    }

    /// Pairs expected before the features exist (for progress estimates): exact except for
    /// retrieval, where neighbours overlap the window and each other by an unknown share.
    public func estimatedPairCount(imageCount n: Int) -> Int {
        switch resolved(count: n) {
        case .retrieval(let neighbours, let window):
            return min(n * (n - 1) / 2, Self.windowPairs(n, window: window).count + n * neighbours / 2)
        default:
            return pairs(count: n).count
        }
    }

    private static func windowPairs(_ count: Int, window: Int) -> [ImagePair] {
        var out: [ImagePair] = []
        for i in 0..<count {
            for j in (i + 1)..<max(i + 1, min(count, i + 1 + window)) { out.append(ImagePair(i, j)) }
        }
        return out
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
