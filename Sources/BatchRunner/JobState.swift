import Foundation
import GRDB

/// Where a job is in its life. `queued` → `running` (claimed by one runner) → `completed`, or back
/// to `queued` (retry after a failure, or requeued after its runner died), or `failed`; `queued`
/// and `running` jobs can be `cancelled`; `failed` and `cancelled` jobs can be retried.
public enum JobState: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case queued, running, completed, failed, cancelled

    /// True for states a job leaves only by an explicit retry (or never, for completed).
    public var isFinal: Bool { self == .completed || self == .failed || self == .cancelled }
}
