import BatchRunner

/// NodeODM's task status codes (its API's `status.code`), which clients such as PyODM and WebODM
/// switch on.
public enum TaskStatusCode: Int, Codable, Sendable {
    case queued = 10
    case running = 20
    case failed = 30
    case completed = 40
    case canceled = 50

    /// The code for a batch job in `state`.
    public init(_ state: JobState) {
        switch state {
        case .queued: self = .queued
        case .running: self = .running
        case .completed: self = .completed
        case .failed: self = .failed
        case .cancelled: self = .canceled
        }
    }
}
