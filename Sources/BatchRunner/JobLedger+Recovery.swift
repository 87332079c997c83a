import Foundation
import GRDB

extension JobLedger {
    /// What recovery did to one abandoned job.
    public struct Recovered: Sendable, Equatable {
        public var jobID: String
        /// `queued` (to resume from its checkpoint), `cancelled` (a cancel was pending) or
        /// `failed` (interrupted too often).
        public var state: JobState
        public var reason: String
    }

    /// Finds jobs left `running` by runners that are no longer alive (killed, crashed, their
    /// machine rebooted) and requeues them, in one transaction; dead runners' records are removed.
    /// A job interrupted `maxInterruptions` times fails instead (something in it may be killing
    /// its runner, such as running out of memory).
    /// - Parameter observer: this process, which judges liveness (see `RunnerIdentity.isAlive`).
    @discardableResult
    public func recoverAbandonedJobs(observer: RunnerIdentity = .current, leaseTimeout: Double = 60,
                                     maxInterruptions: Int = 25) throws -> [Recovered] {
        try pool.write { db -> [Recovered] in
            let now = Self.now
            let runners = Dictionary(uniqueKeysWithValues: try RunnerRecord.fetchAll(db).map { ($0.id, $0) })
            let dead = Set(runners.values.filter { !observer.isAlive($0, now: now, leaseTimeout: leaseTimeout) }.map(\.id))
            var recovered: [Recovered] = []
            for var job in try JobRecord.filter(Column("state") == JobState.running.rawValue).fetchAll(db) {
                let holder = job.runnerID.flatMap { runners[$0] }
                guard holder == nil || dead.contains(holder!.id) else { continue }
                let reason = holder.map { "runner pid \($0.pid) on \($0.host) is no longer alive" } ?? "its runner is gone"
                job.interruptions += 1
                job.runnerID = nil
                job.updatedAt = now
                if job.cancelRequested {
                    job.state = .cancelled
                } else if job.interruptions >= maxInterruptions {
                    job.state = .failed
                    job.error = "interrupted \(job.interruptions) times (its runner died each time: out of memory, or a crash?)"
                } else {
                    job.state = .queued
                    job.slurmJobID = nil
                }
                if job.state != .queued { job.finishedAt = now }
                try job.update(db)
                let kind: JobEvent.Kind = job.state == .queued ? .requeued : job.state == .cancelled ? .cancelled : .failed
                try Self.log(db, job.id, kind, attempt: job.attempts, runnerID: holder?.id, detail: job.error ?? reason)
                recovered.append(Recovered(jobID: job.id, state: job.state, reason: reason))
            }
            for id in dead { try RunnerRecord.deleteOne(db, key: id) }
            return recovered
        }
    }
}
