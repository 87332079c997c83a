import Foundation

/// Runs the ledger's queue with a number of concurrent workers until nothing is left to run.
///
/// On start it registers itself as a runner (pid, host, boot, process start time) and requeues
/// jobs that dead runners left `running`. Each worker claims the next job in one transaction
/// (queued → running, with this runner's lease), runs it through the executor into a staging
/// folder, commits the outputs (manifest, flush, rename), and only then marks the job completed.
/// Failures are retried by the job's retry policy; `jobs cancel` is noticed within
/// `pollInterval`; `stop()` (Ctrl-C) returns running jobs to the queue.
///
/// With `Options.onlyJob` it runs that one job, one attempt, and stops: what `photogrammetry
/// jobs run` does in each task of a Slurm job array (`SlurmBackend`), with the same claim,
/// attempt, output commit and ledger updates as a local worker.
public final class BatchRunner: Sendable {
    /// How the runner schedules.
    public struct Options: Sendable {
        /// Jobs run at once (each a session). Default 1; `BatchCommand` caps it at `cores`.
        public var workers = 1
        /// Cores the jobs share: each job's session uses `max(1, cores / workers)` threads.
        /// Default: the cores this process may use.
        public var cores = ProcessInfo.processInfo.activeProcessorCount
        /// The running jobs' estimated peaks (`costModel`) add up to at most this, in bytes.
        /// Default 80 % of physical memory.
        public var memoryBudgetBytes = Int(Double(ProcessInfo.processInfo.physicalMemory) * 0.8)
        public var costModel = JobCostModel()
        /// How often idle workers look for work and the runner looks for cancel requests, seconds. Default 0.5.
        public var pollInterval = 0.5
        /// How often the runner renews its lease and looks for other dead runners' jobs, seconds. Default 5.
        public var heartbeatInterval = 5.0
        /// A runner on another host whose heartbeat is older than this is dead, seconds. Default 60.
        public var leaseTimeout = 60.0
        /// Least time between two progress writes of one job to the ledger, seconds. Default 1.
        public var progressWriteInterval = 1.0
        /// A job whose runner died this many times fails. Default 25.
        public var maxInterruptions = 25
        /// Keep each completed job's checkpoint folder (default: removed once the job completes).
        public var keepCheckpoints = false
        /// Keep waiting for new jobs when the queue is empty, until `stop()` (a server's runner).
        /// Default false: `run()` returns once nothing is left to run.
        public var waitsForNewJobs = false
        /// Run only this job, one attempt, then stop (a failed attempt's retry is left to whoever
        /// submits it again). Nil: run the queue.
        public var onlyJob: String?
        /// The Slurm array task (`<array id>_<index>`) this runner runs in, recorded with its claim;
        /// it may claim a job submitted to this task. Nil: only jobs not submitted to Slurm.
        public var slurmTask: String?

        public init() {}

        /// Threads each job's session may use.
        public var threadsPerJob: Int { max(1, cores / max(1, workers)) }
    }

    /// What the run did (this runner only).
    public struct Summary: Sendable, Equatable {
        public var completed = 0
        public var failed = 0
        public var cancelled = 0
        public var retried = 0
        public var interrupted = 0
        public var recovered = 0
        public var seconds = 0.0
        /// `stop()` ended the run.
        public var stopped = false
    }

    public let ledger: JobLedger
    public let layout: BatchLayout
    public let options: Options
    let executor: any JobExecutor
    let observer: @Sendable (BatchEvent) -> Void
    let state = RunnerState()
    let gate: MemoryGate
    let tally = Tally()

    public init(ledger: JobLedger, layout: BatchLayout, executor: any JobExecutor, options: Options = Options(),
                observer: @escaping @Sendable (BatchEvent) -> Void = { _ in }) {
        self.ledger = ledger
        self.layout = layout
        self.executor = executor
        self.options = options
        self.observer = observer
        gate = MemoryGate(budgetBytes: options.memoryBudgetBytes)
    }

    /// Asks the run to end: no new claims, running attempts cancelled and requeued.
    public func stop() { state.stop() }

    /// Runs until no queued job is left (jobs waiting for a retry's backoff are waited for) and
    /// none of this runner's jobs is running, or until `stop()`.
    public func run() async throws -> Summary {
        let started = Date()
        let identity = RunnerIdentity.current
        let runner = identity.record(workers: options.workers, now: started.timeIntervalSince1970)
        try ledger.register(runner)
        recover(identity)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.monitor(runnerID: runner.id, identity: identity) }
            await withTaskGroup(of: Void.self) { workers in
                for _ in 0..<max(1, options.workers) {
                    workers.addTask { await self.work(runnerID: runner.id) }
                }
            }
            state.markFinished()
        }
        try? ledger.unregister(runnerID: runner.id)
        var summary = tally.summary
        summary.seconds = Date().timeIntervalSince(started)
        summary.stopped = state.isStopping
        return summary
    }

    /// Requeues the jobs of dead runners now, reporting each as `.recovered` (and counting it in
    /// the summary). `run()` does this too; a caller that wants to count the queue first calls it
    /// before, so the jobs a killed runner left behind are counted as queued.
    public func recoverAbandonedJobs() { recover(RunnerIdentity.current) }

    /// Requeues the jobs of dead runners.
    func recover(_ identity: RunnerIdentity) {
        do {
            for recovered in try ledger.recoverAbandonedJobs(observer: identity, leaseTimeout: options.leaseTimeout,
                                                             maxInterruptions: options.maxInterruptions) {
                tally.add(\.recovered)
                observer(.recovered(recovered))
            }
        } catch {
            observer(.warning("recovering abandoned jobs: \(error)"))
        }
    }

    /// Heartbeats, cancel requests and other runners' deaths, until the workers are done.
    private func monitor(runnerID: String, identity: RunnerIdentity) async {
        var lastBeat = Date()
        while !state.isFinished {
            try? await Task.sleep(nanoseconds: UInt64(options.pollInterval * 1e9))
            if let ids = try? ledger.cancelRequests(runnerID: runnerID) { ids.forEach(state.cancel) }
            if Date().timeIntervalSince(lastBeat) >= options.heartbeatInterval {
                lastBeat = Date()
                do { try ledger.heartbeat(runnerID: runnerID) } catch { observer(.warning("heartbeat: \(error)")) }
                recover(identity)
            }
        }
    }

    /// One worker: claim, run, repeat; ends when there is nothing left for this runner to do.
    private func work(runnerID: String) async {
        if let id = options.onlyJob {
            do {
                if let job = try claimOnly(id, runnerID: runnerID) { await attempt(job, runnerID: runnerID) }
            } catch {
                observer(.warning("ledger: \(error)"))
            }
            return
        }
        while !state.isStopping {
            do {
                if let job = try claimNext(runnerID: runnerID) {
                    await attempt(job, runnerID: runnerID)
                    continue
                }
                let (queued, _) = try ledger.queuedWork()
                if queued == 0 && state.runningCount == 0 && !options.waitsForNewJobs { return }
            } catch {
                observer(.warning("ledger: \(error)"))
            }
            try? await Task.sleep(nanoseconds: UInt64(options.pollInterval * 1e9))
        }
    }

    /// Claims the head of the queue if its memory estimate fits the budget now.
    private func claimNext(runnerID: String) throws -> JobRecord? {
        guard let candidate = try ledger.nextQueued() else { return nil }
        return try claim(candidate, runnerID: runnerID)
    }

    /// Claims job `id` (`Options.onlyJob`), or says why it cannot.
    private func claimOnly(_ id: String, runnerID: String) throws -> JobRecord? {
        guard let candidate = try ledger.job(id) else { throw BatchError.unknownJob(id) }
        let mine = candidate.slurmJobID == nil || candidate.slurmJobID == options.slurmTask
        guard candidate.state == .queued, candidate.isValid, mine, !state.isStopping else {
            let why = candidate.state != .queued ? "it is \(candidate.state.rawValue)"
                : !candidate.isValid ? "its spec is invalid"
                : !mine ? "it was submitted to Slurm job \(candidate.slurmJobID ?? "?")" : "the runner is stopping"
            observer(.warning("job '\(id)' not run: \(why)"))
            return nil
        }
        if let job = try claim(candidate, runnerID: runnerID) { return job }
        observer(.warning("job '\(id)' not run: another runner took it first"))
        return nil
    }

    /// Claims `candidate` if its memory estimate fits the budget now.
    private func claim(_ candidate: JobRecord, runnerID: String) throws -> JobRecord? {
        let facts = JobFacts(imageCount: candidate.imageCount, largestImagePixels: candidate.largestImagePixels)
        let bytes = options.costModel.estimateBytes(facts: facts, spec: candidate.decodedSpec, threads: options.threadsPerJob)
        guard gate.reserve(candidate.id, bytes: bytes) else { return nil }
        guard let job = try ledger.claim(candidate.id, runnerID: runnerID, slurmTask: options.slurmTask) else {
            gate.release(candidate.id)
            return nil
        }
        if bytes > gate.budgetBytes {
            observer(.warning("job '\(job.id)' is estimated at \(bytes / 1_000_000) MB, more than the memory budget "
                              + "(\(gate.budgetBytes / 1_000_000) MB): running it alone"))
        }
        observer(.started(jobID: job.id, attempt: job.attempts, estimatedBytes: bytes))
        return job
    }
}

/// Counts of what a run did, behind a lock.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = BatchRunner.Summary()

    func add(_ field: WritableKeyPath<BatchRunner.Summary, Int>) {
        lock.lock()
        value[keyPath: field] += 1
        lock.unlock()
    }

    var summary: BatchRunner.Summary {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
