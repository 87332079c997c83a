/// The features stage's output: per input image, its features or why it could not be used.
public struct FeaturesStageOutput: Sendable {
    /// One entry per input image, in input order.
    public var images: [Result<ImageFeatures, PoseEstimation.InvalidImage>]

    public init(images: [Result<ImageFeatures, PoseEstimation.InvalidImage>]) {
        self.images = images
    }

    /// Indices (into the input) of the images that have features.
    public var usableIndices: [Int] {
        images.indices.filter { if case .success = images[$0] { return true } else { return false } }
    }

    /// The same, with every image whose features are identical to another image's (the same
    /// photo under another name: a copy adds no view, and its zero-baseline pairs and doubled
    /// observations only mislead the mapper and self-calibration) marked as not usable, naming
    /// the image it repeats. Of a set of copies the one kept is the one whose name looks like the
    /// original's: without spaces, then the shortest (copies are named "X copy.jpg", "X - Copy.jpg",
    /// "X (1).jpg", which sort before "X.jpg"), then the first. `names`: the images' names, in
    /// input order.
    public func withCopiesSetAside(names: [String]) -> FeaturesStageOutput {
        precondition(names.count == images.count, "one name per image")
        var copies: [Int: [[Int]]] = [:]  // by hash: sets of identical images
        for (i, result) in images.enumerated() {
            guard case .success(let features) = result, features.count > 0 else { continue }
            var hasher = Hasher()
            hasher.combine(features.imageWidth)
            hasher.combine(features.imageHeight)
            hasher.combine(features.positions.map(\.bitPattern))
            hasher.combine(features.descriptors)
            let key = hasher.finalize()
            let same = copies[key, default: []].firstIndex { set in
                guard case .success(let other) = images[set[0]] else { return false }
                return other.imageWidth == features.imageWidth && other.imageHeight == features.imageHeight
                    && other.positions == features.positions && other.descriptors == features.descriptors
            }
            if let same { copies[key]![same].append(i) } else { copies[key, default: []].append([i]) }
        }
        var out = self
        for set in copies.values.joined() where set.count > 1 {
            let kept = set.min { a, b in
                (names[a].contains(" ") ? 1 : 0, names[a].count, a) < (names[b].contains(" ") ? 1 : 0, names[b].count, b)
            }!
            for i in set where i != kept {
                out.images[i] = .failure(PoseEstimation.InvalidImage(
                    name: names[i], reason: "the same photo as \(names[kept]) (identical features); it is used once"))
            }
        }
        return out
    }

    /// The images that could not be used, in input order.
    public var invalidImages: [PoseEstimation.InvalidImage] {
        images.compactMap { if case .failure(let bad) = $0 { return bad } else { return nil } }
    }
}
