import ReconstructionCore

/// What the replay did with one entry of the frame stream and the guidance it gave.
public struct FrameReport: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Equatable, Codable {
        /// The entry could not be used (bad index entry, undecodable image); `reason` says why.
        case invalid
        /// Fed while detecting: guidance only.
        case detecting
        /// Fed while detecting, and the object box was confirmed on it: capturing starts with the next frame.
        case boxConfirmed = "box-confirmed"
        /// Became a shot, written as `shot`.
        case saved
        /// Fed while capturing but not a shot; `reason` says why (the blocking feedback, or no new viewpoint).
        case rejected
    }

    /// Position in the index, from 0.
    public var index: Int
    /// The frame's image file name, as in the index.
    public var image: String
    /// Seconds; nil for an invalid entry.
    public var timestamp: Double?
    public var outcome: Outcome
    /// The curated photo's file name when saved.
    public var shot: String?
    /// Why the frame was invalid or rejected.
    public var reason: String?
    /// For a saved shot: what was left out of it (depth sidecars that cannot be used), naming the file.
    public var note: String?
    /// The guidance shown after this frame, in `CaptureFeedback.allCases` order.
    public var feedback: [CaptureFeedback]
    /// What was measured on the frame; nil for an invalid entry.
    public var analysis: FrameAnalysis?
    /// The coverage dial after this frame: bins holding a shot of the current pass, of all bins.
    public var dialFilledBins: Int
    public var dialTotalBins: Int
    /// The scan pass this frame completed (its shot filled the dial), if any.
    public var completedPass: Int?

    public init(index: Int, image: String, timestamp: Double?, outcome: Outcome, shot: String? = nil, reason: String? = nil,
                feedback: [CaptureFeedback] = [], analysis: FrameAnalysis? = nil, dialFilledBins: Int = 0, dialTotalBins: Int = 0,
                completedPass: Int? = nil) {
        self.index = index
        self.image = image
        self.timestamp = timestamp
        self.outcome = outcome
        self.shot = shot
        self.reason = reason
        self.feedback = feedback
        self.analysis = analysis
        self.dialFilledBins = dialFilledBins
        self.dialTotalBins = dialTotalBins
        self.completedPass = completedPass
    }
}
