import Foundation
import ReconstructionCore

extension PhotogrammetrySession {
    /// What a completed request produced.
    public enum Result: Sendable {
        case modelFile(URL)
        case poses(Poses)
        case pointCloud(PointCloud)
        case bounds(BoundingBox)
    }

    /// The estimated cameras, by sample id, in the reconstruction's world frame (defined up to a
    /// similarity without metric input: the first camera of the initial pair is at the origin).
    public struct Poses: Sendable {
        /// One registered camera.
        public struct Pose: Sendable, Equatable {
            /// Maps camera coordinates (x right, y down, z forward) to world coordinates.
            public var worldFromCamera: RigidTransform
            /// The intrinsics used for this sample (refined when they were not given).
            public var intrinsics: CameraIntrinsics

            public init(worldFromCamera: RigidTransform, intrinsics: CameraIntrinsics) {
                self.worldFromCamera = worldFromCamera
                self.intrinsics = intrinsics
            }
        }

        /// Registered samples only.
        public var posesBySample: [Int: Pose]
        /// The file of each sample that came from one.
        public var urlsBySample: [Int: URL]
        /// Samples that did not register, with the reason (undecodable ones included).
        public var unregisteredReasonsBySample: [Int: String]
        /// The whole sparse reconstruction: every sample in input order (named by `sampleIDs`),
        /// keypoints and triangulated points, as the pose writers expect.
        public var scene: SparseScene
        /// Groups of samples that no verified pair joins to `scene`'s, each reconstructed in its
        /// own frame (over its own images, named like `scene`'s); `scene` lists those samples as
        /// unregistered, naming the model.
        public var separateModels: [SparseScene]
        /// `scene.images[i]` is the sample with id `sampleIDs[i]`.
        public var sampleIDs: [Int]
        /// Image pairs that passed geometric verification…
        public var verifiedPairCount: Int
        /// …of the pairs that were matched (see `PairSelection`).
        public var matchedPairCount: Int
        /// Feature tracks the mapper worked with.
        public var trackCount: Int
    }
}
