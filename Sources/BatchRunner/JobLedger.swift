import Foundation
import GRDB

/// The durable record of every job: an SQLite database (GRDB, WAL mode) at `OUT/ledger.sqlite`.
///
/// Every state change is one IMMEDIATE transaction that also appends to the `jobEvent` table, so
/// the ledger is consistent after a crash at any moment and several processes (runners, `jobs`
/// commands) can share it. Jobs move `queued` → `running` only by `claim`, which records the
/// runner holding them; `complete` succeeds only for that runner and only once.
public final class JobLedger: Sendable {
    /// Name of the ledger file inside the batch output folder.
    public static let fileName = "ledger.sqlite"

    public let path: URL
    let pool: any DatabaseWriter
    /// How this ledger's file is journaled.
    public let journal: Journal

    /// SQLite's journal, chosen when a ledger file is created and kept by the file.
    public enum Journal: String, Sendable {
        /// Write-ahead log: readers never wait for writers, but every process using the file must
        /// be on one host (WAL's index is shared memory; SQLite: WAL does not work over a network
        /// file system). Local runners and `serve` use it.
        case wal
        /// Rollback journal: readers and writers take turns through POSIX file locks, which works
        /// on a network file system whose locks work (SQLite's supported mode there). Ledgers
        /// created for Slurm use it, so tasks on other nodes can share the file.
        case rollback
    }

    /// Opens (creating if needed) the ledger at `path` and brings its schema up to date. An
    /// existing file keeps its journal (read from its header); a new one gets `journalForNewLedger`.
    /// - Throws: `BatchError.ledger` naming the file.
    public init(path: URL, journalForNewLedger: Journal = .wal) throws {
        self.path = path
        journal = Self.journal(ofFile: path) ?? journalForNewLedger
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "JobLedger"
        do {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch journal {
            case .wal:
                pool = try DatabasePool(path: path.path, configuration: configuration)
            case .rollback:
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                pool = try DatabaseQueue(path: path.path, configuration: configuration)
            }
            try Self.migrator.migrate(pool)
        } catch {
            throw BatchError.ledger(path.path, "\(error)")
        }
    }

    /// The journal of an existing SQLite file from its header (bytes 18 and 19 are 2 in WAL
    /// mode, 1 in rollback mode); nil when there is no such file yet.
    static func journal(ofFile path: URL) -> Journal? {
        guard let handle = try? FileHandle(forReadingFrom: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return nil }
        return header[header.startIndex + 18] == 2 ? .wal : .rollback
    }

    /// The ledger of a batch output folder (`OUT/ledger.sqlite`), or the file itself when `path`
    /// names an `.sqlite` file.
    public convenience init(outputFolder path: URL) throws {
        try self.init(path: path.pathExtension == "sqlite" ? path : path.appendingPathComponent(Self.fileName))
    }

    /// Now, in the ledger's time unit (seconds since 1970).
    static var now: Double { Date().timeIntervalSince1970 }

    /// SQLite's journal mode as it reports it (`wal` or `delete`).
    public func journalMode() throws -> String {
        try pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Every job, ordered as the queue runs them (priority, then enqueue order); optionally only
    /// those in `states`.
    public func jobs(in states: [JobState]? = nil) throws -> [JobRecord] {
        try pool.read { db in
            var request = JobRecord.order(Column("priority").desc, Column("sequence"))
            if let states { request = request.filter(states.map(\.rawValue).contains(Column("state"))) }
            return try request.fetchAll(db)
        }
    }

    public func job(_ id: String) throws -> JobRecord? {
        try pool.read { try JobRecord.fetchOne($0, key: id) }
    }

    /// A job's history, oldest first; every job's when `jobID` is nil.
    public func events(jobID: String? = nil) throws -> [JobEvent] {
        try pool.read { db in
            var request = JobEvent.order(Column("id"))
            if let jobID { request = request.filter(Column("jobID") == jobID) }
            return try request.fetchAll(db)
        }
    }

    public func runners() throws -> [RunnerRecord] {
        try pool.read { try RunnerRecord.fetchAll($0) }
    }

    /// Appends an event (inside the caller's transaction).
    static func log(_ db: Database, _ jobID: String, _ kind: JobEvent.Kind, attempt: Int, runnerID: String? = nil,
                    detail: String? = nil, at time: Double = now) throws {
        var event = JobEvent(id: nil, jobID: jobID, at: time, kind: kind, attempt: attempt, runnerID: runnerID, detail: detail)
        try event.insert(db)
    }

    /// The job, or `BatchError.unknownJob`.
    static func fetch(_ db: Database, _ id: String) throws -> JobRecord {
        guard let job = try JobRecord.fetchOne(db, key: id) else { throw BatchError.unknownJob(id) }
        return job
    }
}
