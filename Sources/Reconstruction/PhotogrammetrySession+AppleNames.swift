import ReconstructionCore

// Apple's names for the session's types, for code ported from RealityKit's PhotogrammetrySession.

extension PhotogrammetrySession {
    /// The type of `outputs` (Apple's `PhotogrammetrySession.Outputs`).
    public typealias Outputs = AsyncStream<Output>
    /// One registered camera of a `.poses` result (Apple's `PhotogrammetrySession.Pose`).
    public typealias Pose = Poses.Pose
}

extension PhotogrammetrySession.Output {
    /// Apple's place for the progress details of `.requestProgressInfo`.
    public typealias ProgressInfo = PhotogrammetrySession.ProgressInfo

    /// Apple's processing stages, coarser than the pipeline's (`ProgressInfo.stage`), in pipeline
    /// order: each pipeline stage is reported as one of them (`init(_:)`).
    public enum ProcessingStage: String, Sendable, Hashable, CaseIterable {
        /// Reading the photos and finding their features.
        case preProcessing
        /// Matching photos and estimating their poses (structure from motion).
        case imageAlignment
        /// Depth maps and their fusion into a dense point cloud.
        case pointCloudGeneration
        /// The surface mesh from the dense geometry.
        case meshGeneration
        /// Decimation to the detail level, UV atlas and baked texture maps.
        case textureMapping
        /// Encoding the maps and writing the model file.
        case optimization

        /// The Apple stage that `stage` is part of: features → preProcessing; matching and mapping
        /// → imageAlignment; dense → pointCloudGeneration; surface → meshGeneration; model →
        /// textureMapping; export → optimization.
        public init(_ stage: Reconstruction.ProcessingStage) {
            switch stage {
            case .features: self = .preProcessing
            case .matching, .mapping: self = .imageAlignment
            case .dense: self = .pointCloudGeneration
            case .surface: self = .meshGeneration
            case .model: self = .textureMapping
            case .export: self = .optimization
            }
        }
    }
}

extension PhotogrammetrySession.ProgressInfo {
    /// The stage running now, by Apple's names (`Output.ProcessingStage`); `stage` is the
    /// pipeline's own, finer one. Optional, as Apple's is; always set here.
    public var processingStage: PhotogrammetrySession.Output.ProcessingStage? { .init(stage) }
}

extension PhotogrammetrySession.Poses.Pose {
    /// The camera's position in the world (Apple's `translation`): the same in any camera axes.
    public var translation: SIMD3<Float> {
        let t = worldFromCamera.translation
        return SIMD3(Float(t.x), Float(t.y), Float(t.z))
    }
}
