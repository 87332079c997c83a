import Foundation
import GRDB

/// A runner's side of the ledger: leases, claims and the end of each attempt. Every method is one
/// transaction; those that end an attempt check that the calling runner still holds the job.
extension JobLedger {
    /// Thrown when a runner reports on a job it no longer holds (another runner requeued it,
    /// believing this one dead).
    public struct LeaseLost: Error, CustomStringConvertible {
        public var jobID: String
        public var description: String { "job '\(jobID)' is no longer held by this runner" }
    }

    public func register(_ runner: RunnerRecord) throws {
        try pool.write { try runner.insert($0) }
    }

    public func heartbeat(runnerID: String) throws {
        try pool.write { try $0.execute(sql: "UPDATE runner SET heartbeatAt = ? WHERE id = ?", arguments: [Self.now, runnerID]) }
    }

    /// Removes a runner that stopped cleanly (it holds no running job any more).
    public func unregister(runnerID: String) throws {
        try pool.write { try $0.execute(sql: "DELETE FROM runner WHERE id = ?", arguments: [runnerID]) }
    }

    /// The job the queue runs next at `now`: queued, valid, not submitted to Slurm, past its
    /// backoff, highest priority, then first enqueued.
    public func nextQueued(now: Double = Date().timeIntervalSince1970) throws -> JobRecord? {
        try pool.read { db in
            try JobRecord.filter(Column("state") == JobState.queued.rawValue && Column("isValid") == true)
                .filter(Column("slurmJobID") == nil)
                .filter(Column("notBefore") == nil || Column("notBefore") <= now)
                .order(Column("priority").desc, Column("sequence"))
                .fetchOne(db)
        }
    }

    /// Queued jobs a local runner may take (including those waiting for a retry's backoff; not
    /// those submitted to Slurm) and the earliest time one of them may start.
    public func queuedWork() throws -> (count: Int, earliestStart: Double?) {
        try pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), MIN(COALESCE(notBefore, 0)) FROM job WHERE state = 'queued' AND isValid AND slurmJobID IS NULL
                """)
            return (row?[0] ?? 0, row?[1])
        }
    }

    /// Takes job `id` for `runnerID` if it is still queued: state `running`, one more attempt,
    /// the start time and the lease, in one transaction. Nil when another worker or runner took it
    /// first, or when the job was submitted to a Slurm task other than `slurmTask` (a local
    /// runner, `slurmTask` nil, takes only jobs not submitted to Slurm).
    /// - Parameter slurmTask: the Slurm array task (`<array id>_<index>`) running this runner.
    public func claim(_ id: String, runnerID: String, slurmTask: String? = nil) throws -> JobRecord? {
        try pool.write { db -> JobRecord? in
            guard var job = try JobRecord.fetchOne(db, key: id), job.state == .queued, job.isValid,
                  job.slurmJobID == nil || job.slurmJobID == slurmTask else { return nil }
            let now = Self.now
            job.state = .running
            job.attempts += 1
            job.runnerID = runnerID
            job.startedAt = now
            job.updatedAt = now
            job.stage = nil
            job.progress = 0
            job.etaSeconds = nil
            job.notBefore = nil
            job.slurmJobID = slurmTask
            try job.update(db)
            let detail = "pid \(getpid())" + (slurmTask.map { " in Slurm job \($0) on \(RunnerIdentity.hostName())" } ?? "")
            try Self.log(db, id, .claimed, attempt: job.attempts, runnerID: runnerID, detail: detail)
            return job
        }
    }

    /// Records where a running job is (throttled by the runner).
    public func recordProgress(_ id: String, runnerID: String, stage: String?, fraction: Double, etaSeconds: Double?) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE job SET stage = ?, progress = ?, etaSeconds = ?, updatedAt = ?
                WHERE id = ? AND state = 'running' AND runnerID = ?
                """, arguments: [stage, fraction, etaSeconds, Self.now, id, runnerID])
        }
    }

    /// Appends a note (a restored checkpoint, skipped photos) to a running job's history.
    public func note(_ id: String, runnerID: String, kind: JobEvent.Kind = .note, _ detail: String) throws {
        try pool.write { db in
            let job = try Self.fetch(db, id)
            try Self.log(db, id, kind, attempt: job.attempts, runnerID: runnerID, detail: detail)
        }
    }

    /// Marks the job completed after its outputs were committed: only for the runner holding it,
    /// only once.
    /// - Throws: `LeaseLost` when the runner no longer holds the job.
    public func complete(_ id: String, runnerID: String, outputDirectory: URL, outputs: [String], detail: String? = nil) throws {
        let files = String(decoding: try JSONEncoder().encode(outputs), as: UTF8.self)
        try pool.write { db in
            var job = try Self.fetch(db, id)
            guard job.state == .running, job.runnerID == runnerID else { throw LeaseLost(jobID: id) }
            let now = Self.now
            job.state = .completed
            job.completions += 1
            job.stage = nil
            job.progress = 1
            job.etaSeconds = 0
            job.finishedAt = now
            job.updatedAt = now
            job.runnerID = nil
            job.error = nil
            job.outputDirectory = outputDirectory.path
            job.outputs = files
            try job.update(db)
            let seconds = job.startedAt.map { String(format: "%.2f s", now - $0) } ?? ""
            try Self.log(db, id, .completed, attempt: job.attempts, runnerID: runnerID, detail: detail ?? seconds)
        }
    }

    /// Ends a failed attempt: queued again after the retry policy's backoff while attempts remain
    /// and the error is retryable, else `failed`. `stage` and `fraction`: where the attempt
    /// stopped (the progress last written may be older: writes are throttled).
    /// - Returns: the job's new state.
    @discardableResult
    public func fail(_ id: String, runnerID: String, message: String, retryable: Bool, stage: String? = nil,
                     fraction: Double? = nil) throws -> JobState {
        try pool.write { db -> JobState in
            var job = try Self.fetch(db, id)
            guard job.state == .running, job.runnerID == runnerID else { throw LeaseLost(jobID: id) }
            if let stage {
                job.stage = stage
                job.progress = fraction ?? job.progress
            }
            try Self.recordFailure(db, &job, message: message, retryable: retryable, runnerID: runnerID)
            return job.state
        }
    }

    /// Counts a failure of `job` (inside the caller's transaction): queued again after the retry
    /// policy's backoff (without a Slurm task: it is submitted again) while attempts remain, the
    /// error is retryable and no cancel is pending; else `failed` (or `cancelled`).
    static func recordFailure(_ db: Database, _ job: inout JobRecord, message: String, retryable: Bool, runnerID: String?) throws {
        let now = Self.now
        let policy = job.decodedSpec?.retry ?? RetryPolicy(maxAttempts: 1)
        job.failures += 1
        job.error = message
        job.runnerID = nil
        job.updatedAt = now
        if retryable && job.failures < policy.maxAttempts && !job.cancelRequested {
            let delay = policy.delay(afterFailure: job.failures)
            job.state = .queued
            job.notBefore = now + delay
            job.slurmJobID = nil
            try job.update(db)
            try log(db, job.id, .retryScheduled, attempt: job.attempts, runnerID: runnerID,
                    detail: String(format: "%@ (failure %d of %d allowed; next try in %.0f s)", message, job.failures, policy.maxAttempts, delay))
        } else {
            job.state = job.cancelRequested ? .cancelled : .failed
            job.finishedAt = now
            try job.update(db)
            try log(db, job.id, job.state == .cancelled ? .cancelled : .failed, attempt: job.attempts, runnerID: runnerID, detail: message)
        }
    }

    /// Ends an attempt stopped by `jobs cancel`.
    public func markCancelled(_ id: String, runnerID: String) throws {
        try pool.write { db in
            var job = try Self.fetch(db, id)
            guard job.state == .running, job.runnerID == runnerID else { throw LeaseLost(jobID: id) }
            job.state = .cancelled
            job.runnerID = nil
            job.finishedAt = Self.now
            job.updatedAt = Self.now
            try job.update(db)
            try Self.log(db, id, .cancelled, attempt: job.attempts, runnerID: runnerID, detail: "stopped while running")
        }
    }

    /// Gives a running job back to the queue without counting a failure (the runner is stopping:
    /// Ctrl-C, SIGTERM). Its checkpoint lets the next attempt resume. A job with a pending cancel
    /// (`jobs cancel`, whose scancel sends the SIGTERM) is cancelled instead.
    /// - Returns: the job's new state (`queued` or `cancelled`); nil when the runner no longer held it.
    @discardableResult
    public func release(_ id: String, runnerID: String, reason: String) throws -> JobState? {
        try pool.write { db -> JobState? in
            var job = try Self.fetch(db, id)
            guard job.state == .running, job.runnerID == runnerID else { return nil }
            job.state = job.cancelRequested ? .cancelled : .queued
            job.interruptions += 1
            job.runnerID = nil
            if job.state == .queued { job.slurmJobID = nil }
            job.updatedAt = Self.now
            if job.state == .cancelled { job.finishedAt = Self.now }
            try job.update(db)
            try Self.log(db, id, job.state == .cancelled ? .cancelled : .requeued, attempt: job.attempts, runnerID: runnerID,
                         detail: job.state == .cancelled ? "stopped while running" : reason)
            return job.state
        }
    }

    /// Running jobs of `runnerID` that `jobs cancel` asked to stop.
    public func cancelRequests(runnerID: String) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM job WHERE state = 'running' AND runnerID = ? AND cancelRequested",
                                arguments: [runnerID])
        }
    }
}
