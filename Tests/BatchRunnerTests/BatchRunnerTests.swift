import BatchRunner
import Foundation
import XCTest

/// The scheduler with a scripted executor: concurrency, the memory budget, retries, permanent
/// failures, cancellation, stopping, and completing outputs a dead runner had committed.
final class BatchRunnerTests: XCTestCase {
    var directory: URL!
    var ledger: JobLedger!
    var capture: URL!

    override func setUpWithError() throws {
        directory = try BatchFixtures.temporaryDirectory(self)
        ledger = try JobLedger(outputFolder: directory)
        capture = try BatchFixtures.capture(in: directory, name: "cap")
    }

    func options(workers: Int) -> BatchRunner.Options {
        var options = BatchRunner.Options()
        options.workers = workers
        options.cores = 2
        options.pollInterval = 0.02
        options.memoryBudgetBytes = 8_000_000_000
        return options
    }

    func enqueue(_ ids: [String], retry: RetryPolicy = RetryPolicy(maxAttempts: 3, backoffSeconds: 0)) throws {
        for id in ids {
            try ledger.enqueue(.valid(BatchFixtures.spec(id, input: capture, retry: retry)), facts: JobFacts.scan(input: capture))
        }
    }

    func runner(_ executor: ScriptedExecutor, workers: Int = 2, configure: (inout BatchRunner.Options) -> Void = { _ in }) -> BatchRunner {
        var options = options(workers: workers)
        configure(&options)
        return BatchRunner(ledger: ledger, layout: BatchLayout(root: directory), executor: executor, options: options)
    }

    func testEveryJobCompletesOnceWithTwoWorkersAtATime() async throws {
        let ids = (1...6).map { "job\($0)" }
        try enqueue(ids)
        let executor = ScriptedExecutor()
        let summary = try await runner(executor).run()
        XCTAssertEqual(summary.completed, 6)
        XCTAssertEqual(executor.mostAtOnce, 2)
        for id in ids {
            let job = try XCTUnwrap(ledger.job(id))
            XCTAssertEqual(job.state, .completed)
            XCTAssertEqual(job.completions, 1)
            let output = directory.appendingPathComponent("jobs/\(id)/output")
            XCTAssertEqual(job.outputDirectory, output.path)
            XCTAssertEqual(job.outputFiles, ["result.txt"])
            XCTAssertNil(OutputManifest.read(in: output)?.mismatch(in: output))
        }
        XCTAssertTrue(try ledger.runners().isEmpty, "a runner that ends cleanly removes its record")
    }

    func testTheMemoryBudgetKeepsJobsThatDoNotFitTogetherApart() async throws {
        try enqueue(["a", "b", "c"])
        let executor = ScriptedExecutor()
        let facts = JobFacts.scan(input: capture)
        XCTAssertEqual(facts, JobFacts(imageCount: 3, largestImagePixels: 320 * 240))
        let oneJob = JobCostModel().estimateBytes(facts: facts, spec: nil, threads: 1)
        _ = try await runner(executor) { $0.memoryBudgetBytes = oneJob * 3 / 2 }.run()
        XCTAssertEqual(executor.mostAtOnce, 1)
        XCTAssertEqual(try ledger.jobs(in: [.completed]).count, 3)
    }

    func testFailedAttemptsAreRetriedUntilOneSucceeds() async throws {
        try enqueue(["flaky", "fine"])
        let executor = ScriptedExecutor(["flaky": .init(failures: 2)])
        let summary = try await runner(executor).run()
        XCTAssertEqual(summary.retried, 2)
        let job = try XCTUnwrap(ledger.job("flaky"))
        XCTAssertEqual(job.state, .completed)
        XCTAssertEqual(job.attempts, 3)
        XCTAssertEqual(job.failures, 2)
        XCTAssertEqual(try ledger.events(jobID: "flaky").filter { $0.kind == .retryScheduled }.count, 2)
    }

    func testAPermanentFailureFailsThatJobAloneAndTheQueueGoesOn() async throws {
        try enqueue(["broken", "x", "y"])
        let executor = ScriptedExecutor(["broken": .init(failures: 9, retryable: false)])
        let summary = try await runner(executor).run()
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.completed, 2)
        XCTAssertEqual(try ledger.job("broken")?.error, "scripted failure 1")
        XCTAssertEqual(try ledger.job("broken")?.attempts, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("jobs/broken/output").path))
    }

    /// A failed job's stage is where it stopped, not the last progress the ledger was written
    /// (writes are throttled: here only the first of the attempt's two updates was written).
    func testAFailedJobShowsTheStageItStoppedIn() async throws {
        try enqueue(["broken"])
        let executor = ScriptedExecutor(["broken": .init(failures: 9, retryable: false, laterStage: "dense")])
        _ = try await runner(executor) { $0.progressWriteInterval = 3600 }.run()
        let job = try XCTUnwrap(ledger.job("broken"))
        XCTAssertEqual(job.state, .failed)
        XCTAssertEqual(job.stage, "dense")
        XCTAssertEqual(job.progress, 0.8, accuracy: 1e-9)
    }

    /// An output folder that cannot be made fails its job at once: retrying would meet the same wall.
    func testAnOutputFolderThatCannotBeMadeIsNotRetried() async throws {
        let blocker = directory.appendingPathComponent("blocker")
        try Data("a file".utf8).write(to: blocker)
        var spec = BatchFixtures.spec("blocked", input: capture)
        spec.output = blocker.appendingPathComponent("out").path
        try ledger.enqueue(.valid(spec), facts: JobFacts.scan(input: capture))
        let summary = try await runner(ScriptedExecutor([:])).run()
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(try ledger.job("blocked")?.attempts, 1)
        let error = try ledger.job("blocked")?.error ?? ""
        XCTAssertTrue(error.contains("\(blocker.path) is a file, not a folder"), error)
    }

    func testJobsCancelStopsARunningJobAndTheOthersComplete() async throws {
        try enqueue(["stuck", "x"])
        let executor = ScriptedExecutor(["stuck": .init(waitsForCancel: true)])
        let batch = runner(executor)
        let run = Task { try await batch.run() }
        try await waitUntil { try self.ledger.job("stuck")?.state == .running }
        XCTAssertEqual(try ledger.requestCancel("stuck"), .running)
        let summary = try await run.value
        XCTAssertEqual(summary.cancelled, 1)
        XCTAssertEqual(try ledger.job("stuck")?.state, .cancelled)
        XCTAssertEqual(try ledger.job("x")?.state, .completed)
    }

    func testStoppingTheRunnerPutsRunningJobsBackInTheQueue() async throws {
        try enqueue(["long"])
        let executor = ScriptedExecutor(["long": .init(waitsForCancel: true)])
        let batch = runner(executor)
        let run = Task { try await batch.run() }
        try await waitUntil { try self.ledger.job("long")?.state == .running }
        batch.stop()
        let summary = try await run.value
        XCTAssertTrue(summary.stopped)
        let job = try XCTUnwrap(ledger.job("long"))
        XCTAssertEqual(job.state, .queued)
        XCTAssertEqual(job.interruptions, 1)
        XCTAssertEqual(job.failures, 0)
    }

    func testOutputsCommittedJustBeforeARunnerDiedAreRecordedWithoutRunningAgain() async throws {
        try enqueue(["a"])
        let claimed = try XCTUnwrap(ledger.claim("a", runnerID: "a-runner-that-died"))
        let output = directory.appendingPathComponent("jobs/a/output")
        let outputs = JobOutputs(finalDirectory: output, attempt: claimed.attempts)
        try outputs.prepare()
        try Data("done".utf8).write(to: outputs.stagingDirectory.appendingPathComponent("result.txt"))
        try outputs.commit(jobID: "a", specDigest: claimed.specDigest)

        let executor = ScriptedExecutor()
        let summary = try await runner(executor).run()
        XCTAssertEqual(summary.recovered, 1)
        XCTAssertEqual(executor.attempts("a"), 0, "the whole committed outputs are recorded, not recomputed")
        let job = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(job.state, .completed)
        XCTAssertEqual(job.completions, 1)
        XCTAssertEqual(job.attempts, 2)
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued, .claimed, .requeued, .claimed, .completed])
    }

    private func waitUntil(_ condition: @escaping () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("timed out") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}
