/// Where a `CaptureSession` is in its life, after Apple's `ObjectCaptureSession.CaptureState`.
///
/// `completed` and `failed` are terminal: a session in either accepts no further calls.
public enum CaptureState: Equatable, Sendable {
    /// Created; waiting for `start(imagesDirectory:configuration:)`.
    case initializing
    /// Started; waiting for `startDetecting()`.
    case ready
    /// The host is finding and adjusting the object's box; frames give guidance only.
    case detecting
    /// Auto-capture runs: frames that pass the guidance checks become shots and fill the dial.
    case capturing
    /// No more shots; waiting for the host to report that outstanding shots are saved.
    case finishing
    /// Every shot is saved; the images directory is ready for reconstruction.
    case completed
    /// Unrecoverable; the session must be discarded (a new one may be created).
    case failed(CaptureError)

    /// True for `completed` and `failed`.
    public var isTerminal: Bool {
        switch self {
        case .completed, .failed: return true
        default: return false
        }
    }

    /// The case name without payload (`"failed"` for every failure), as used in `CaptureError.illegalCall`.
    public var name: String {
        switch self {
        case .initializing: return "initializing"
        case .ready: return "ready"
        case .detecting: return "detecting"
        case .capturing: return "capturing"
        case .finishing: return "finishing"
        case .completed: return "completed"
        case .failed: return "failed"
        }
    }
}
