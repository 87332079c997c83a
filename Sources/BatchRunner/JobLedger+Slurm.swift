import Foundation
import GRDB

/// The Slurm backend's side of the ledger: the queued jobs to submit, the Slurm task each one
/// waits for or runs in, and jobs whose task ended without recording an outcome.
///
/// A queued job with a `slurmJobID` waits for that array task to claim it (local runners leave it
/// alone); the task's `claim` records the task it runs in. A job that goes back to the queue
/// loses its task and is submitted again.
extension JobLedger {
    /// Queued, valid jobs not submitted to Slurm whose backoff is over at `now`, in queue order.
    public func unsubmitted(now: Double = Date().timeIntervalSince1970) throws -> [JobRecord] {
        try pool.read { db in
            try JobRecord.filter(Column("state") == JobState.queued.rawValue && Column("isValid") == true)
                .filter(Column("slurmJobID") == nil)
                .filter(Column("notBefore") == nil || Column("notBefore") <= now)
                .order(Column("priority").desc, Column("sequence"))
                .fetchAll(db)
        }
    }

    /// Records the Slurm task (`<array id>_<index>`) each job was submitted to, with a `submitted`
    /// event, for jobs still queued without a task (a task that started first already recorded
    /// itself with its claim).
    public func recordSubmission(_ tasks: [(jobID: String, task: String)]) throws {
        try pool.write { db in
            for (id, task) in tasks {
                try db.execute(sql: "UPDATE job SET slurmJobID = ?, updatedAt = ? WHERE id = ? AND state = 'queued' AND slurmJobID IS NULL",
                               arguments: [task, Self.now, id])
                let attempt = try Int.fetchOne(db, sql: "SELECT attempts FROM job WHERE id = ?", arguments: [id]) ?? 0
                try Self.log(db, id, .submitted, attempt: attempt, detail: "Slurm job \(task)")
            }
        }
    }

    /// Queued and running jobs that have a Slurm task.
    public func slurmJobs() throws -> [JobRecord] {
        try pool.read { db in
            try JobRecord.filter(["queued", "running"].contains(Column("state")) && Column("slurmJobID") != nil)
                .order(Column("priority").desc, Column("sequence"))
                .fetchAll(db)
        }
    }

    /// Slurm no longer knows `task`, yet job `id` is still queued for it or running in it: the task
    /// ended without recording an outcome (killed, out of memory, its node failed, cancelled
    /// outside photogrammetry, or the worker could not start). Counts a failure: the job is queued
    /// again (without a task, so it is submitted again) while its retry policy allows, else failed;
    /// cancelled when a cancel was pending. The dead task's runner record is removed.
    /// - Parameter log: the task's Slurm output file, named in the error.
    /// - Returns: the job's new state, or nil when the job has moved on (the task recorded its end,
    ///   or the job was submitted again).
    @discardableResult
    public func slurmTaskEnded(_ id: String, task: String, log: URL? = nil) throws -> JobState? {
        try pool.write { db -> JobState? in
            guard var job = try JobRecord.fetchOne(db, key: id), job.slurmJobID == task,
                  job.state == .queued || job.state == .running else { return nil }
            let seeLog = log.map { "; see \($0.path)" } ?? ""
            let message: String
            let runnerID = job.runnerID
            if job.state == .running {
                message = "Slurm job \(task) ended without recording an outcome (killed, out of memory, or its node failed)\(seeLog)"
                if let runnerID { try RunnerRecord.deleteOne(db, key: runnerID) }
            } else {
                message = "Slurm job \(task) ended before it ran the job (cancelled outside photogrammetry, or the worker "
                    + "could not start)\(seeLog)"
            }
            try Self.recordFailure(db, &job, message: message, retryable: true, runnerID: runnerID)
            return job.state
        }
    }
}
