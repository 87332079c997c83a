import BatchRunner
import Foundation
import XCTest

/// Issue 7, acceptance 4: `photogrammetry batch --backend slurm` on a real single-node Slurm
/// (Debian's slurm-wlm and munge, started by Scripts/slurm/single-node.sh for each test).
final class SlurmBackendEndToEndTests: XCTestCase {
    var cluster: SingleNodeSlurm!
    var started = Date()

    override func setUpWithError() throws {
        started = Date()
        cluster = try SingleNodeSlurm.start(for: self)
    }

    /// Four jobs through one job array: three complete once with whole outputs; the fourth (a
    /// slow one, with a model, first in the array so it starts at once) is cancelled while it runs.
    func testFourJobsRunThroughSlurmAndOneIsCancelledWhileRunning() throws {
        let captures = try BatchCaptures.make(4)
        let dir = try BatchCaptures.temporaryDirectory(self)
        var slow = BatchCaptures.job("slow", capture: captures[3])
        slow["requests"] = ["poses", ["type": "model", "detail": "medium", "format": "glb"]]
        let jobs = [slow] + (0..<3).map { BatchCaptures.job("job\($0)", capture: captures[$0]) }
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs(jobs, to: file)
        let out = dir.appendingPathComponent("out")
        let log = dir.appendingPathComponent("batch.log")
        let batch = try start(["batch", file.path, "-o", out.path, "--backend", "slurm", "--json"], log: log)
        defer { if batch.isRunning { batch.terminate() } }

        let ledger = try openLedger(out, while: batch, log: log)
        try waitUntil("job 'slow' runs in its Slurm task", log: log) { try ledger.job("slow")?.state == .running }
        let cancel = try CLIRunner.run(["jobs", "cancel", "slow", "-o", out.path], environment: cluster.environment)
        XCTAssertEqual(cancel.status, 0, cancel.output)
        try waitUntil("the batch command ends", timeout: 300, log: log) { !batch.isRunning }
        // The batch command ends when the ledger says every job is done; each task then prints its
        // last line and exits, so the tasks' logs are read once Slurm lists none of them.
        try waitUntil("squeue lists nothing", log: log) { try self.cluster.squeue().isEmpty }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(batch.terminationStatus, 0, output)
        print(String(format: "slurm end-to-end: 4 jobs (one cancelled) in %.1f s, cluster start included", Date().timeIntervalSince(started)))

        let lines = output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let submitted = lines.filter { $0["event"] as? String == "slurm_submitted" }
        XCTAssertEqual(submitted.count, 1, "one job array: \(output)")
        let array = try XCTUnwrap(submitted.first?["array"] as? String)
        XCTAssertEqual(submitted.first?["jobs"] as? [String], ["slow", "job0", "job1", "job2"])
        XCTAssertTrue(cancel.output.contains("cancelled job 'slow' (scancel \(array)_0)"), cancel.output)
        let summary = try XCTUnwrap(lines.last { $0["event"] as? String == "summary" })
        XCTAssertEqual(summary["completed"] as? Int, 3, output)
        XCTAssertEqual(summary["cancelled"] as? Int, 1, output)

        // The ledger: three completed exactly once with whole outputs, by the tasks they were submitted to.
        let records = try ledger.jobs()
        let events = try ledger.events()
        for (index, id) in ["slow", "job0", "job1", "job2"].enumerated() {
            let job = try XCTUnwrap(records.first { $0.id == id })
            let task = "\(array)_\(index)"
            XCTAssertEqual(job.slurmJobID, task, id)
            let claims = events.filter { $0.jobID == id && $0.kind == .claimed }
            XCTAssertEqual(claims.count, 1, id)
            XCTAssertTrue(claims.first?.detail?.contains("in Slurm job \(task) on \(host)") == true, "\(id): \(claims.first?.detail ?? "")")
            let slurmLog = (try? String(contentsOf: out.appendingPathComponent("slurm/\(task).out"), encoding: .utf8)) ?? ""
            if id == "slow" {
                XCTAssertEqual(job.state, .cancelled)
                XCTAssertEqual(job.completions, 0)
                XCTAssertEqual(events.filter { $0.jobID == id }.map(\.kind).suffix(2), [.cancelRequested, .cancelled])
                XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("jobs/slow/output").path))
                XCTAssertTrue(slurmLog.contains("job 'slow' (Slurm job \(task)): cancelled"), "the task recorded the cancel: \(slurmLog)")
            } else {
                XCTAssertEqual(job.state, .completed, "\(id): \(job.error ?? "")")
                XCTAssertEqual(job.completions, 1, id)
                XCTAssertEqual(events.filter { $0.jobID == id && $0.kind == .completed }.count, 1, id)
                XCTAssertEqual(BatchCaptures.outputProblems(job), [])
                XCTAssertTrue(slurmLog.contains("job '\(id)' (Slurm job \(task)): completed"), "Slurm ran \(id): \(slurmLog)")
            }
        }
        XCTAssertEqual(BatchCaptures.leftovers(in: out), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("slurm/\(array).sh").path))

        let list = try CLIRunner.run(["jobs", "list", "-o", out.path])
        XCTAssertTrue(list.output.contains("SLURM JOB") && list.output.contains("\(array)_1"), list.output)
        let show = try CLIRunner.run(["jobs", "show", "job0", "-o", out.path])
        XCTAssertTrue(show.output.contains("Slurm job \(array)_1, log \(out.path)/slurm/\(array)_1.out"), show.output)
    }

    /// A task killed without recording anything (SIGKILL, as the OOM killer or a node failure
    /// would) is noticed through squeue, counted as a failure, submitted again, and completes.
    func testATaskKilledWithoutRecordingIsSubmittedAgainAndCompletes() throws {
        let captures = try BatchCaptures.make(1)
        let dir = try BatchCaptures.temporaryDirectory(self)
        var job = BatchCaptures.job("victim", capture: captures[0], model: true)
        job["retry"] = ["maxAttempts": 2, "backoffSeconds": 0]
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([job], to: file)
        let out = dir.appendingPathComponent("out")
        let log = dir.appendingPathComponent("batch.log")
        let batch = try start(["batch", file.path, "-o", out.path, "--backend", "slurm"], log: log)
        defer { if batch.isRunning { batch.terminate() } }

        let ledger = try openLedger(out, while: batch, log: log)
        try waitUntil("the job runs in its Slurm task", log: log) {
            try ledger.job("victim")?.state == .running && !(try ledger.runners().isEmpty)
        }
        let worker = try XCTUnwrap(ledger.runners().first)
        XCTAssertEqual(kill(pid_t(worker.pid), SIGKILL), 0)
        try waitUntil("the batch command ends", timeout: 300, log: log) { !batch.isRunning }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(batch.terminationStatus, 0, output)

        let record = try XCTUnwrap(ledger.job("victim"))
        XCTAssertEqual(record.state, .completed, output)
        XCTAssertEqual(record.attempts, 2)
        XCTAssertEqual(record.failures, 1)
        XCTAssertEqual(record.completions, 1)
        XCTAssertEqual(BatchCaptures.outputProblems(record), [])
        let events = try ledger.events(jobID: "victim")
        // (The second attempt may resume from the checkpoint the killed one left: restoredFromCheckpoint lines.)
        XCTAssertEqual(events.map(\.kind).filter { $0 != .restoredFromCheckpoint && $0 != .note },
                       [.enqueued, .submitted, .claimed, .retryScheduled, .submitted, .claimed, .completed])
        let submissions = events.filter { $0.kind == .submitted }.compactMap(\.detail)
        XCTAssertEqual(Set(submissions).count, 2, "submitted again as a new job array: \(submissions)")
        let retry = try XCTUnwrap(events.first { $0.kind == .retryScheduled }?.detail)
        XCTAssertTrue(retry.hasPrefix("\(submissions[0]) ended without recording an outcome"), retry)
        XCTAssertTrue(output.contains("'victim' failed, retrying in 0 s: \(submissions[0]) ended without recording an outcome"), output)
        XCTAssertFalse(try ledger.runners().contains { $0.id == worker.id }, "the killed task's runner record is gone")
    }

    /// Without sbatch on PATH, or with no controller to reach, `--backend slurm` fails with a
    /// message naming the problem, before it creates the ledger.
    func testMissingSbatchOrAnUnreachableControllerIsAClearErrorAndTheLedgerIsUntouched() throws {
        let captures = try BatchCaptures.make(1)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([BatchCaptures.job("a", capture: captures[0])], to: file)

        let noSbatch = try CLIRunner.run(["batch", file.path, "-o", dir.appendingPathComponent("out1").path, "--backend", "slurm"],
                                         environment: cluster.environment.merging(["PATH": dir.path]) { $1 })
        XCTAssertNotEqual(noSbatch.status, 0)
        XCTAssertTrue(noSbatch.output.contains("sbatch is not on PATH"), noSbatch.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out1").path))

        // The cluster's configuration with the controller's port changed to one nothing listens on.
        let conf = try String(contentsOf: cluster.configuration, encoding: .utf8).split(separator: "\n")
            .map { $0.hasPrefix("SlurmctldPort=") ? "SlurmctldPort=1" : String($0) }.joined(separator: "\n")
        let deadConf = dir.appendingPathComponent("unreachable.conf")
        try conf.write(to: deadConf, atomically: true, encoding: .utf8)
        let unreachable = try CLIRunner.run(["batch", file.path, "-o", dir.appendingPathComponent("out2").path, "--backend", "slurm"],
                                            environment: ["SLURM_CONF": deadConf.path])
        XCTAssertNotEqual(unreachable.status, 0)
        XCTAssertTrue(unreachable.output.contains("the Slurm controller cannot be reached"), unreachable.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out2").path))
    }

    // MARK: helpers

    struct TimedOut: Error {}

    /// The short host name, as the ledger records it.
    private var host: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts the CLI in the background with the cluster's environment, its output in `log`.
    private func start(_ arguments: [String], log: URL) throws -> Process {
        try CLIRunner.start(arguments, log: log, environment: cluster.environment)
    }

    /// The ledger, once the batch command has written its jobs.
    private func openLedger(_ out: URL, while batch: Process, log: URL) throws -> JobLedger {
        try waitUntil("the batch command submits its jobs", log: log) {
            (try? String(contentsOf: log, encoding: .utf8))?.contains("ubmitted") == true || !batch.isRunning
        }
        let ledger = try JobLedger(outputFolder: out)
        XCTAssertEqual(ledger.journal, .rollback, "a ledger made for Slurm uses the journal nodes can share over NFS")
        return ledger
    }

    private func waitUntil(_ what: String, timeout: Double = 120, log: URL, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                XCTFail("timed out after \(Int(timeout)) s waiting until \(what); the batch command said:\n\(output)")
                throw TimedOut()
            }
            usleep(100_000)
        }
    }
}
