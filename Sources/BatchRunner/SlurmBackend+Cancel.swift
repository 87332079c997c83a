import Foundation

extension SlurmBackend {
    /// What `cancel` did.
    public struct CancelOutcome: Sendable, Equatable {
        /// The job's state afterwards: `cancelled`, or `running` if its task had not stopped within
        /// `Options.cancelTimeout` (it stops when it sees the ledger's cancel flag).
        public var state: JobState
        /// The Slurm task scancel was given, if the job had one.
        public var slurmTask: String?
        /// Why scancel failed, if it did (the ledger's cancel stands: a queued job's task finds it
        /// cancelled and does nothing; a running one sees the cancel flag within a second).
        public var scancelProblem: String?

        public init(state: JobState, slurmTask: String?, scancelProblem: String?) {
            self.state = state
            self.slurmTask = slurmTask
            self.scancelProblem = scancelProblem
        }
    }

    /// Cancels job `id` (`jobs cancel`): the ledger's cancel (`JobLedger.requestCancel`), then, for
    /// a job with a Slurm task, `scancel <array id>_<index>`. For a running job, waits until its
    /// task records the end (SIGTERM stops the session; the job is marked cancelled) or Slurm no
    /// longer knows the task (then the job is settled as cancelled here).
    /// - Throws: `BatchError.unknownJob`, or `notAllowed` for a completed or failed job.
    public func cancel(_ id: String) throws -> CancelOutcome {
        guard let before = try ledger.job(id) else { throw BatchError.unknownJob(id) }
        let state = try ledger.requestCancel(id)
        // Read after the cancel: a task recorded meanwhile (submitted, or claimed) is the one to stop.
        guard before.state == .queued || before.state == .running, let task = try ledger.job(id)?.slurmJobID else {
            return CancelOutcome(state: state, slurmTask: nil, scancelProblem: nil)
        }
        var outcome = CancelOutcome(state: state, slurmTask: task, scancelProblem: nil)
        do { try client.cancel([task]) } catch { outcome.scancelProblem = "\(error)" }
        guard state == .running else { return outcome }

        let deadline = Date().addingTimeInterval(options.cancelTimeout)
        var lastQueueCheck = Date()
        while Date() < deadline {
            guard let now = try ledger.job(id), now.state == .running, now.slurmJobID == task else {
                outcome.state = try ledger.job(id)?.state ?? state
                return outcome
            }
            if Date().timeIntervalSince(lastQueueCheck) >= 1, let live = try? client.queue() {
                lastQueueCheck = Date()
                if live[task] == nil {
                    try ledger.slurmTaskEnded(id, task: task, log: layout.slurmLog(task))
                    outcome.state = try ledger.job(id)?.state ?? state
                    return outcome
                }
            }
            usleep(UInt32(min(options.pollInterval, 0.2) * 1e6))
        }
        outcome.state = try ledger.job(id)?.state ?? state
        return outcome
    }
}
