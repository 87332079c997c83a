import ArgumentParser
import BatchRunner
import Foundation

struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run many reconstruction jobs from a jobs file, resumably, with a durable ledger.",
        discussion: """
            JOBS is a JSON file: an array of job specs (or {"jobs": [...]}, one job, or JSON Lines). \
            A job: {"id": "vase-01", "input": "captures/vase-01", "requests": ["poses", "bounds", \
            {"type": "model", "detail": "preview", "format": "glb"}], "output": "results/vase-01", \
            "priority": 0, "retry": {"maxAttempts": 3, "backoffSeconds": 10, "backoffMultiplier": 2}, \
            "intrinsicsFile": "images/K.txt"}. Relative paths are relative to the jobs file. Each job is \
            checked on its own: a malformed job or a missing input fails that job, with a message, \
            and the others run.
            Jobs are recorded in OUT/ledger.sqlite (enqueueing is idempotent by job id: running the \
            same command again adds nothing), then run by --workers concurrent sessions, each with \
            its checkpoint in OUT/jobs/<id>/checkpoint and its outputs in OUT/jobs/<id>/output (or \
            the spec's output folder), committed atomically before the job is marked completed. \
            If the runner is killed, running it again requeues the jobs it left running; they \
            resume from their checkpoints. Without JOBS, runs what the ledger has queued.
            With --backend slurm, the queued jobs are submitted to Slurm as one job array (sbatch \
            --array); task i runs `photogrammetry jobs run ID` on a node, which claims the job in the \
            ledger, runs it and commits its outputs (OUT must be on a file system the nodes share). \
            The command then waits, printing progress, submits retries, and notices tasks that ended \
            without recording an outcome; --no-wait returns after the submission. Task logs: OUT/slurm.
            Exit status: 0 when no job failed (jobs another runner holds are counted as still running), 1 when some failed, 130 after Ctrl-C \
            (local: running jobs go back to the queue; Slurm: the submitted jobs go on).
            """
    )

    @Argument(help: "Jobs file (JSON or JSON Lines).", completion: .file())
    var jobs: String?

    @Option(name: .shortAndLong, help: "Batch output folder: the ledger, each job's checkpoint and default output.")
    var output: String

    @Option(help: "Jobs run at once (at most the number of cores).")
    var workers = 1

    // .unconditional: a negative value is a value (refused with its reason), not an unknown option.
    @Option(parsing: .unconditional, help: "Memory the running jobs' estimated peaks may add up to, in GB (default: 80 % of physical memory).")
    var memoryBudget: Double?

    @Flag(help: "Record the jobs in the ledger and exit without running them.")
    var enqueueOnly = false

    @Flag(help: "Keep each completed job's checkpoint folder.")
    var keepCheckpoints = false

    @Flag(help: "Print events as JSON lines on standard output instead of progress text.")
    var json = false

    @Option(help: "Where the jobs run: local (--workers sessions in this process) or slurm (a Slurm job array).")
    var backend: Backend = .local

    @OptionGroup(title: "Slurm backend")
    var slurm: SlurmOptions

    enum Backend: String, LowercaseArgument {
        case local, slurm
    }

    func validate() throws {
        if workers < 1 { throw ValidationError("--workers must be at least 1") }
        if let memoryBudget, !(memoryBudget > 0 && memoryBudget <= 1e6) { throw ValidationError("--memory-budget must be more than 0 and at most 1000000 GB") }
        if backend != .slurm, let option = slurm.given.first { throw ValidationError("\(option) needs --backend slurm") }
    }

    func run() async throws {
        let reporter = BatchReporter(json: json)
        do {
            if backend == .slurm { return try await runOnSlurm(reporter: reporter) }
            try await runHere(reporter: reporter)
        } catch {
            // With --json, a run that stops on an error says so on standard output too.
            if !(error is ExitCode) { reporter.failure(error) }
            throw error
        }
    }

    private func runHere(reporter: BatchReporter) async throws {
        // The jobs file and the output folder are checked before the ledger is created, so a
        // mistake in either leaves nothing behind.
        let file = try jobs.map { try JobsFile.load(URL(fileURLWithPath: $0)) }
        try OutputFolder.checkFolder(output, option: "-o")
        let layout = BatchLayout(root: URL(fileURLWithPath: output, isDirectory: true))
        try requireLedger(unless: file != nil, layout: layout)
        let ledger = try JobLedger(path: layout.ledger)
        let enqueued = try file.map { try enqueue($0, into: ledger, reporter: reporter) }
        let fileIDs = enqueued?.ids
        if enqueueOnly { return }

        var options = BatchRunner.Options()
        options.workers = min(workers, options.cores)
        if workers > options.cores { reporter.note("--workers \(workers) capped at \(options.cores), the cores available") }
        if let memoryBudget { options.memoryBudgetBytes = Int(memoryBudget * 1e9) }
        options.keepCheckpoints = keepCheckpoints
        let runner = BatchRunner(ledger: ledger, layout: layout, executor: SessionJobExecutor(), options: options,
                                 observer: { reporter.handle($0) })
        // Jobs a killed runner left running go back to the queue before it is counted.
        runner.recoverAbandonedJobs()
        reporter.begin(queued: try ledger.queuedWork().count, workers: options.workers)

        // Ctrl-C and SIGTERM stop the runner: running jobs go back to the queue with their checkpoints.
        let signals = InterruptSignals { runner.stop() }
        defer { signals.cancel() }
        let summary = try await runner.run()
        let tally = try LedgerTally(ledger: ledger, fileIDs: fileIDs.map(Set.init))
        reporter.finish(summary: summary, tally: tally)
        if summary.stopped { throw ExitCode(130) }
        if !tally.failed.isEmpty { throw ExitCode(1) }
    }

    /// Without a jobs file the ledger must be there already: a mistyped folder is not a new, empty
    /// batch that "completes" at once.
    func requireLedger(unless givenJobs: Bool, layout: BatchLayout) throws {
        guard !givenJobs, !FileManager.default.fileExists(atPath: layout.ledger.path) else { return }
        throw CommandFailure("\(output) holds no batch ledger (\(JobLedger.fileName)): give a jobs file to start a batch there, "
                             + "or the folder of an existing batch to resume it")
    }

    /// Enqueues the jobs file's jobs, reporting each.
    /// - Returns: the file's job ids, and how many of them are invalid.
    func enqueue(_ file: JobsFile, into ledger: JobLedger, reporter: BatchReporter) throws -> (ids: [String], invalid: Int) {
        let file = file.checked(against: BatchLayout(root: URL(fileURLWithPath: output, isDirectory: true)))
        var invalid = 0
        for entry in file.entries {
            let facts: JobFacts
            if case .valid(let spec) = entry { facts = JobFacts.scan(input: URL(fileURLWithPath: spec.input)) } else { facts = JobFacts() }
            let outcome = try ledger.enqueue(entry, facts: facts)
            switch outcome {
            case .rejected, .replaced(problem: .some), .invalidKept: invalid += 1
            default: break
            }
            reporter.enqueued(entry, outcome: outcome)
        }
        // Failed place-holders of this file's jobs without a usable id, which the file no longer has.
        let ids = file.entries.map(\.id)
        if let jobs {
            // Ledgers before 2026-11-29 named them by the file's name alone (`jobs.json#2`): those go too.
            let url = URL(fileURLWithPath: jobs)
            let retired = try ledger.retirePlaceholders(ofFile: JobsFile.placeholderLabel(of: url), keeping: Set(ids))
                + ledger.retirePlaceholders(ofFile: url.lastPathComponent, keeping: Set(ids))
            for id in retired {
                reporter.note("removed '\(id)' from the ledger: the jobs file no longer has that invalid job")
            }
        }
        reporter.enqueueSummary()
        // Only enqueueing: an invalid job is this run's failure (a full run reports it as failed).
        if enqueueOnly && invalid > 0 { throw ExitCode(1) }
        return (ids, invalid)
    }
}
