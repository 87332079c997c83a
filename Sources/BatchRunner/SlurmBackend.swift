import Foundation

/// The Slurm backend: the ledger's queued jobs go to Slurm as job arrays (`sbatch --array`), each
/// task running `photogrammetry jobs run ID` — a one-job `BatchRunner` that claims the job, runs
/// the attempt and commits its outputs exactly as a local worker does, and records the outcome in
/// the ledger (so the ledger and the outputs must be on a file system the nodes share).
///
/// This side submits, follows the ledger (`run(wait:)`), settles jobs whose task Slurm no longer
/// knows although the ledger still has them queued for it or running in it (`reconcile`), submits
/// retries again once their backoff is over, and cancels with `scancel` (`cancel`).
public final class SlurmBackend: Sendable {
    public struct Options: Sendable {
        /// The command that starts `photogrammetry` on the nodes: an absolute path (default: the
        /// `photogrammetry` on PATH; the CLI passes its own absolute path).
        public var worker = ["photogrammetry"]
        /// `--partition`; nil: the cluster's default.
        public var partition: String?
        /// `--cpus-per-task`, also the threads each job's session uses and its memory estimate's. Default 1.
        public var cpusPerTask = 1
        /// More sbatch options (`--time=2:00:00`, `--account=…`), passed as they are. With a
        /// `--mem…` option among them, the backend does not set `--mem` itself.
        public var extraOptions: [String] = []
        public var jobName = "photogrammetry"
        /// `--mem` per task: the largest estimated peak of the array's jobs times `memoryHeadroom`.
        public var costModel = JobCostModel()
        /// Margin on the estimate, which clusters that enforce `--mem` (cgroups) would otherwise
        /// turn into out-of-memory kills when a job needs a little more. Default 1.5.
        public var memoryHeadroom = 1.5
        /// Jobs per array at most (Slurm's MaxArraySize defaults to 1001). Default 1000.
        public var maxArraySize = 1000
        /// How often `run(wait:)` reads the ledger, seconds. Default 0.5.
        public var pollInterval = 0.5
        /// How often `run(wait:)` asks squeue which tasks are still there, seconds. Default 5.
        public var queuePollInterval = 5.0
        /// How long `cancel` waits for a running job's task to stop, seconds. Default 60.
        public var cancelTimeout = 60.0

        public init() {}

        /// `--mem` in MB for jobs of these sizes, or nil when `extraOptions` set the memory.
        func memoryMB(for jobs: [JobRecord]) -> Int? {
            guard !extraOptions.contains(where: { $0.hasPrefix("--mem") }) else { return nil }
            let bytes = jobs.map { job in
                costModel.estimateBytes(facts: JobFacts(imageCount: job.imageCount, largestImagePixels: job.largestImagePixels),
                                        spec: job.decodedSpec, threads: cpusPerTask)
            }.max() ?? 0
            return max(1, Int((Double(bytes) * memoryHeadroom / 1e6).rounded(.up)))
        }
    }

    public let ledger: JobLedger
    public let layout: BatchLayout
    public let client: SlurmClient
    public let options: Options
    let observer: @Sendable (BatchEvent) -> Void
    let state = RunnerState()

    public init(ledger: JobLedger, layout: BatchLayout, client: SlurmClient, options: Options = Options(),
                observer: @escaping @Sendable (BatchEvent) -> Void = { _ in }) {
        self.ledger = ledger
        self.layout = layout
        self.client = client
        self.options = options
        self.observer = observer
    }

    /// Stops `run(wait:)` waiting (the submitted tasks go on running).
    public func stop() { state.stop() }

    /// Submits the queued jobs that have no Slurm task and whose backoff is over, as job arrays of
    /// at most `maxArraySize` tasks, and records each job's task.
    /// - Returns: the submitted arrays' ids.
    /// - Throws: `SlurmError` when sbatch fails (the jobs not submitted stay queued without a task).
    @discardableResult
    public func submit() throws -> [String] {
        let jobs = try ledger.unsubmitted()
        guard !jobs.isEmpty else { return [] }
        try FileManager.default.createDirectory(at: layout.slurmDirectory, withIntermediateDirectories: true)
        var arrays: [String] = []
        for start in stride(from: 0, to: jobs.count, by: max(1, options.maxArraySize)) {
            let chunk = Array(jobs[start..<min(jobs.count, start + max(1, options.maxArraySize))])
            let ids = chunk.map(\.id)
            let script = SlurmArrayScript(jobIDs: ids, worker: options.worker, ledgerFolder: layout.root)
            let file = layout.slurmDirectory.appendingPathComponent("submitting-\(UUID().uuidString.lowercased()).sh")
            try Data(script.text.utf8).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
            let request = SlurmClient.ArrayRequest(
                script: file, count: chunk.count, jobName: options.jobName,
                output: layout.slurmDirectory.appendingPathComponent("%A_%a.out").path, workingDirectory: layout.root,
                partition: options.partition, cpusPerTask: options.cpusPerTask, memoryMB: options.memoryMB(for: chunk),
                extraOptions: options.extraOptions)
            let submission: SlurmClient.Submission
            do { submission = try client.submit(request) } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            try ledger.recordSubmission(ids.enumerated().map { ($0.element, submission.task($0.offset)) })
            // Slurm keeps its own copy of the script; this one is kept beside the tasks' logs.
            _ = rename(file.path, layout.slurmDirectory.appendingPathComponent("\(submission.arrayJobID).sh").path)
            arrays.append(submission.arrayJobID)
            observer(.submitted(slurmArrayID: submission.arrayJobID, jobIDs: ids))
        }
        return arrays
    }

    /// Settles the jobs the ledger has queued for, or running in, a Slurm task that Slurm no longer
    /// knows (`JobLedger.slurmTaskEnded`): each counts a failure and is queued again (to be
    /// submitted again) or failed by its retry policy, or cancelled when a cancel was pending.
    /// - Returns: the jobs settled, with their new state.
    @discardableResult
    public func reconcile() throws -> [JobLedger.Recovered] {
        // The ledger first, then Slurm: a task submitted after this reading is not judged.
        let jobs = try ledger.slurmJobs()
        guard !jobs.isEmpty else { return [] }
        let live = try client.queue()
        var settled: [JobLedger.Recovered] = []
        for job in jobs {
            guard let task = job.slurmJobID, live[task] == nil else { continue }
            if let state = try ledger.slurmTaskEnded(job.id, task: task, log: layout.slurmLog(task)) {
                settled.append(JobLedger.Recovered(jobID: job.id, state: state, reason: "Slurm job \(task) is gone"))
            }
        }
        return settled
    }
}
