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

    /// The same, with every image whose features are identical to an earlier image's (the same
    /// photo under another name: a copy adds no view, and its zero-baseline pairs and doubled
    /// observations only mislead the mapper and self-calibration) marked as not usable, naming
    /// the image it repeats. `names`: the images' names, in input order.
    public func withCopiesSetAside(names: [String]) -> FeaturesStageOutput {
        precondition(names.count == images.count, "one name per image")
        var out = self
        var firstOfKey: [Int: [Int]] = [:]
        for (i, result) in images.enumerated() {
            guard case .success(let features) = result, features.count > 0 else { continue }
            var hasher = Hasher()
            hasher.combine(features.imageWidth)
            hasher.combine(features.imageHeight)
            hasher.combine(features.positions.map(\.bitPattern))
            hasher.combine(features.descriptors)
            let key = hasher.finalize()
            let earlier = firstOfKey[key, default: []].first { j in
                guard case .success(let other) = images[j] else { return false }
                return other.imageWidth == features.imageWidth && other.imageHeight == features.imageHeight
                    && other.positions == features.positions && other.descriptors == features.descriptors
            }
            if let earlier {
                out.images[i] = .failure(PoseEstimation.InvalidImage(
                    name: names[i], reason: "the same photo as \(names[earlier]) (identical features); it is used once"))
            } else {
                firstOfKey[key, default: []].append(i)
            }
        }
        return out
    }

    /// The images that could not be used, in input order.
    public var invalidImages: [PoseEstimation.InvalidImage] {
        images.compactMap { if case .failure(let bad) = $0 { return bad } else { return nil } }
    }
}
