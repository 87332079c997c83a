import Foundation
import GRDB

/// A runner process holding leases on running jobs (table `runner`). Its jobs are abandoned when
/// it is no longer alive: on the same host (same boot), no process with its pid and start time;
/// elsewhere, no heartbeat for `BatchRunner.Options.leaseTimeout`.
public struct RunnerRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "runner"

    public var id: String
    public var pid: Int
    public var host: String
    /// The kernel's boot id (`/proc/sys/kernel/random/boot_id`); empty where there is none.
    public var bootID: String
    /// The process's start time in clock ticks since boot (`/proc/<pid>/stat`), which tells a
    /// reused pid from the runner's own; 0 where unknown.
    public var processStart: Int
    public var startedAt: Double
    public var heartbeatAt: Double
    public var workers: Int
}
