import BatchRunner
import Foundation

/// Prints a batch's events: on a terminal, a block of progress bars (one per running job and a
/// batch line with the time left) redrawn in place, with finished jobs scrolling above it; with
/// `--json`, one JSON object per line on standard output; otherwise (logs, CI) plain lines.
final class BatchReporter: @unchecked Sendable {
    private let json: Bool
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var progress = BatchProgress(queued: 0, workers: 1)
    private var enqueueCounts: [String: Int] = [:]
    private var blockLines = 0
    private var lastDraw = 0.0
    private var lastJSON: [String: (stage: String, fraction: Double, at: Double)] = [:]

    init(json: Bool) {
        self.json = json
    }

    // MARK: enqueueing

    func enqueued(_ entry: JobsFile.Entry, outcome: JobLedger.EnqueueOutcome) {
        locked {
            switch outcome {
            case .queued: enqueueCounts["new", default: 0] += 1
            case .unchanged: enqueueCounts["already in the ledger", default: 0] += 1
            case .rejected(let problem):
                enqueueCounts["invalid", default: 0] += 1
                emit(["event": "job_invalid", "job": entry.id, "message": problem], text: "invalid job: \(problem)")
            case .replaced(let problem):
                enqueueCounts[problem == nil ? "replaced" : "invalid", default: 0] += 1
                if let problem { emit(["event": "job_invalid", "job": entry.id, "message": problem], text: "invalid job: \(problem)") }
            case .invalidKept(let problem, let state):
                enqueueCounts["already in the ledger", default: 0] += 1
                emit(["event": "warning", "job": entry.id, "message": "\(problem); the ledger keeps its \(state.rawValue) job"],
                     text: "warning: \(problem); the ledger keeps its \(state.rawValue) job '\(entry.id)'")
            case .conflict(let state):
                enqueueCounts["kept (spec changed)", default: 0] += 1
                emit(["event": "warning", "job": entry.id, "message": "the ledger's job has another spec; kept it (\(state.rawValue))"],
                     text: "warning: job '\(entry.id)' is already in the ledger (\(state.rawValue)) with another spec; kept the ledger's "
                         + Self.conflictAdvice(state))
            }
        }
    }

    /// How to run a changed spec under an id the ledger already holds in `state`.
    static func conflictAdvice(_ state: JobState) -> String {
        switch state {
        case .queued, .running: return "(give the new job another id, or cancel the old one, then retry with the new spec)"
        default: return "(give the new job another id; a \(state.rawValue) job keeps its spec and outputs)"
        }
    }

    func enqueueSummary() {
        locked {
            let parts = ["new", "already in the ledger", "replaced", "kept (spec changed)", "invalid"]
                .compactMap { key in enqueueCounts[key].map { "\($0) \(key)" } }
            var fields: [String: Any] = ["event": "enqueued"]
            for (key, count) in enqueueCounts { fields[key.replacingOccurrences(of: " ", with: "_")] = count }
            emit(fields, text: "jobs: \(parts.isEmpty ? "none in the jobs file" : parts.joined(separator: ", "))")
        }
    }

    func note(_ text: String) {
        locked { emit(["event": "note", "message": text], text: text) }
    }

    // MARK: running

    func begin(queued: Int, workers: Int) {
        locked {
            progress = BatchProgress(queued: queued, workers: workers)
            emit(["event": "batch_started", "queued": queued, "workers": workers],
                 text: "running \(queued) queued job\(queued == 1 ? "" : "s") with \(workers) worker\(workers == 1 ? "" : "s")")
        }
    }

    /// The Slurm backend starts following `count` queued and running jobs.
    func begin(slurmJobs count: Int) {
        locked {
            progress = BatchProgress(queued: count, workers: max(1, count))
            emit(["event": "batch_started", "queued": count, "backend": "slurm"],
                 text: "\(count) job\(count == 1 ? "" : "s") queued or running for Slurm")
        }
    }

    func handle(_ event: BatchEvent) {
        locked {
            let now = Date().timeIntervalSince1970
            progress.apply(event, now: now)
            let eta = progress.etaSeconds(now: now)
            switch event {
            case .recovered(let r):
                emit(["event": "job_recovered", "job": r.jobID, "state": r.state.rawValue, "reason": r.reason],
                     text: "recovered '\(r.jobID)' (\(r.reason)): \(r.state == .queued ? "requeued, resumes from its checkpoint" : r.state.rawValue)")
            case .submitted(let array, let ids):
                let tasks = ids.count == 1 ? "task \(array)_0" : "tasks \(array)_0…\(array)_\(ids.count - 1)"
                emit(["event": "slurm_submitted", "array": array, "jobs": ids],
                     text: "submitted \(ids.count) job\(ids.count == 1 ? "" : "s") to Slurm: job array \(array) (\(tasks))")
            case .started(let id, let attempt, let bytes):
                emit(["event": "job_started", "job": id, "attempt": attempt, "estimated_mb": bytes / 1_000_000],
                     text: "started '\(id)' (attempt \(attempt), about \(bytes / 1_000_000) MB)", quietOnTerminal: true)
            case .progress(let id, let p):
                if json {
                    let last = lastJSON[id]
                    if last == nil || last!.stage != p.stage || p.fraction - last!.fraction >= 0.02 || now - last!.at >= 1 {
                        lastJSON[id] = (p.stage, p.fraction, now)
                        var fields: [String: Any] = ["event": "progress", "job": id, "stage": p.stage, "fraction": rounded(p.fraction, 4)]
                        if let e = p.etaSeconds { fields["eta_seconds"] = rounded(e, 1) }
                        if let eta { fields["batch_eta_seconds"] = rounded(eta, 1) }
                        line(fields)
                    }
                }
            case .note(let id, let text):
                emit(["event": "job_note", "job": id, "message": text], text: "\(id): \(text)", quietOnTerminal: true)
            case .completed(let id, let seconds, let directory, let files):
                lastJSON[id] = nil
                emit(["event": "job_completed", "job": id, "seconds": rounded(seconds, 2), "output": directory.path, "files": files],
                     text: String(format: "completed '%@' in %.1f s: %@ (%d file%@)%@", id, seconds, directory.path, files,
                                  files == 1 ? "" : "s", batchLine(eta)))
            case .retrying(let id, let message, let delay):
                emit(["event": "job_retrying", "job": id, "message": message, "delay_seconds": rounded(delay, 1)],
                     text: String(format: "'%@' failed, retrying in %.0f s: %@", id, delay, message))
            case .failed(let id, let message):
                emit(["event": "job_failed", "job": id, "message": message], text: "failed '\(id)': \(message)\(batchLine(eta))")
            case .cancelled(let id):
                emit(["event": "job_cancelled", "job": id], text: "cancelled '\(id)'")
            case .interrupted(let id):
                emit(["event": "job_interrupted", "job": id], text: "stopped '\(id)': back in the queue, resumes from its checkpoint")
            case .warning(let text):
                emit(["event": "warning", "message": text], text: "warning: \(text)")
            }
            if isTerminal && !json && (now - lastDraw >= 0.2 || !(event.isProgress)) {
                lastDraw = now
                drawBlock(eta: eta)
            }
        }
    }

    /// The run's summary. `tally` counts the jobs (of the jobs file, when one was given, else of
    /// the ledger) by their state in the ledger now, whichever run finished them, so the counts add
    /// up: a job cancelled and then completed in one run is completed, not both. Its failed jobs
    /// are those that failed in this run or an earlier one, and invalid specs, which never run; the
    /// exit status follows them. `summary.completed` is this run's.
    func finish(summary: BatchRunner.Summary, tally: LedgerTally) {
        locked {
            clearBlock()
            let failedJobs = tally.failed
            let failed = failedJobs.count, rejected = failedJobs.filter { !$0.isValid }.count
            var fields: [String: Any] = ["event": "summary", "completed": tally.completed, "completed_this_run": summary.completed,
                                         "failed": failed, "rejected": rejected, "cancelled": tally.cancelled, "retried": summary.retried,
                                         "recovered": summary.recovered, "interrupted": summary.interrupted,
                                         "seconds": rounded(summary.seconds, 2), "still_queued_or_running": tally.open]
            fields["failed_jobs"] = failedJobs.map { ["job": $0.id, "message": $0.error ?? ""] }
            var text = String(format: "batch: %d completed, %d failed%@, %d cancelled of %@ (%d completed in this run, %.1f s)",
                              tally.completed, failed, rejected > 0 ? " (\(rejected) invalid when added)" : "", tally.cancelled,
                              tally.scope, summary.completed, summary.seconds)
            if summary.recovered > 0 { text += " (\(summary.recovered) recovered from a dead runner)" }
            if tally.open > 0 { text += "; \(tally.open) still queued or running (another runner's, or left for the next run)" }
            // The ledger's failed jobs: those that failed in this run, invalid specs (which never
            // run) and failures of earlier runs not retried since.
            if !failedJobs.isEmpty { text += "\nfailed (this run, earlier runs or invalid specs):" }
            for job in failedJobs { text += "\n  failed '\(job.id)': \(job.error ?? "")" }
            emit(fields, text: text)
        }
    }

    /// The error that stopped the run: with `--json` an `error` event on standard output (the
    /// message itself goes to standard error as for every command).
    func failure(_ error: any Error) {
        locked {
            clearBlock()
            if json { line(["event": "error", "message": "\(error)"]) }
        }
    }

    // MARK: output

    private func batchLine(_ eta: Double?) -> String {
        let left = eta.map { String(format: ", about %.0f s left", $0) } ?? ""
        return String(format: " [%d done, %d running, %d queued, %d failed%@]", progress.completed, progress.running.count,
                      progress.queued, progress.failed, left)
    }

    private func drawBlock(eta: Double?) {
        clearBlock()
        var lines: [String] = []
        for (id, entry) in progress.running.sorted(by: { $0.key < $1.key }) {
            let p = entry.progress
            let fraction = p?.fraction ?? 0
            let width = 24, filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let left = p?.etaSeconds.map { String(format: "  %.0f s left", $0) } ?? ""
            let name = id.count > 20 ? String(id.prefix(19)) + "…" : id.padding(toLength: 20, withPad: " ", startingAt: 0)
            let stage = (p?.stage ?? "starting").padding(toLength: 9, withPad: " ", startingAt: 0)
            lines.append("  \(name) \(stage) [\(bar)] \(Int(fraction * 100))%\(left)")
        }
        lines.append("batch:" + batchLine(eta))
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        blockLines = lines.count
    }

    private func clearBlock() {
        guard blockLines > 0 else { return }
        FileHandle.standardError.write(Data("\u{1B}[\(blockLines)A\u{1B}[J".utf8))
        blockLines = 0
    }

    /// A JSON line with `--json`, else a text line (on a terminal, above the progress block).
    private func emit(_ fields: [String: Any], text: String, quietOnTerminal: Bool = false) {
        if json { line(fields); return }
        if quietOnTerminal && isTerminal { return }
        clearBlock()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// One JSON object on standard output, unbuffered, so a reader of the pipe sees it at once.
    private func line(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    private func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    private func locked(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body()
    }
}

private extension BatchEvent {
    var isProgress: Bool {
        if case .progress = self { return true }
        return false
    }
}

/// The jobs of a batch by their state in the ledger (of the jobs file when one was given).
struct LedgerTally {
    var completed = 0, cancelled = 0, open = 0
    /// The failed jobs, invalid specs among them.
    var failed: [JobRecord] = []
    /// "the jobs file's 3 jobs" or "the ledger's 5 jobs".
    var scope = ""

    init(ledger: JobLedger, fileIDs: Set<String>?) throws {
        let mine = { (job: JobRecord) in fileIDs?.contains(job.id) ?? true }
        failed = try ledger.jobs(in: [.failed]).filter(mine)
        completed = try ledger.jobs(in: [.completed]).filter(mine).count
        cancelled = try ledger.jobs(in: [.cancelled]).filter(mine).count
        open = try ledger.jobs(in: [.queued, .running]).filter(mine).count
        let total = try fileIDs?.count ?? ledger.jobs(in: JobState.allCases).count
        scope = fileIDs == nil ? "the ledger's \(total) job\(total == 1 ? "" : "s")" : "the jobs file's \(total) job\(total == 1 ? "" : "s")"
    }
}
