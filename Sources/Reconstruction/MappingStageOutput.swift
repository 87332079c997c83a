import ReconstructionCore

/// The mapping stage's output: the sparse scene over the usable images (named, in input order;
/// images that could not be decoded are not in it) and the number of feature tracks.
public struct MappingStageOutput: Sendable {
    public var scene: SparseScene
    /// Feature tracks built from the verified matches.
    public var trackCount: Int

    public init(scene: SparseScene, trackCount: Int) {
        self.scene = scene
        self.trackCount = trackCount
    }
}
