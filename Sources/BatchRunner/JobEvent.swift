import Foundation
import GRDB

/// One line of a job's history (table `jobEvent`, append-only): every state change, with the
/// attempt and the runner. Exactly one `completed` event per completed job.
public struct JobEvent: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "jobEvent"

    /// What happened.
    public enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        case enqueued, invalid, replaced, claimed, restoredFromCheckpoint, note, completed
        case retryScheduled, failed, requeued, cancelRequested, cancelled, retried
        /// Submitted to a Slurm array task (the detail names it).
        case submitted
        /// Removed from the ledger (`jobs remove`, or a jobs file that no longer has the invalid
        /// job): the job's last event.
        case removed
    }

    public var id: Int64?
    public var jobID: String
    public var at: Double
    public var kind: Kind
    public var attempt: Int
    public var runnerID: String?
    public var detail: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
