import ArgumentParser
import BatchRunner
import Foundation

extension JobsCommand {
    /// `jobs run ID`: one attempt of one queued job in this process — what each task of a Slurm
    /// job array runs (`batch --backend slurm`).
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run one queued job once in this process (what each task of a Slurm job array runs).",
            discussion: """
                Claims the job in the ledger, runs it (resuming from its checkpoint), commits its \
                outputs and records the outcome, as a batch worker does; a failed attempt is queued \
                again by the job's retry policy for whoever submits it again. In a Slurm task \
                (SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID), the task is recorded with the claim and the \
                job uses SLURM_CPUS_ON_NODE threads; SIGTERM (scancel) stops it: cancelled after \
                `jobs cancel`, else back in the queue. Exit status: 0 when the job completed or was \
                cancelled, or was not queued for this task (nothing to do), 1 when the attempt failed, \
                130 when Ctrl-C or SIGTERM stopped it and the job went back to the queue (as batch).
                """)

        @OptionGroup var ledger: LedgerOptions

        @Argument(help: "The job's id.")
        var id: String

        @Flag(help: "Print events as JSON lines on standard output instead of text.")
        var json = false

        func run() async throws {
            let ledger = try self.ledger.open()
            guard try ledger.job(id) != nil else { throw BatchError.unknownJob(id) }
            let environment = ProcessInfo.processInfo.environment
            var options = BatchRunner.Options()
            options.onlyJob = id
            options.slurmTask = Self.slurmTask(environment)
            if let cpus = environment["SLURM_CPUS_ON_NODE"].flatMap(Int.init), cpus > 0 { options.cores = cpus }
            let reporter = BatchReporter(json: json)
            let runner = BatchRunner(ledger: ledger, layout: BatchLayout(root: self.ledger.folder), executor: SessionJobExecutor(),
                                     options: options, observer: { reporter.handle($0) })
            let signals = InterruptSignals { runner.stop() }
            defer { signals.cancel() }
            let summary = try await runner.run()
            let job = try ledger.job(id)
            let place = options.slurmTask.map { " (Slurm job \($0))" } ?? ""
            reporter.note("job '\(id)'\(place): \(job?.state.rawValue ?? "?")" + (job?.state == .failed || job?.state == .queued ? job?.error.map { ": \($0)" } ?? "" : ""))
            if summary.failed > 0 || summary.retried > 0 { throw ExitCode(1) }
            if summary.stopped && job?.state == .queued { throw ExitCode(130) }
        }

        /// `<array id>_<index>` from Slurm's environment (or the job id of a task that is not part of an array).
        static func slurmTask(_ environment: [String: String]) -> String? {
            if let array = environment["SLURM_ARRAY_JOB_ID"], let index = environment["SLURM_ARRAY_TASK_ID"] { return "\(array)_\(index)" }
            return environment["SLURM_JOB_ID"]
        }
    }
}
