/// A guided object capture as a pure state machine, after Apple's `ObjectCaptureSession`.
///
/// The session is a value: each call mutates it and returns the `CaptureEffect`s the host must
/// perform (save a shot, show guidance, stop). It reads no clock, touches no file and draws no
/// random number; time arrives with each `CaptureFrame`. Every call except `frameArrived(_:)`
/// throws `CaptureError` when refused; a refused call leaves the session exactly as it was (it
/// never moves the session to `failed`).
///
/// Legal calls (→ next state; ✗ throws `CaptureError.illegalCall`):
///
/// | call                          | initializing | ready     | detecting   | capturing   | finishing   | completed, failed |
/// |-------------------------------|--------------|-----------|-------------|-------------|-------------|-------------------|
/// | `start(imagesDirectory:…)`    | → ready      | ✗         | ✗           | ✗           | ✗           | ✗                 |
/// | `startDetecting()`            | ✗            | → detecting | ✗         | ✗           | ✗           | ✗                 |
/// | `resetDetection()`            | ✗            | ✗         | → ready     | ✗           | ✗           | ✗                 |
/// | `startCapturing(box:)`        | ✗            | ✗         | → capturing | ✗           | ✗           | ✗                 |
/// | `beginNewScanPass()`          | ✗            | ✗         | ✗           | → capturing | ✗           | ✗                 |
/// | `beginNewScanPassAfterFlip()` | ✗            | ✗         | ✗           | → ready     | ✗           | ✗                 |
/// | `finish()`                    | ✗            | ✗         | ✗           | → finishing ‡ | ✗         | ✗                 |
/// | `cancel()`                    | → failed *   | → failed * | → failed * | → failed *  | → failed *  | ✗                 |
/// | `shotSaved(id:)`              | †            | †         | †           | †           | † (last → completed) | ✗        |
/// | `allDataSaved()`              | ✗            | ✗         | ✗           | ✗           | → completed | ✗                 |
/// | `imagesDirectoryVanished()`   | ✗ (no directory yet) | → failed ** | → failed ** | → failed ** | → failed ** | ✗   |
/// | `frameArrived(_:)`            | ignored      | ignored   | guidance    | guidance, shots, dial | ignored | ignored       |
///
/// \* `failed(.cancelled)`; ** `failed(.imagesDirectoryMissing(imagesDirectory))`;
/// ‡ straight to `completed` when no shot is pending.
/// † legal for a pending shot id; any other id throws `CaptureError.unknownShot`.
///
/// `startCapturing(box:)` takes the box the host confirmed (detected and possibly adjusted by the
/// person); the session does not detect boxes itself. Entering `completed` or `failed` always
/// emits `.stop`, once. Leaving `detecting` or `capturing` clears the guidance.
/// Area mode (capturing straight from `ready` without a box), pause/resume and manual shots are
/// not modelled.
public struct CaptureSession: Equatable, Sendable {
    /// Current state; starts at `initializing`.
    public internal(set) var state: CaptureState = .initializing
    /// The configuration given to `start`; defaults until then.
    public internal(set) var configuration = Configuration()
    /// The images directory given to `start`; nil before.
    public internal(set) var imagesDirectory: String?
    /// The object box of the current pass, set by `startCapturing(box:)`, cleared by a flip.
    public internal(set) var box: BoundingBox?
    /// The guidance conditions of the latest processed frame (empty outside detecting and capturing).
    public internal(set) var feedback: Set<CaptureFeedback> = []
    /// True once the current pass has filled every bin of the coverage dial.
    public internal(set) var userCompletedScanPass = false
    /// Identifier of the current scan pass: 0 for the first, +1 for each new pass (with or without a flip).
    public internal(set) var scanPass = 0
    /// Shots requested with `.saveShot` over all passes; also the id the next shot gets.
    public internal(set) var shotsTaken = 0
    /// Shots requested but not yet reported by `shotSaved(id:)`.
    public internal(set) var pendingShotIDs: Set<Int> = []
    /// Coverage-dial bins (0 ..< `configuration.coverageBinCount`) holding a shot of the current pass.
    public internal(set) var coveredBins: Set<Int> = []
    /// The flip advice of the latest completed pass; nil until a pass completes.
    public internal(set) var isFlipRecommended: Bool?

    /// The latest frame processed in detecting or capturing (for motion and ordering).
    var previousFrame: CaptureFrame?
    /// Sharpness of the latest processed frames not taken for blurred, at most `sharpnessHistory`,
    /// oldest first: a run of blurred frames must not become the measure of what is sharp.
    var recentSharpness: [Double] = []
    /// Consecutive frames taken for blurred by the comparison with `recentSharpness` alone. After
    /// `sharpnessHistory` of them the view itself has changed (a plainer side), not the focus:
    /// the history starts again from them.
    var relativelyBlurredRun: [Double] = []
    /// Frames whose median sharpness a new frame is compared with (`minimumRelativeSharpness`).
    public static let sharpnessHistory = 8
    /// The frame of the latest shot (for the spacing between shots).
    var lastShotFrame: CaptureFrame?
    /// Sum of the texture scores of all shots, for the flip advice.
    var textureScoreSum = 0.0

    public init() {}

    /// Starts the session writing shots to `imagesDirectory`: initializing → ready.
    /// Throws `invalidArgument` (state unchanged) for an empty path or an invalid configuration.
    public mutating func start(imagesDirectory: String, configuration: Configuration = Configuration())
        throws(CaptureError) -> [CaptureEffect] {
        guard state == .initializing else { throw illegal("start") }
        guard !imagesDirectory.isEmpty else { throw .invalidArgument("imagesDirectory is empty") }
        try configuration.validate()
        self.imagesDirectory = imagesDirectory
        self.configuration = configuration
        state = .ready
        return []
    }

    /// Begins looking for the object: ready → detecting.
    public mutating func startDetecting() throws(CaptureError) -> [CaptureEffect] {
        guard state == .ready else { throw illegal("startDetecting") }
        state = .detecting
        return []
    }

    /// Abandons the current detection: detecting → ready.
    public mutating func resetDetection() throws(CaptureError) -> [CaptureEffect] {
        guard state == .detecting else { throw illegal("resetDetection") }
        state = .ready
        return setFeedback([])
    }

    /// Starts auto-capture around `box`: detecting → capturing, with an empty coverage dial.
    /// Throws `invalidArgument` (state unchanged) for a box with a negative or all-zero extent.
    public mutating func startCapturing(box: BoundingBox) throws(CaptureError) -> [CaptureEffect] {
        guard state == .detecting else { throw illegal("startCapturing") }
        let h = box.halfExtents
        guard h.x >= 0, h.y >= 0, h.z >= 0, box.diagonal > 0, box.diagonal.isFinite else {
            throw .invalidArgument("box half extents must be non-negative, finite and not all zero")
        }
        self.box = box
        state = .capturing
        return setFeedback([]) + resetScanPass(newPass: false)
    }

    /// Starts another pass at a different height without moving the object: capturing → capturing,
    /// new pass id, empty dial, `userCompletedScanPass` false. The box stays.
    public mutating func beginNewScanPass() throws(CaptureError) -> [CaptureEffect] {
        guard state == .capturing else { throw illegal("beginNewScanPass") }
        var rest = feedback
        rest.remove(.objectNotFlippable)
        return setFeedback(rest) + resetScanPass(newPass: true)
    }

    /// Starts another pass after the person flipped the object: capturing → ready, new pass id,
    /// empty dial; the box is discarded and must be detected again.
    public mutating func beginNewScanPassAfterFlip() throws(CaptureError) -> [CaptureEffect] {
        guard state == .capturing else { throw illegal("beginNewScanPassAfterFlip") }
        state = .ready
        box = nil
        return setFeedback([]) + resetScanPass(newPass: true)
    }

    /// Ends capturing: capturing → finishing, or straight to completed when no shot is pending.
    public mutating func finish() throws(CaptureError) -> [CaptureEffect] {
        guard state == .capturing else { throw illegal("finish") }
        guard pendingShotIDs.isEmpty else {
            state = .finishing
            return setFeedback([])
        }
        return enterTerminal(.completed)
    }

    /// Abandons the session: any non-terminal state → failed(.cancelled).
    public mutating func cancel() throws(CaptureError) -> [CaptureEffect] {
        guard !state.isTerminal else { throw illegal("cancel") }
        return enterTerminal(.failed(.cancelled))
    }

    /// The host saved shot `id`. In finishing, saving the last pending shot completes the session.
    public mutating func shotSaved(id: Int) throws(CaptureError) -> [CaptureEffect] {
        guard !state.isTerminal else { throw illegal("shotSaved") }
        guard pendingShotIDs.contains(id) else { throw .unknownShot(id: id) }
        pendingShotIDs.remove(id)
        if state == .finishing && pendingShotIDs.isEmpty { return enterTerminal(.completed) }
        return []
    }

    /// The host saved all outstanding data: finishing → completed (any shots still pending count as saved).
    public mutating func allDataSaved() throws(CaptureError) -> [CaptureEffect] {
        guard state == .finishing else { throw illegal("allDataSaved") }
        pendingShotIDs = []
        return enterTerminal(.completed)
    }

    /// The images directory disappeared: any started, non-terminal state → failed(.imagesDirectoryMissing).
    public mutating func imagesDirectoryVanished() throws(CaptureError) -> [CaptureEffect] {
        guard !state.isTerminal, let imagesDirectory else { throw illegal("imagesDirectoryVanished") }
        return enterTerminal(.failed(.imagesDirectoryMissing(imagesDirectory)))
    }
}

extension CaptureSession {
    func illegal(_ call: String) -> CaptureError { .illegalCall(call: call, state: state.name) }

    /// Replaces the guidance; emits `.showGuidance` only when it changes.
    mutating func setFeedback(_ newFeedback: Set<CaptureFeedback>) -> [CaptureEffect] {
        guard newFeedback != feedback else { return [] }
        feedback = newFeedback
        return [.showGuidance(newFeedback)]
    }

    /// Empties the coverage dial (and, for a new pass, advances the pass id).
    mutating func resetScanPass(newPass: Bool) -> [CaptureEffect] {
        if newPass { scanPass += 1 }
        // Another height or the other side of the object: what is sharp is measured again.
        recentSharpness = []
        relativelyBlurredRun = []
        coveredBins = []
        userCompletedScanPass = false
        return [.updateCoverage(filledBins: 0, totalBins: configuration.coverageBinCount)]
    }

    mutating func enterTerminal(_ terminal: CaptureState) -> [CaptureEffect] {
        let effects = setFeedback([])
        state = terminal
        return effects + [.stop]
    }
}
