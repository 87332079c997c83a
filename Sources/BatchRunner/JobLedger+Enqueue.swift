import Foundation
import GRDB

extension JobLedger {
    /// What `enqueue` did with a job of a jobs file.
    public enum EnqueueOutcome: Sendable, Equatable {
        /// A new valid job, queued.
        case queued
        /// A new invalid job, recorded as failed with its problem.
        case rejected(String)
        /// The ledger already holds this job with this spec: nothing changed (enqueueing is
        /// idempotent by job id).
        case unchanged(JobState)
        /// The ledger's failed or cancelled job (or invalid one) had another spec: replaced and
        /// queued again (or rejected again, with the problem).
        case replaced(problem: String?)
        /// The ledger holds a completed, queued or running job with another spec under this id;
        /// the ledger's job is kept.
        case conflict(JobState)
        /// The jobs file's job is invalid now (its input was removed, say) but the ledger holds a
        /// valid completed, queued or running job under this id: the ledger's job is kept.
        case invalidKept(problem: String, state: JobState)
    }

    /// Adds a job of a jobs file to the ledger, once: a second call with the same id and spec
    /// changes nothing. `facts` sizes the job for the memory budget.
    @discardableResult
    public func enqueue(_ entry: JobsFile.Entry, facts: JobFacts = JobFacts()) throws -> EnqueueOutcome {
        let now = Self.now
        let (spec, digest, isValid, problem): (String, String, Bool, String?)
        switch entry {
        case .valid(let job): (spec, digest, isValid, problem) = (job.canonicalJSON(), job.digest, true, nil)
        case .invalid(_, let raw, let why): (spec, digest, isValid, problem) = (raw, Self.rawDigest(raw, why), false, why)
        }
        let priority: Int
        if case .valid(let job) = entry { priority = job.priority } else { priority = 0 }
        return try pool.write { db -> EnqueueOutcome in
            let existing = try JobRecord.fetchOne(db, key: entry.id)
            if let existing, existing.specDigest == digest { return .unchanged(existing.state) }
            if let existing, existing.isValid, ![.failed, .cancelled].contains(existing.state) {
                if let problem { return .invalidKept(problem: problem, state: existing.state) }
                return .conflict(existing.state)
            }
            let sequence = (try Int.fetchOne(db, sql: "SELECT MAX(sequence) FROM job") ?? 0) + 1
            let record = JobRecord(
                id: entry.id, spec: spec, specDigest: digest, isValid: isValid, state: isValid ? .queued : .failed,
                priority: priority, sequence: sequence, stage: nil, progress: 0, etaSeconds: nil,
                attempts: existing?.attempts ?? 0, failures: 0, interruptions: 0, completions: 0, notBefore: nil,
                enqueuedAt: now, startedAt: nil, finishedAt: isValid ? nil : now, updatedAt: now, error: problem,
                outputDirectory: nil, outputs: nil, runnerID: nil, cancelRequested: false,
                imageCount: facts.imageCount, largestImagePixels: facts.largestImagePixels, slurmJobID: nil)
            if existing != nil {
                try record.update(db)
                try Self.log(db, entry.id, .replaced, attempt: record.attempts, detail: problem ?? "the jobs file has a new spec")
                if !isValid { try Self.log(db, entry.id, .invalid, attempt: record.attempts, detail: problem) }
                return .replaced(problem: problem)
            }
            try record.insert(db)
            try Self.log(db, entry.id, isValid ? .enqueued : .invalid, attempt: 0, detail: problem)
            return isValid ? .queued : .rejected(problem ?? "")
        }
    }

    /// An invalid job's digest covers its text and its problem, so a fixed input folder (same
    /// text, no problem) counts as a new spec.
    private static func rawDigest(_ raw: String, _ problem: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in (raw + "\u{0}" + problem).utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return "invalid-" + String(hash, radix: 16)
    }
}
