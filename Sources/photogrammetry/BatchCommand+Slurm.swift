import ArgumentParser
import BatchRunner
import Foundation

/// `batch --backend slurm`'s options.
struct SlurmOptions: ParsableArguments {
    @Option(name: .customLong("slurm-partition"), help: "Slurm partition (default: the cluster's default partition).")
    var partition: String?

    @Option(name: .customLong("slurm-cpus-per-task"),
            help: "CPUs per Slurm task: the threads each job uses and its memory estimate's (--mem is 1.5 × the largest job's estimated peak).")
    var cpusPerTask: Int?

    @Option(name: .customLong("slurm-option"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("An sbatch option passed as it is (repeatable), e.g. --slurm-option=--time=2:00:00; a --mem… option replaces the estimate.",
                               valueName: "sbatch-option"))
    var extraOptions: [String] = []

    @Option(name: .customLong("slurm-worker"),
            help: "The photogrammetry the Slurm tasks run: a path the nodes see, or a name on their PATH (default: this binary's absolute path).")
    var worker: String?

    @Flag(name: .customLong("no-wait"), help: "With --backend slurm: return once the jobs are submitted (exit 1 if the jobs file has invalid jobs).")
    var noWait = false

    /// The options given (for the error when the backend is not slurm).
    var given: [String] {
        [partition.map { _ in "--slurm-partition" }, cpusPerTask.map { _ in "--slurm-cpus-per-task" },
         extraOptions.isEmpty ? nil : "--slurm-option", worker.map { _ in "--slurm-worker" }, noWait ? "--no-wait" : nil].compactMap { $0 }
    }

    func validate() throws {
        if let cpusPerTask, cpusPerTask < 1 { throw ValidationError("--slurm-cpus-per-task must be at least 1") }
    }
}

extension BatchCommand {
    /// `--backend slurm`: checks Slurm before touching the ledger, enqueues, submits one job array
    /// of the queued jobs and (unless --no-wait) follows them to their end.
    func runOnSlurm(reporter: BatchReporter) async throws {
        let client = SlurmClient()
        if !enqueueOnly { try client.checkReady() }
        let file = try jobs.map { try JobsFile.load(URL(fileURLWithPath: $0)) }
        try OutputFolder.checkFolder(output, option: "-o")
        let layout = BatchLayout(root: URL(fileURLWithPath: output, isDirectory: true))
        try requireLedger(unless: file != nil, layout: layout)
        // A new ledger for Slurm uses the rollback journal, so tasks on other nodes can share it.
        let ledger = try JobLedger(path: layout.ledger, journalForNewLedger: .rollback)
        if ledger.journal == .wal {
            reporter.note("\(layout.ledger.path) is a WAL ledger (made by a local batch run): Slurm tasks must then run on this host; "
                          + "a new output folder gets a ledger that nodes can share over a network file system")
        }
        let enqueued = try file.map { try enqueue($0, into: ledger, reporter: reporter) }
        let fileIDs = enqueued?.ids
        if enqueueOnly { return }

        var options = SlurmBackend.Options()
        options.worker = [slurm.worker ?? Self.ownExecutable()]
        options.partition = slurm.partition
        options.cpusPerTask = slurm.cpusPerTask ?? 1
        options.extraOptions = slurm.extraOptions
        if workers != 1 { reporter.note("--workers applies to the local backend; Slurm decides how many tasks run at once") }
        let open = try ledger.jobs(in: [.queued, .running])
        reporter.begin(slurmJobs: open.count)
        let backend = SlurmBackend(ledger: ledger, layout: layout, client: client, options: options, observer: { reporter.handle($0) })

        // Ctrl-C and SIGTERM stop the waiting; the submitted jobs go on in Slurm.
        let signals = InterruptSignals { backend.stop() }
        defer { signals.cancel() }
        let summary = try await backend.run(wait: !slurm.noWait)
        let stillOpen = try ledger.jobs(in: [.queued, .running]).count
        if slurm.noWait {
            reporter.note("\(stillOpen) job\(stillOpen == 1 ? "" : "s") queued or running in Slurm; `photogrammetry jobs list -o \(output)` "
                          + "shows them, `photogrammetry batch -o \(output) --backend slurm` waits for them (and submits retries)")
            // As with --enqueue-only: the jobs file's invalid jobs are this run's failure.
            if let enqueued, enqueued.invalid > 0 { throw ExitCode(1) }
            return
        }
        let tally = try LedgerTally(ledger: ledger, fileIDs: fileIDs.map(Set.init))
        reporter.finish(summary: summary, tally: tally)
        if summary.stopped {
            reporter.note("stopped waiting: the submitted jobs go on in Slurm (`photogrammetry jobs cancel ID -o \(output)` cancels one)")
            throw ExitCode(130)
        }
        if !tally.failed.isEmpty { throw ExitCode(1) }
    }

    /// This binary's absolute path (what the Slurm tasks run unless --slurm-worker says otherwise).
    static func ownExecutable() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let argument = CommandLine.arguments[0]
        if argument.hasPrefix("/") || !argument.contains("/") { return argument }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(argument).standardizedFileURL.path
    }
}
