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
                job.startedAt = nil  // this attempt never started; an earlier one's start would read as its run time
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

    /// Removes a completed, failed or cancelled job from the ledger. Its history stays, ending
    /// with `removed`; its folder is the caller's.
    /// - Throws: `BatchError.unknownJob`; `notAllowed` for queued and running jobs (cancel them first).
    public func remove(_ id: String) throws {
        try pool.write { db in
            let job = try Self.fetch(db, id)
            guard [.completed, .failed, .cancelled].contains(job.state) else {
                throw BatchError.notAllowed(id: id, state: job.state, action: "remove")
            }
            try Self.remove(job, db: db, detail: "removed from the ledger")
        }
    }

    /// Removes the invalid jobs recorded under place-holder ids of jobs file `fileName`
    /// (`fileName#N`, for a job without a usable id) that are not in `current`: the file was fixed,
    /// so they are no longer its jobs, and would otherwise stay failed for good.
    /// - Returns: the ids removed.
    @discardableResult
    public func retirePlaceholders(ofFile fileName: String, keeping current: Set<String>) throws -> [String] {
        try pool.write { db -> [String] in
            let prefix = fileName + "#"
            let stale = try JobRecord.fetchAll(db).filter {
                !$0.isValid && $0.id.hasPrefix(prefix) && Int($0.id.dropFirst(prefix.count)) != nil && !current.contains($0.id)
            }
            for job in stale { try Self.remove(job, db: db, detail: "the jobs file \(fileName) no longer has this invalid job") }
            return stale.map(\.id)
        }
    }

    private static func remove(_ job: JobRecord, db: Database, detail: String) throws {
        try log(db, job.id, .removed, attempt: job.attempts, detail: detail)
        _ = try JobRecord.deleteOne(db, key: job.id)
    }
}
