import Foundation

/// Turns successive readings of the ledger into the events a local runner reports (started,
/// progress, completed, retrying, failed, cancelled, interrupted), for a backend whose jobs run in
/// other processes (the Slurm backend's tasks).
struct LedgerWatcher {
    private var seen: [String: JobRecord]
    /// For `started`'s memory estimate.
    var costModel = JobCostModel()
    var threads = 1

    /// Starts from `jobs` as they are (nothing is reported for them until they change).
    init(_ jobs: [JobRecord]) {
        seen = Dictionary(uniqueKeysWithValues: jobs.map { ($0.id, $0) })
    }

    /// What happened to `jobs` since the last reading.
    mutating func events(_ jobs: [JobRecord], now: Double = Date().timeIntervalSince1970) -> [BatchEvent] {
        var events: [BatchEvent] = []
        for job in jobs {
            let before = seen[job.id]
            seen[job.id] = job
            let previous = before ?? job
            if job.attempts > previous.attempts || (before == nil && job.state == .running) {
                let facts = JobFacts(imageCount: job.imageCount, largestImagePixels: job.largestImagePixels)
                events.append(.started(jobID: job.id, attempt: job.attempts,
                                       estimatedBytes: costModel.estimateBytes(facts: facts, spec: job.decodedSpec, threads: threads)))
                if let task = job.slurmJobID, job.state == .running { events.append(.note(jobID: job.id, "running in Slurm job \(task)")) }
            }
            let moved = before != nil && (job.state != previous.state || job.attempts != previous.attempts
                || job.failures != previous.failures || job.interruptions != previous.interruptions)
            if moved {
                switch job.state {
                case .completed:
                    let seconds = (job.finishedAt ?? now) - (job.startedAt ?? job.finishedAt ?? now)
                    events.append(.completed(jobID: job.id, seconds: seconds,
                                             outputDirectory: URL(fileURLWithPath: job.outputDirectory ?? "", isDirectory: true),
                                             files: job.outputFiles.count))
                case .failed:
                    events.append(.failed(jobID: job.id, message: job.error ?? "failed"))
                case .cancelled:
                    events.append(.cancelled(jobID: job.id))
                case .queued where job.failures > previous.failures:
                    events.append(.retrying(jobID: job.id, message: job.error ?? "failed", delaySeconds: max(0, (job.notBefore ?? now) - now)))
                case .queued where job.interruptions > previous.interruptions:
                    events.append(.interrupted(jobID: job.id))
                case .queued, .running:
                    break
                }
            }
            if job.state == .running && (job.stage != previous.stage || job.progress != previous.progress
                || job.etaSeconds != previous.etaSeconds || job.attempts != previous.attempts), job.stage != nil {
                events.append(.progress(jobID: job.id, JobProgress(stage: job.stage ?? "starting", fraction: job.progress, etaSeconds: job.etaSeconds)))
            }
        }
        return events
    }
}
