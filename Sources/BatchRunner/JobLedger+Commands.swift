import Foundation
import GRDB

/// The `jobs` commands' side of the ledger.
extension JobLedger {
    /// Cancels a job: a queued one at once; a running one is flagged and its runner stops it
    /// within a poll interval (or recovery cancels it if that runner is dead).
    /// - Returns: the job's state afterwards (`cancelled`, or `running` while the runner stops it).
    /// - Throws: `BatchError.unknownJob`, or `notAllowed` for a completed or failed job.
    @discardableResult
    public func requestCancel(_ id: String) throws -> JobState {
        try pool.write { db -> JobState in
            var job = try Self.fetch(db, id)
            let now = Self.now
            switch job.state {
            case .queued:
                job.state = .cancelled
                job.finishedAt = now
                job.updatedAt = now
                try job.update(db)
                try Self.log(db, id, .cancelled, attempt: job.attempts, detail: "cancelled while queued")
            case .running:
                guard !job.cancelRequested else { break }
                job.cancelRequested = true
                job.updatedAt = now
                try job.update(db)
                try Self.log(db, id, .cancelRequested, attempt: job.attempts, runnerID: job.runnerID)
            case .cancelled:
                break
            case .completed, .failed:
                throw BatchError.notAllowed(id: id, state: job.state, action: "cancel")
            }
            return job.state
        }
    }

    /// Queues a failed or cancelled job again with a fresh retry budget. Its checkpoint (if any)
    /// is reused.
    /// - Throws: `BatchError.unknownJob`; `notAllowed` for queued, running and completed jobs, and
    ///   for invalid ones (fix the jobs file and run `batch` with it again).
    public func retry(_ id: String) throws {
        try pool.write { db in
            var job = try Self.fetch(db, id)
            guard job.state == .failed || job.state == .cancelled else {
                throw BatchError.notAllowed(id: id, state: job.state, action: "retry")
            }
            guard job.isValid else {
                throw BatchError.invalidSpec(id: id, problem: job.error ?? "?")
            }
            job.state = .queued
            job.failures = 0
            job.interruptions = 0
            job.cancelRequested = false
            job.notBefore = nil
            job.finishedAt = nil
            job.error = nil
            job.stage = nil
            job.progress = 0
            job.slurmJobID = nil
            job.updatedAt = Self.now
            try job.update(db)
            try Self.log(db, id, .retried, attempt: job.attempts)
        }
    }
}
