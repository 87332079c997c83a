import BatchRunner
import Foundation
import GRDB
import XCTest

/// The ledger's transactions: idempotent enqueueing, claims, exactly-once completion, retries
/// with backoff, recovery of dead runners' jobs, and the jobs commands.
final class JobLedgerTests: XCTestCase {
    var directory: URL!
    var ledger: JobLedger!
    var capture: URL!

    override func setUpWithError() throws {
        directory = try BatchFixtures.temporaryDirectory(self)
        ledger = try JobLedger(outputFolder: directory)
        capture = try BatchFixtures.capture(in: directory, name: "cap")
    }

    func enqueue(_ id: String, priority: Int = 0, retry: RetryPolicy = RetryPolicy(maxAttempts: 3, backoffSeconds: 0)) throws {
        try ledger.enqueue(.valid(BatchFixtures.spec(id, input: capture, priority: priority, retry: retry)))
    }

    func testLedgerIsAnSQLiteFileInWALModeWithItsSchema() throws {
        XCTAssertEqual(try ledger.journalMode(), "wal")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("ledger.sqlite").path))
        let reopened = try JobLedger(outputFolder: directory) // migrations already applied: a no-op
        XCTAssertEqual(try reopened.jobs().count, 0)
    }

    func testARollbackLedgerKeepsItsJournalAndIsSharedByTwoConnections() throws {
        let folder = directory.appendingPathComponent("slurm")
        let first = try JobLedger(path: folder.appendingPathComponent("ledger.sqlite"), journalForNewLedger: .rollback)
        XCTAssertEqual(first.journal, .rollback)
        XCTAssertEqual(try first.journalMode(), "delete")
        // Reopened as a task or `jobs` command does (default journal for new files): the file's own journal wins.
        let second = try JobLedger(outputFolder: folder)
        XCTAssertEqual(second.journal, .rollback)
        XCTAssertEqual(try second.journalMode(), "delete")
        try first.enqueue(.valid(BatchFixtures.spec("a", input: capture)))
        let runner = RunnerIdentity.current.record(workers: 1, now: Date().timeIntervalSince1970)
        try second.register(runner)
        XCTAssertEqual(try second.claim("a", runnerID: runner.id)?.state, .running)
        XCTAssertEqual(try first.job("a")?.state, .running, "one connection sees the other's committed claim")
        // And a WAL ledger stays WAL when reopened with another preference.
        XCTAssertEqual(try JobLedger(outputFolder: directory).journal, .wal)
        XCTAssertEqual(try JobLedger(path: directory.appendingPathComponent("ledger.sqlite"), journalForNewLedger: .rollback).journal, .wal)
    }

    func testEnqueueingTheSameJobTwiceChangesNothing() throws {
        let spec = BatchFixtures.spec("a", input: capture)
        XCTAssertEqual(try ledger.enqueue(.valid(spec)), .queued)
        XCTAssertEqual(try ledger.enqueue(.valid(spec)), .unchanged(.queued))
        XCTAssertEqual(try ledger.jobs().count, 1)
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued])
    }

    func testAChangedSpecIsKeptOutWhileTheJobIsLiveAndReplacesAFailedOne() throws {
        try enqueue("a")
        var changed = BatchFixtures.spec("a", input: capture)
        changed.requests = [.bounds]
        XCTAssertEqual(try ledger.enqueue(.valid(changed)), .conflict(.queued))
        XCTAssertEqual(try ledger.enqueue(.invalid(id: "a", raw: "{}", problem: "job 'a': input folder /x does not exist")),
                       .invalidKept(problem: "job 'a': input folder /x does not exist", state: .queued))
        XCTAssertEqual(try ledger.job("a")?.isValid, true)
        let invalid = JobsFile.Entry.invalid(id: "b", raw: "{}", problem: "job 'b': input folder /x does not exist")
        XCTAssertEqual(try ledger.enqueue(invalid), .rejected("job 'b': input folder /x does not exist"))
        XCTAssertEqual(try ledger.job("b")?.state, .failed)
        XCTAssertEqual(try ledger.job("b")?.error, "job 'b': input folder /x does not exist")
        XCTAssertEqual(try ledger.enqueue(.valid(BatchFixtures.spec("b", input: capture))), .replaced(problem: nil))
        XCTAssertEqual(try ledger.job("b")?.state, .queued)
    }

    func testClaimTakesTheHighestPriorityThenTheOldestAndOnlyOnce() throws {
        try enqueue("low")
        try enqueue("high", priority: 5)
        try enqueue("low2")
        XCTAssertEqual(try ledger.nextQueued()?.id, "high")
        let claimed = try XCTUnwrap(ledger.claim("high", runnerID: "r1"))
        XCTAssertEqual(claimed.state, .running)
        XCTAssertEqual(claimed.attempts, 1)
        XCTAssertEqual(claimed.runnerID, "r1")
        XCTAssertNotNil(claimed.startedAt)
        XCTAssertNil(try ledger.claim("high", runnerID: "r2"), "a running job cannot be claimed again")
        XCTAssertEqual(try ledger.nextQueued()?.id, "low")
    }

    func testCompletionHappensOnceAndOnlyForTheRunnerHoldingTheJob() throws {
        try enqueue("a")
        _ = try ledger.claim("a", runnerID: "r1")
        let out = directory.appendingPathComponent("out")
        XCTAssertThrowsError(try ledger.complete("a", runnerID: "r2", outputDirectory: out, outputs: []))
        try ledger.complete("a", runnerID: "r1", outputDirectory: out, outputs: ["poses.json"])
        XCTAssertThrowsError(try ledger.complete("a", runnerID: "r1", outputDirectory: out, outputs: []))
        let job = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(job.state, .completed)
        XCTAssertEqual(job.completions, 1)
        XCTAssertEqual(job.outputFiles, ["poses.json"])
        XCTAssertEqual(try ledger.events(jobID: "a").filter { $0.kind == .completed }.count, 1)
    }

    func testFailuresRetryAfterTheBackoffThenFail() throws {
        try enqueue("a", retry: RetryPolicy(maxAttempts: 2, backoffSeconds: 100))
        _ = try ledger.claim("a", runnerID: "r1")
        XCTAssertEqual(try ledger.fail("a", runnerID: "r1", message: "boom", retryable: true), .queued)
        let waiting = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(waiting.failures, 1)
        XCTAssertEqual(waiting.notBefore ?? 0, Date().timeIntervalSince1970 + 100, accuracy: 5)
        XCTAssertNil(try ledger.nextQueued(), "the job waits for its backoff")
        XCTAssertEqual(try ledger.nextQueued(now: Date().timeIntervalSince1970 + 101)?.id, "a")
        XCTAssertEqual(try ledger.queuedWork().count, 1)
        _ = try ledger.claim("a", runnerID: "r1")
        XCTAssertEqual(try ledger.fail("a", runnerID: "r1", message: "boom again", retryable: true), .failed)
        let failed = try XCTUnwrap(ledger.job("a"))
        XCTAssertEqual(failed.attempts, 2)
        XCTAssertEqual(failed.error, "boom again")
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued, .claimed, .retryScheduled, .claimed, .failed])
    }

    func testPermanentFailuresAreNotRetried() throws {
        try enqueue("a")
        _ = try ledger.claim("a", runnerID: "r1")
        XCTAssertEqual(try ledger.fail("a", runnerID: "r1", message: "input folder gone", retryable: false), .failed)
    }

    func testRecoveryRequeuesOnlyTheJobsOfDeadRunners() throws {
        let me = RunnerIdentity.current
        let live = me.record(workers: 1, now: Date().timeIntervalSince1970)
        var dead = me.record(workers: 1, now: Date().timeIntervalSince1970)
        dead.pid = try exitedProcessID()
        try ledger.register(live)
        try ledger.register(dead)
        try enqueue("mine")
        try enqueue("orphan")
        try enqueue("cancelMe")
        _ = try ledger.claim("mine", runnerID: live.id)
        _ = try ledger.claim("orphan", runnerID: dead.id)
        _ = try ledger.claim("cancelMe", runnerID: dead.id)
        try ledger.requestCancel("cancelMe")

        let recovered = try ledger.recoverAbandonedJobs(observer: me)
        XCTAssertEqual(Set(recovered.map(\.jobID)), ["orphan", "cancelMe"])
        XCTAssertEqual(try ledger.job("mine")?.state, .running)
        let orphan = try XCTUnwrap(ledger.job("orphan"))
        XCTAssertEqual(orphan.state, .queued)
        XCTAssertEqual(orphan.interruptions, 1)
        XCTAssertNil(orphan.runnerID)
        XCTAssertEqual(try ledger.job("cancelMe")?.state, .cancelled)
        XCTAssertEqual(try ledger.runners().map(\.id), [live.id], "the dead runner's record is removed")
        XCTAssertTrue(try ledger.events(jobID: "orphan").last?.detail?.contains("no longer alive") == true)
    }

    func testAReusedPidWithAnotherStartTimeIsADeadRunner() throws {
        let me = RunnerIdentity.current
        var impostor = me.record(workers: 1, now: 0)
        impostor.processStart = me.processStart + 1 // same pid as this live process, another start
        XCTAssertFalse(me.isAlive(impostor, now: 0, leaseTimeout: 60))
        XCTAssertTrue(me.isAlive(me.record(workers: 1, now: 0), now: 0, leaseTimeout: 60))
        var remote = me.record(workers: 1, now: 100)
        remote.host = "elsewhere"
        XCTAssertTrue(me.isAlive(remote, now: 130, leaseTimeout: 60), "other hosts: a recent heartbeat")
        XCTAssertFalse(me.isAlive(remote, now: 161, leaseTimeout: 60), "other hosts: no heartbeat for the timeout")
    }

    func testCancelAndRetryFollowTheStateRules() throws {
        try enqueue("a")
        XCTAssertEqual(try ledger.requestCancel("a"), .cancelled)
        try ledger.retry("a")
        XCTAssertEqual(try ledger.job("a")?.state, .queued)
        _ = try ledger.claim("a", runnerID: "r1")
        XCTAssertThrowsError(try ledger.retry("a")) { XCTAssertTrue("\($0)".contains("it is running"), "\($0)") }
        XCTAssertEqual(try ledger.requestCancel("a"), .running)
        XCTAssertEqual(try ledger.cancelRequests(runnerID: "r1"), ["a"])
        try ledger.markCancelled("a", runnerID: "r1")
        XCTAssertEqual(try ledger.job("a")?.state, .cancelled)
        XCTAssertThrowsError(try ledger.retry("nope")) { XCTAssertEqual($0 as? BatchError, .unknownJob("nope")) }
        try ledger.enqueue(.invalid(id: "bad", raw: "{}", problem: "job 'bad': missing 'input'"))
        XCTAssertThrowsError(try ledger.retry("bad")) { XCTAssertTrue("\($0)".contains("its spec is invalid"), "\($0)") }
    }

    /// A failed job stays until it is retried or removed; removing keeps its history.
    func testOnlyFinishedJobsAreRemovedAndTheirHistoryStays() throws {
        try enqueue("a")
        XCTAssertThrowsError(try ledger.remove("a")) { XCTAssertTrue("\($0)".contains("cannot remove job 'a': it is queued"), "\($0)") }
        XCTAssertEqual(try ledger.requestCancel("a"), .cancelled)
        try ledger.remove("a")
        XCTAssertNil(try ledger.job("a"))
        XCTAssertEqual(try ledger.events(jobID: "a").map(\.kind), [.enqueued, .cancelled, .removed])
        XCTAssertThrowsError(try ledger.remove("a")) { XCTAssertEqual($0 as? BatchError, .unknownJob("a")) }
        try enqueue("a")
        XCTAssertEqual(try ledger.job("a")?.state, .queued, "the id can be used again")
    }

    /// Invalid jobs without a usable id are recorded as FILE#N; once the file no longer has them
    /// (it was fixed), they are removed instead of staying failed for good.
    func testPlaceholdersTheJobsFileNoLongerHasAreRetired() throws {
        try ledger.enqueue(.invalid(id: "jobs.json#2", raw: "{}", problem: "job #2: missing 'input'"))
        try ledger.enqueue(.invalid(id: "jobs.json#3", raw: "{}", problem: "job #3: missing 'input'"))
        try ledger.enqueue(.invalid(id: "other.json#2", raw: "{}", problem: "job #2: missing 'input'"))
        try ledger.enqueue(.invalid(id: "named", raw: "{}", problem: "job 'named': missing 'input'"))
        try enqueue("jobs.json")
        XCTAssertEqual(try ledger.retirePlaceholders(ofFile: "jobs.json", keeping: ["jobs.json#3", "a"]), ["jobs.json#2"])
        XCTAssertEqual(Set(try ledger.jobs(in: [.failed]).map(\.id)), ["jobs.json#3", "other.json#2", "named"])
        XCTAssertEqual(try ledger.events(jobID: "jobs.json#2").last?.kind, .removed)
        XCTAssertEqual(try ledger.job("jobs.json")?.state, .queued, "a valid job is never a place-holder")
    }

    func testTheHistoryIsAppendOnly() throws {
        try enqueue("a")
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("ledger.sqlite").path)
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "DELETE FROM jobEvent") })
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "UPDATE jobEvent SET kind = 'completed'") })
        XCTAssertThrowsError(try queue.write { try $0.execute(sql: "UPDATE job SET completions = 2") }, "a job completes at most once")
    }

    /// The pid of a process that has exited and been reaped.
    private func exitedProcessID() throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return Int(process.processIdentifier)
    }
}
