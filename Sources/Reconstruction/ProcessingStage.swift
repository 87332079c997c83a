/// The stages of reconstruction, in order. Each reads the previous stage's output type; the
/// session runs them, checkpoints their outputs and reports their progress.
public enum ProcessingStage: String, Sendable, Hashable, CaseIterable {
    /// Decode each photo and extract SIFT features.
    case features
    /// Match image pairs and verify them geometrically.
    case matching
    /// Incremental structure from motion: camera poses and sparse points.
    case mapping
    /// Depth maps per image and their fusion into a dense point cloud.
    case dense
    /// A surface mesh from the dense geometry.
    case surface
    /// Decimation to the detail budget, UV atlas and baked textures.
    case model
    /// Writing the model file (USDZ, GLB, OBJ).
    case export
}

extension ProcessingStage {
    /// The stage a `PoseEstimation` stage is reported as.
    public init(_ stage: PoseEstimation.Stage) {
        switch stage {
        case .features: self = .features
        case .matching: self = .matching
        case .mapping: self = .mapping
        }
    }
}
