import ReconstructionCore

/// The mapping stage's output: the sparse scene over the usable images (named, in input order;
/// images that could not be decoded are not in it) and the number of feature tracks.
public struct MappingStageOutput: Sendable {
    public var scene: SparseScene
    /// Groups of images that no verified pair joins to `scene`'s, each reconstructed on its own
    /// (over its own images, named), largest group first.
    public var separateModels: [SparseScene]
    /// Feature tracks built from the verified matches.
    public var trackCount: Int

    public init(scene: SparseScene, separateModels: [SparseScene] = [], trackCount: Int) {
        self.scene = scene
        self.separateModels = separateModels
        self.trackCount = trackCount
    }
}
