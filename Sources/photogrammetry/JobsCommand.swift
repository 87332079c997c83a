import ArgumentParser
import BatchRunner
import Foundation

struct JobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List, show, cancel, retry, remove and run the jobs of a batch ledger.",
        subcommands: [List.self, Show.self, Cancel.self, Retry.self, Remove.self, Run.self]
    )

    /// `--ledger OUT` (or `-o OUT`): the batch output folder, or its ledger.sqlite.
    struct LedgerOptions: ParsableArguments {
        @Option(name: [.customLong("ledger"), .customShort("o"), .customLong("output")],
                help: "The batch output folder (or its ledger.sqlite).", completion: .directory)
        var ledger: String

        var file: URL {
            let url = URL(fileURLWithPath: ledger)
            return url.pathExtension == "sqlite" ? url : url.appendingPathComponent(JobLedger.fileName)
        }

        /// The batch output folder.
        var folder: URL { file.deletingLastPathComponent() }

        func open() throws -> JobLedger {
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw BatchError.ledger(file.path, "does not exist (run photogrammetry batch JOBS -o \(ledger) first)")
            }
            return try JobLedger(path: file)
        }

        /// The ledger, with the jobs of runners that are no longer alive (killed, crashed) put back
        /// in the queue first, as `batch` does when it starts: a cancel or retry then acts at once.
        func openRecovered() throws -> JobLedger {
            let ledger = try open()
            try ledger.recoverAbandonedJobs()
            return ledger
        }

        /// The ledger for reading, with dead runners' jobs requeued first where the ledger can be
        /// written (a read-only or busy ledger is read as it is).
        func openForReading() throws -> JobLedger {
            let ledger = try open()
            _ = try? ledger.recoverAbandonedJobs()
            return ledger
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the jobs in queue order with their state, stage, progress and attempts.")

        @OptionGroup var ledger: LedgerOptions

        @Option(help: "Only jobs in this state: queued, running, completed, failed or cancelled.")
        var state: JobState?

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            // A job whose runner was killed shows as queued again, not as running.
            let jobs = try ledger.openForReading().jobs(in: state.map { [$0] })
            if json {
                print(try JobsJSON.text(jobs.map(JobsJSON.summary)))
                return
            }
            guard !jobs.isEmpty else { print("no jobs"); return }
            // Errors are cut to fit a terminal line; piped output keeps them whole.
            let width = isatty(STDOUT_FILENO) != 0 ? 60 : Int.max
            // The Slurm column appears once a job has a Slurm task.
            let slurm = jobs.contains { $0.slurmJobID != nil }
            let rows = jobs.map { job -> [String] in
                [job.id, job.state.rawValue, job.stage ?? "-", "\(Int((job.progress * 100).rounded()))%", "\(job.attempts)",
                 "\(job.priority)", JobsJSON.duration(job)] + (slurm ? [job.slurmJobID ?? "-"] : [])
                    + [JobsJSON.shortened(JobsJSON.withoutJobName(job.error ?? "", job.id), width)]
            }
            printTable(header: ["ID", "STATE", "STAGE", "PROGRESS", "ATTEMPTS", "PRIORITY", "TIME"] + (slurm ? ["SLURM JOB"] : []) + ["ERROR"],
                       rows: rows)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one job: spec, state, timings, outputs and history.")

        @OptionGroup var ledger: LedgerOptions

        @Argument(help: "The job's id.")
        var id: String

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let ledger = try ledger.openForReading()
            guard let job = try ledger.job(id) else { throw BatchError.unknownJob(id) }
            let events = try ledger.events(jobID: id)
            let layout = BatchLayout(root: self.ledger.folder)
            if json {
                print(try JobsJSON.text(JobsJSON.detail(job, events: events, layout: layout)))
                return
            }
            print(JobsJSON.describe(job, events: events, layout: layout))
        }
    }

    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel a job: a queued one at once; a running one is stopped by its runner within about half a second (it looks every 0.5 s).",
            discussion: """
                A job submitted to Slurm (batch --backend slurm) is also cancelled there with \
                scancel <array id>_<index>; for a running one, this waits until its task has stopped.
                """)

        @OptionGroup var ledger: LedgerOptions

        @Argument(help: "The job's id.")
        var id: String

        func run() throws {
            let backend = SlurmBackend(ledger: try ledger.openRecovered(), layout: BatchLayout(root: ledger.folder), client: SlurmClient())
            let outcome = try backend.cancel(id)
            if let problem = outcome.scancelProblem {
                print("warning: \(problem); the ledger has the cancel, which its Slurm task obeys once it starts or within a second")
            }
            let slurm = outcome.slurmTask.map { " (scancel \($0))" } ?? ""
            switch outcome.state {
            case .running where outcome.slurmTask != nil:
                print("asked job '\(id)' to stop\(slurm); its Slurm task has not ended yet (its checkpoint is kept; `jobs retry` resumes it)")
            case .running: print("asked the runner to stop job '\(id)' (its checkpoint is kept; `jobs retry` resumes it)")
            default: print("cancelled job '\(id)'\(slurm)")
            }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue a failed or cancelled job again (a running batch picks it up; else run batch -o OUT).")

        @OptionGroup var ledger: LedgerOptions

        @Argument(help: "The job's id.")
        var id: String

        func run() throws {
            try ledger.openRecovered().retry(id)
            // A job that stopped before any stage finished has no checkpoint to resume from.
            let checkpoint = BatchLayout(root: ledger.folder).checkpointDirectory(id)
            let kept = ((try? FileManager.default.contentsOfDirectory(atPath: checkpoint.path)) ?? []).contains { !$0.hasPrefix(".") }
            print("queued job '\(id)' again; it \(kept ? "resumes from its checkpoint" : "runs from the start") when `photogrammetry batch -o \(ledger.ledger)` runs")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a completed, failed or cancelled job from the ledger (its checkpoint too; its outputs stay).",
            discussion: """
                The ledger keeps its history of events, ending with 'removed'. A failed job \
                stays in the ledger, and makes batch -o OUT exit 1, until it is retried or removed. \
                Invalid jobs without a usable id (PATH#N: the jobs file's path and the job's place in it) \
                are removed by batch itself once that file no longer has them.
                """)

        @OptionGroup var ledger: LedgerOptions

        @Argument(help: "The job's id.")
        var id: String

        func run() throws {
            try ledger.openRecovered().remove(id)
            let checkpoint = BatchLayout(root: ledger.folder).checkpointDirectory(id)
            if FileManager.default.fileExists(atPath: checkpoint.path) { try? FileManager.default.removeItem(at: checkpoint) }
            print("removed job '\(id)' from the ledger")
        }
    }
}

extension JobState: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// Prints left-aligned columns.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        print(row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
            .joined(separator: "  "))
    }
}
