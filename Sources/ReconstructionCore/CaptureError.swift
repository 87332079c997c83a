/// Why a `CaptureSession` call was refused, or why the session failed.
///
/// `cancelled` and `imagesDirectoryMissing` end a session (they appear in `CaptureState.failed`);
/// the others are thrown from a call and leave the session exactly as it was.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host called `cancel()`.
    case cancelled
    /// The images directory (the path given to `start`) disappeared during the session.
    case imagesDirectoryMissing(String)
    /// `call` (a method name such as `"finish"`) is not legal in `state` (a `CaptureState.name`).
    case illegalCall(call: String, state: String)
    /// A call was given an unusable argument (empty images directory, configuration field out of
    /// range, degenerate box); the message names it.
    case invalidArgument(String)
    /// `shotSaved(id:)` named a shot that is not waiting to be saved.
    case unknownShot(id: Int)

    public var description: String {
        switch self {
        case .cancelled:
            return "the capture session was cancelled"
        case .imagesDirectoryMissing(let path):
            return "the images directory \(path) is missing"
        case .illegalCall(let call, let state):
            return "\(call) is not allowed while the capture session is \(state)"
        case .invalidArgument(let reason):
            return "invalid argument: \(reason)"
        case .unknownShot(let id):
            return "shot \(id) is not waiting to be saved"
        }
    }
}
