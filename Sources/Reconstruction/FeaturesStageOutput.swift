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

    /// The images that could not be used, in input order.
    public var invalidImages: [PoseEstimation.InvalidImage] {
        images.compactMap { if case .failure(let bad) = $0 { return bad } else { return nil } }
    }
}
