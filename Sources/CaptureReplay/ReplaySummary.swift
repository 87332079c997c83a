/// The outcome of a whole replay.
public struct ReplaySummary: Sendable, Equatable, Codable {
    /// Entries in the index.
    public var frames = 0
    /// Entries that could not be used (bad entry, undecodable image).
    public var invalidFrames = 0
    /// Frames fed while detecting (including the one the box was confirmed on).
    public var detectingFrames = 0
    /// Detecting frames that did not confirm the object's box, per blocking feedback (a frame
    /// with two counts under both).
    public var detectionBlockedBy: [String: Int] = [:]
    /// Frames fed while capturing.
    public var capturingFrames = 0
    /// Shots written to the capture folder.
    public var savedShots = 0
    /// Saved shots whose depth could not be used and was not copied (a confidence map left out
    /// alone is only in the shot's line).
    public var shotsWithoutDepth = 0
    /// Capturing frames not saved, per blocking feedback (a frame with two counts under both).
    public var rejectedByFeedback: [String: Int] = [:]
    /// Capturing frames not saved although nothing blocked them: too soon or too little turned since the last shot.
    public var rejectedWithoutNewViewpoint = 0
    /// Capturing frames not saved because the shot limit was reached.
    public var rejectedAtShotLimit = 0
    /// The coverage dial of the current pass at the end.
    public var dialFilledBins = 0
    public var dialTotalBins = 0
    /// Scan passes whose dial filled (`userCompletedScanPass`), in order.
    public var completedPasses: [Int] = []
    /// The flip advice of the last completed pass; nil when no pass completed.
    public var flipRecommended: Bool?
    /// The session's state at the end: completed, or failed (no box was ever confirmed, or the
    /// capture folder vanished).
    public var finalState = ""
    /// Whether K.txt was written (every shot had the same intrinsics).
    public var wroteIntrinsics = false
    /// Whether tracked_poses.json was written (some shot was saved).
    public var wroteTrackedPoses = false

    public init() {}
}
