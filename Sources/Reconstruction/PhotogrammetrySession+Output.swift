import Foundation

extension PhotogrammetrySession {
    /// The messages of `outputs`, in the order they happen.
    public enum Output: Sendable {
        /// Every sample has been read and decoded (or reported invalid).
        case inputComplete
        /// How much of a request is done, 0…1 (never decreases).
        case requestProgress(Request, fractionComplete: Double)
        /// The stage a request is in and the estimated time left.
        case requestProgressInfo(Request, ProgressInfo)
        /// A sample that cannot be used (not decodable, unreadable, or rejected by its reader:
        /// `PhotogrammetrySample.rejection`) and why; the reason starts with the sample's name
        /// (`0004.jpg: truncated JPEG: …`).
        case invalidSample(id: Int, reason: String)
        /// Something the input's reader noticed that makes results doubtful without rejecting a
        /// sample (a given K that does not fit the photos, EXIF orientation not applied, embedded
        /// depth left out), naming its files. The reader's are delivered first, once per session;
        /// the dense stage adds its own when it runs (depth it cannot use, tracked poses that do
        /// not fit). Our addition.
        case inputWarning(String)
        /// A usable sample that the reconstruction could not include (it did not register).
        case skippedSample(id: Int)
        /// Some photos were larger than the configured maximum and were downsampled.
        case automaticDownsampling
        /// A stage has finished, or was restored from the checkpoint directory or an earlier
        /// `process` call of the session.
        case stageComplete(StageReport)
        case requestComplete(Request, Result)
        case requestError(Request, any Swift.Error)
        /// Not every usable sample could be stitched into the one reconstruction.
        case stitchingIncomplete
        /// `cancel()` took effect; finished stages are kept in the checkpoint directory. Last message of the run.
        case processingCancelled
        /// Every request has completed or failed. Last message of the run.
        case processingComplete
    }

    /// Where processing is and how long it should still take.
    public struct ProgressInfo: Sendable, Equatable {
        /// The pipeline stage running now (Apple's coarser name for it: `processingStage`).
        public var stage: ProcessingStage
        /// Fraction of that stage done, 0…1.
        public var stageFraction: Double
        /// Estimated seconds until the request completes; nil until there is enough to go on.
        public var estimatedRemainingTime: TimeInterval?
    }

    /// What a finished stage cost and what the checkpoint saved.
    public struct StageReport: Sendable, Equatable {
        public var stage: ProcessingStage
        /// Wall time of the stage in this run, seconds.
        public var seconds: Double
        /// CPU time (all threads) the process used during the stage, seconds.
        public var cpuSeconds: Double
        /// Items (images for features, the stage itself otherwise) loaded from the checkpoint directory or reused from an earlier call.
        public var restoredItems: Int
        /// Items the stage handles.
        public var totalItems: Int
        /// Compute time the restored items took when they were made (wall seconds, estimated for
        /// images extracted in parallel), i.e. the time this run did not spend.
        public var savedSeconds: Double
        /// Checkpoint files of this stage that were there but not used, and why (saved for other
        /// photos or options, by another version, or damaged): the stage computed them again.
        /// Nil when nothing was set aside.
        public var setAside: String? = nil

        /// `setAside` as a line for a log: `matching: checkpoint files not used, computed again (…)`.
        public var setAsideNote: String? {
            setAside.map { "\(stage.rawValue): checkpoint files not used, computed again (\($0))" }
        }

        /// True when the whole stage came from the checkpoint.
        public var isRestored: Bool { totalItems > 0 && restoredItems == totalItems }
    }
}
