import Foundation

extension SlurmBackend {
    /// Settles jobs whose tasks ended unseen (`reconcile`), submits the queued jobs (`submit`)
    /// and, when `wait`, follows the ledger until no job is queued or running, or until `stop()`:
    /// reporting each job's start, progress and end as a local runner does, asking squeue every
    /// `queuePollInterval` which tasks are gone, and submitting retries once their backoff is over.
    /// - Returns: what the jobs did while this waited (`stopped` after `stop()`).
    /// - Throws: `SlurmError` when sbatch or squeue fails at the start, or sbatch later on.
    public func run(wait: Bool) async throws -> BatchRunner.Summary {
        let started = Date()
        let tally = Tally()
        var watcher = LedgerWatcher(try ledger.jobs())
        watcher.costModel = options.costModel
        watcher.threads = options.cpusPerTask
        try reconcile()
        try submit()
        var lastQueueCheck = Date()
        while wait && !state.isStopping {
            let jobs = try ledger.jobs()
            for event in watcher.events(jobs) {
                count(event, in: tally)
                observer(event)
            }
            if !jobs.contains(where: { $0.state == .queued || $0.state == .running }) { break }
            try? await Task.sleep(nanoseconds: UInt64(options.pollInterval * 1e9))
            if Date().timeIntervalSince(lastQueueCheck) >= options.queuePollInterval {
                lastQueueCheck = Date()
                do { try reconcile() } catch { observer(.warning("checking Slurm's queue: \(error)")) }
            }
            try submit()
        }
        var summary = tally.summary
        summary.seconds = Date().timeIntervalSince(started)
        summary.stopped = state.isStopping
        return summary
    }

    private func count(_ event: BatchEvent, in tally: Tally) {
        switch event {
        case .completed: tally.add(\.completed)
        case .failed: tally.add(\.failed)
        case .cancelled: tally.add(\.cancelled)
        case .retrying: tally.add(\.retried)
        case .interrupted: tally.add(\.interrupted)
        case .recovered: tally.add(\.recovered)
        case .started, .progress, .note, .warning, .submitted: break
        }
    }
}
