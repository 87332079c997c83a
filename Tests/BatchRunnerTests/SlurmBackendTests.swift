import BatchRunner
import Foundation
import GRDB
import XCTest

/// The Slurm backend against a fake Slurm: the exact sbatch, squeue and scancel command lines, the
/// parsing of their answers, what the ledger records, tasks that vanish, cancelling, and the
/// one-job runner each array task runs. (The real cluster: EndToEndTests/SlurmBackendEndToEndTests.)
final class SlurmBackendTests: XCTestCase {
    var directory: URL!
    var ledger: JobLedger!
    var capture: URL!
    var slurm: FakeSlurm!

    override func setUpWithError() throws {
        directory = try BatchFixtures.temporaryDirectory(self)
        ledger = try JobLedger(outputFolder: directory)
        capture = try BatchFixtures.capture(in: directory, name: "cap")
        slurm = FakeSlurm()
    }

    func enqueue(_ ids: [String], retry: RetryPolicy = RetryPolicy(maxAttempts: 2, backoffSeconds: 0)) throws {
        for id in ids {
            try ledger.enqueue(.valid(BatchFixtures.spec(id, input: capture, retry: retry)), facts: JobFacts.scan(input: capture))
        }
    }

    func backend(_ configure: (inout SlurmBackend.Options) -> Void = { _ in }) -> SlurmBackend {
        var options = SlurmBackend.Options()
        options.worker = ["/opt/bin/photogrammetry"]
        options.pollInterval = 0.01
        options.queuePollInterval = 0.01
        options.cancelTimeout = 5
        configure(&options)
        return SlurmBackend(ledger: ledger, layout: BatchLayout(root: directory), client: SlurmClient(runner: slurm), options: options)
    }

    var root: String { BatchLayout(root: directory).root.path }

    func testSubmittingQueuedJobsIsOneSbatchJobArrayWhoseTasksAreRecorded() throws {
        try enqueue(["a", "b", "c"])
        let arrays = try backend {
            $0.partition = "short"
            $0.extraOptions = ["--time=1:00:00"]
        }.submit()
        XCTAssertEqual(arrays, ["100"])
        let sbatch = try XCTUnwrap(slurm.commands.first)
        let estimate = JobCostModel().estimateBytes(facts: JobFacts.scan(input: capture), spec: BatchFixtures.spec("a", input: capture), threads: 1)
        XCTAssertEqual(Array(sbatch.dropLast()), [
            "sbatch", "--parsable", "--array=0-2", "--job-name=photogrammetry", "--output=\(root)/slurm/%A_%a.out",
            "--chdir=\(root)", "--cpus-per-task=1", "--mem=\(Int((Double(estimate) * 1.5 / 1e6).rounded(.up)))M", "--partition=short", "--time=1:00:00",
        ])
        XCTAssertTrue(sbatch.last!.hasPrefix("\(root)/slurm/submitting-") && sbatch.last!.hasSuffix(".sh"), sbatch.last!)
        XCTAssertEqual(try ledger.jobs().map(\.slurmJobID), ["100_0", "100_1", "100_2"])
        XCTAssertEqual(try ledger.jobs().map(\.state), [.queued, .queued, .queued])
        XCTAssertEqual(try ledger.events(jobID: "b").map(\.kind), [.enqueued, .submitted])
        XCTAssertEqual(try ledger.events(jobID: "b").last?.detail, "Slurm job 100_1")
        let script = try String(contentsOf: directory.appendingPathComponent("slurm/100.sh"), encoding: .utf8)
        XCTAssertTrue(script.hasPrefix("#!/bin/bash\n"), script)
        XCTAssertTrue(script.contains("ids=('a' 'b' 'c')\n"), script)
        XCTAssertTrue(script.contains("exec '/opt/bin/photogrammetry' jobs run \"${ids[$SLURM_ARRAY_TASK_ID]}\" --ledger '\(root)'"), script)
        XCTAssertNil(try ledger.nextQueued(), "a local runner leaves jobs submitted to Slurm alone")
        XCTAssertEqual(try ledger.queuedWork().count, 0)
        XCTAssertEqual(try backend().submit(), [], "submitted jobs are not submitted again")
    }

    func testAMemoryOptionReplacesTheEstimateAndLargeBatchesAreSplitIntoArrays() throws {
        try enqueue(["a", "b", "c"])
        try backend {
            $0.extraOptions = ["--mem-per-cpu=2G"]
            $0.cpusPerTask = 4
            $0.maxArraySize = 2
        }.submit()
        XCTAssertEqual(slurm.commands.count, 2)
        XCTAssertEqual(slurm.commands.map { $0[2] }, ["--array=0-1", "--array=0-0"])
        XCTAssertTrue(slurm.commands.allSatisfy { $0.contains("--cpus-per-task=4") && $0.contains("--mem-per-cpu=2G") })
        XCTAssertFalse(slurm.commands.flatMap { $0 }.contains { $0.hasPrefix("--mem=") })
        XCTAssertEqual(try ledger.jobs().map(\.slurmJobID), ["100_0", "100_1", "101_0"])
    }

    func testParsingSbatchParsableAndSqueue() throws {
        XCTAssertEqual(try SlurmClient.parseSubmission("4242\n"), SlurmClient.Submission(arrayJobID: "4242", cluster: nil))
        XCTAssertEqual(try SlurmClient.parseSubmission("17;alpha\n"), SlurmClient.Submission(arrayJobID: "17", cluster: "alpha"))
        XCTAssertEqual(try SlurmClient.parseSubmission("17;alpha\n").task(3), "17_3")
        XCTAssertThrowsError(try SlurmClient.parseSubmission("Submitted batch job 17\n")) { error in
            XCTAssertEqual(error as? SlurmError, .unexpectedOutput(command: "sbatch --parsable", output: "Submitted batch job 17\n"))
        }
        XCTAssertThrowsError(try SlurmClient.parseSubmission(""))
        XCTAssertEqual(SlurmClient.parseQueue("5_0|RUNNING\n5_1|PENDING\n6|COMPLETING\n\n"),
                       ["5_0": "RUNNING", "5_1": "PENDING", "6": "COMPLETING"])
        _ = try SlurmClient(runner: slurm).queue()
        XCTAssertEqual(slurm.commands.last, ["squeue", "--me", "--array", "--noheader", "--format=%i|%T"])
        try SlurmClient(runner: slurm).cancel(["5_1", "5_2"])
        XCTAssertEqual(slurm.commands.last, ["scancel", "5_1", "5_2"])
        XCTAssertEqual(SlurmArrayScript.quoted("it's"), "'it'\\''s'")
    }

    func testReadinessNamesAMissingCommandOrAnUnreachableController() throws {
        slurm.installed = ["squeue", "scancel"]
        XCTAssertThrowsError(try SlurmClient(runner: slurm).checkReady()) { error in
            XCTAssertEqual(error as? SlurmError, .notInstalled("sbatch"))
            XCTAssertTrue("\(error)".hasPrefix("sbatch is not on PATH"), "\(error)")
        }
        slurm.installed = ["sbatch", "squeue", "scancel"]
        slurm.failures["squeue"] = CommandOutput(status: 1, stdout: "",
                                                 stderr: "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n")
        XCTAssertThrowsError(try SlurmClient(runner: slurm).checkReady()) { error in
            XCTAssertEqual(error as? SlurmError, .unreachable("slurm_load_jobs error: Unable to contact slurm controller (connect failure)"))
            XCTAssertTrue("\(error)".contains("the Slurm controller cannot be reached"), "\(error)")
        }
        XCTAssertNoThrow(try SlurmClient(runner: slurm).checkReady())
        try enqueue(["a"])
        slurm.failures["sbatch"] = CommandOutput(status: 1, stdout: "", stderr: "sbatch: error: Invalid partition name specified\n")
        XCTAssertThrowsError(try backend().submit()) { error in
            XCTAssertEqual("\(error)", "sbatch failed (exit status 1): sbatch: error: Invalid partition name specified")
        }
        XCTAssertEqual(try ledger.job("a")?.state, .queued)
        XCTAssertNil(try ledger.job("a")?.slurmJobID, "a job whose submission failed stays queued, unsubmitted")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("slurm").path), [])
    }

    func testATaskSlurmNoLongerKnowsIsRetriedByThePolicyThenFailed() throws {
        try enqueue(["a", "b"])
        let backend = backend()
        try backend.submit()
        // Task 100_0 starts and claims job a, then is killed without recording anything.
        XCTAssertNotNil(try ledger.claim("a", runnerID: "worker-1", slurmTask: "100_0"))
        slurm.queue["100_0"] = nil
        let settled = try backend.reconcile()
        XCTAssertEqual(settled.map(\.jobID), ["a"])
        var a = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(a.state, .queued)
        XCTAssertEqual(a.failures, 1)
        XCTAssertNil(a.slurmJobID, "sent back to the queue without a task: submitted again")
        XCTAssertTrue(a.error?.hasPrefix("Slurm job 100_0 ended without recording an outcome") == true, a.error ?? "")
        XCTAssertEqual(try ledger.job("b")?.slurmJobID, "100_1", "a task still pending is left alone")

        XCTAssertEqual(try backend.submit(), ["101"])
        XCTAssertEqual(try ledger.job("a")?.slurmJobID, "101_0")
        // This time the task ends before it claims the job (the worker could not start).
        slurm.queue["101_0"] = nil
        try backend.reconcile()
        a = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(a.state, .failed, "two failures of two allowed")
        XCTAssertTrue(a.error?.hasPrefix("Slurm job 101_0 ended before it ran the job") == true, a.error ?? "")
        XCTAssertTrue(a.error?.hasSuffix("see \(root)/slurm/101_0.out") == true, a.error ?? "")
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued, .submitted, .claimed, .retryScheduled, .submitted, .failed])
    }

    func testReconcilingLeavesJobsThatRecordedTheirEndAlone() throws {
        try enqueue(["a"])
        try backend().submit()
        XCTAssertNotNil(try ledger.claim("a", runnerID: "w", slurmTask: "100_0"))
        try ledger.complete("a", runnerID: "w", outputDirectory: directory, outputs: [])
        slurm.queue = [:]
        XCTAssertEqual(try backend().reconcile(), [])
        XCTAssertEqual(try ledger.job("a")?.state, .completed)
        XCTAssertEqual(try ledger.job("a")?.slurmJobID, "100_0", "a finished job keeps the task that ran it")
        XCTAssertNil(try ledger.slurmTaskEnded("a", task: "100_0"))
    }

    func testCancellingAQueuedJobCancelsItsPendingTask() throws {
        try enqueue(["a", "b"])
        try backend().submit()
        let outcome = try backend().cancel("b")
        XCTAssertEqual(outcome, SlurmBackend.CancelOutcome(state: .cancelled, slurmTask: "100_1", scancelProblem: nil))
        XCTAssertEqual(slurm.commands.last, ["scancel", "100_1"])
        XCTAssertEqual(try ledger.job("b")?.state, .cancelled)
        XCTAssertNil(try ledger.claim("b", runnerID: "w", slurmTask: "100_1"), "its task, if it starts anyway, finds nothing to run")
        XCTAssertThrowsError(try backend().cancel("nope")) { XCTAssertEqual($0 as? BatchError, .unknownJob("nope")) }
    }

    func testCancellingARunningJobWaitsForItsTaskToGo() throws {
        try enqueue(["a"])
        try backend().submit()
        XCTAssertNotNil(try ledger.claim("a", runnerID: "w", slurmTask: "100_0"))
        slurm.queue["100_0"] = "RUNNING"
        // The fake's scancel removes the task at once without the worker recording anything, as a
        // SIGKILL would: the job is settled as cancelled when squeue no longer lists the task.
        let outcome = try backend().cancel("a")
        XCTAssertEqual(outcome.state, .cancelled)
        XCTAssertEqual(outcome.slurmTask, "100_0")
        XCTAssertEqual(slurm.commands.suffix(2).first, ["scancel", "100_0"])
        let job = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(job.state, .cancelled)
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued, .submitted, .claimed, .cancelRequested, .cancelled])
    }

    func testEachArrayTaskRunsOnlyItsOwnJobOnceWithTheLocalAttemptCode() async throws {
        try enqueue(["a", "b"], retry: RetryPolicy(maxAttempts: 3, backoffSeconds: 0))
        try backend().submit()
        let executor = ScriptedExecutor(["b": .init(failures: 1)])
        func task(_ job: String, _ slurmTask: String) async throws -> BatchRunner.Summary {
            var options = BatchRunner.Options()
            options.onlyJob = job
            options.slurmTask = slurmTask
            options.pollInterval = 0.02
            return try await BatchRunner(ledger: ledger, layout: BatchLayout(root: directory), executor: executor, options: options).run()
        }
        let other = try await task("a", "999_0")
        XCTAssertEqual(other.completed, 0, "another task's job is not taken")
        XCTAssertEqual(try ledger.job("a")?.state, .queued)
        let own = try await task("a", "100_0")
        XCTAssertEqual(own.completed, 1)
        let a = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(a.state, .completed)
        XCTAssertEqual(a.slurmJobID, "100_0")
        XCTAssertNil(OutputManifest.read(in: directory.appendingPathComponent("jobs/a/output"))?.mismatch(in: directory.appendingPathComponent("jobs/a/output")))
        XCTAssertNotNil(OutputManifest.read(in: directory.appendingPathComponent("jobs/a/output")))
        XCTAssertTrue(try ledger.events(jobID: "a").first { $0.kind == .claimed }?.detail?.contains("in Slurm job 100_0 on ") == true)
        let again = try await task("a", "100_0")
        XCTAssertEqual(again.completed, 0, "a completed job is not run again")

        let failed = try await task("b", "100_1")
        XCTAssertEqual(failed.retried, 1)
        XCTAssertEqual(executor.attempts("b"), 1, "one attempt per task: the retry is submitted again")
        XCTAssertEqual(try ledger.job("b")?.state, .queued)
        XCTAssertNil(try ledger.job("b")?.slurmJobID)
        XCTAssertTrue(try ledger.runners().isEmpty)
    }

    func testTheWatcherReportsWhatTheTasksDid() async throws {
        try enqueue(["a", "b"])
        let events = EventLog()
        let backend = SlurmBackend(ledger: ledger, layout: BatchLayout(root: directory), client: SlurmClient(runner: slurm),
                                   options: backend().options, observer: { events.append($0) })
        let run = Task { try await backend.run(wait: true) }
        try await waitUntil { try self.ledger.job("b")?.slurmJobID != nil }
        _ = try ledger.claim("a", runnerID: "w", slurmTask: "100_0")
        try ledger.recordProgress("a", runnerID: "w", stage: "matching", fraction: 0.4, etaSeconds: 2)
        try await waitUntil { events.all.contains(.progress(jobID: "a", JobProgress(stage: "matching", fraction: 0.4, etaSeconds: 2))) }
        try ledger.complete("a", runnerID: "w", outputDirectory: directory, outputs: ["x"])
        _ = try ledger.requestCancel("b")
        let summary = try await run.value
        XCTAssertEqual(summary.completed, 1)
        XCTAssertEqual(summary.cancelled, 1)
        let kinds = events.all.map { event -> String in
            switch event {
            case .submitted(let array, let ids): return "submitted \(array) \(ids)"
            case .started(let id, let attempt, _): return "started \(id) \(attempt)"
            case .completed(let id, _, _, let files): return "completed \(id) \(files)"
            case .cancelled(let id): return "cancelled \(id)"
            case .note(let id, let text): return "\(id): \(text)"
            case .progress: return "progress"
            default: return "\(event)"
            }
        }
        XCTAssertEqual(kinds, ["submitted 100 [\"a\", \"b\"]", "started a 1", "a: running in Slurm job 100_0", "progress",
                               "completed a 1", "cancelled b"])
    }

    func testALedgerFromBeforeTheSlurmBackendIsUpgradedInPlace() throws {
        try enqueue(["old"])
        ledger = nil
        // Make the ledger what the previous version wrote: no slurmJobID column, v1 applied only.
        let path = directory.appendingPathComponent(JobLedger.fileName).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE job DROP COLUMN slurmJobID")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v2%'")
        }
        try queue.close()
        let upgraded = try JobLedger(outputFolder: directory)
        let job = try XCTUnwrap(upgraded.job("old"))
        XCTAssertEqual(job.state, .queued)
        XCTAssertNil(job.slurmJobID)
    }

    private func waitUntil(_ condition: @escaping () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("timed out") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

/// Events an observer saw, behind a lock.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [BatchEvent] = []

    func append(_ event: BatchEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [BatchEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
