import Foundation

/// Why a batch command could not do what it was asked. Descriptions are complete sentences for
/// the command line.
public enum BatchError: Error, CustomStringConvertible, Equatable {
    /// The jobs file as a whole is unusable (unreadable, or no job structure at all).
    case jobsFile(String, String)
    /// No job with this id in the ledger.
    case unknownJob(String)
    /// The job's state does not allow the action (e.g. retrying a completed job).
    case notAllowed(id: String, state: JobState, action: String)
    /// The job's spec did not pass validation, so retrying it cannot help.
    case invalidSpec(id: String, problem: String)
    /// The ledger cannot be opened or used.
    case ledger(String, String)
    /// The job's outputs could not be committed.
    case outputs(String)

    public var description: String {
        switch self {
        case .jobsFile(let name, let why): return "jobs file \(name) \(why)"
        case .unknownJob(let id): return "no job '\(id)' in the ledger"
        case .notAllowed(let id, let state, let action): return "cannot \(action) job '\(id)': it is \(state.rawValue)"
        case .invalidSpec(let id, let problem):
            return "cannot retry job '\(id)': its spec is invalid (\(problem)); fix the jobs file and run batch with it again"
        case .ledger(let path, let why): return "ledger \(path): \(why)"
        case .outputs(let why): return why
        }
    }
}

/// A job attempt that failed, with whether trying again could help.
public struct JobFailure: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// False for problems a new attempt cannot fix (a missing input, a malformed spec).
    public var isRetryable: Bool

    public init(_ message: String, isRetryable: Bool = true) {
        self.message = message
        self.isRetryable = isRetryable
    }

    public var description: String { message }
}
