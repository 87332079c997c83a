import Foundation
import ReconstructionCore

extension PhotogrammetrySession {
    /// How a session processes its samples. Fixed when the session is created.
    public struct Configuration: Sendable, Equatable {
        /// Whether neighbouring samples are neighbouring views.
        public enum SampleOrdering: String, Sendable, CaseIterable {
            /// No order: pairs are chosen by `poseEstimation.pairSelection` (by default every pair
            /// up to 40 images, image retrieval plus a short window beyond).
            case unordered
            /// Capture order (video, an orbit): each image is matched with the next `sequentialWindow`.
            case sequential
        }

        /// How hard feature detection looks.
        public enum FeatureSensitivity: String, Sendable, CaseIterable {
            /// SIFT's scale space starts at the photo's own resolution.
            case normal
            /// It starts at twice the resolution (COLMAP's default): more features on low-texture
            /// or soft photos, about 1.5–2× the time and 2.7 GB peak on 6-megapixel photos.
            case high
        }

        public var sampleOrdering = SampleOrdering.unordered
        public var featureSensitivity = FeatureSensitivity.normal
        /// Isolate the object from its surroundings: each sample's object mask keeps only the
        /// object's features and depth; without masks, a capture whose cameras look at one place
        /// from around it keeps its model to the object there, standing on its support
        /// (`ObjectRegion`, `ObjectIsolation`). Off: masks are ignored and the model holds all the
        /// surroundings the photos show.
        public var isObjectMaskingEnabled = true
        /// Where finished stages are saved. A new session with the same directory and unchanged
        /// inputs and options loads them instead of recomputing; changed ones are recomputed and
        /// overwritten. Nil: nothing is saved.
        public var checkpointDirectory: URL?
        /// The budget of `Request.Detail.custom`.
        public var customDetailSpecification = CustomDetailSpecification()
        /// Images matched with each image under `.sequential` ordering.
        public var sequentialWindow = 20
        /// The pose pipeline's own options (feature limits, pair selection, verification, mapper,
        /// workers). `featureSensitivity` and `sampleOrdering` are applied on top: see
        /// `resolvedPoseOptions`.
        public var poseEstimation = PoseEstimation.Options()

        public init() {}

        public init(checkpointDirectory: URL) {
            self.checkpointDirectory = checkpointDirectory
        }

        /// The pose options the session runs with: `featureSensitivity` sets the detection scale
        /// (normal 0.5, high 1.0) and `.sequential` ordering turns automatic pair selection into a
        /// window of `sequentialWindow` (an explicit exhaustive or sequential selection is kept).
        public var resolvedPoseOptions: PoseEstimation.Options {
            var options = poseEstimation
            options.features.detectionScale = featureSensitivity == .high ? 1.0 : 0.5
            if sampleOrdering == .sequential, options.pairSelection == .automatic {
                options.pairSelection = .sequential(window: max(1, sequentialWindow))
            }
            return options
        }
    }
}
