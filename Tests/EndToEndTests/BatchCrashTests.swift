import BatchRunner
import Foundation
import ReconstructionCore
import XCTest

/// Acceptance 2: the runner killed with SIGKILL at random moments loses no job and completes
/// none twice; every output file is whole.
final class BatchCrashTests: XCTestCase {
    func testRunnerKilledAtRandomMomentsLosesNothingAndCompletesEachJobOnce() throws {
        let kills = 12
        let seed = UInt64(ProcessInfo.processInfo.environment["BATCH_KILL_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        print("batch kill test: seed \(seed) (BATCH_KILL_SEED=\(seed) repeats these delays)")
        var random = SeededGenerator(seed: seed)
        let captures = try BatchCaptures.make(4)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        let file = dir.appendingPathComponent("jobs.json")
        var round = 0
        func addRound() throws {
            round += 1
            let jobs = (0..<12).map { BatchCaptures.job("r\(round)-\($0)", capture: captures[$0 % 4]) }
            try BatchCaptures.writeJobs(jobs, to: file)
        }
        try addRound()

        var killed = 0, trials = 0
        while killed < kills {
            trials += 1
            let log = dir.appendingPathComponent("runner-\(trials).log")
            let runner = try CLIRunner.start(["batch", file.path, "-o", out.path, "--workers", "2", "--json"], log: log)
            let delay = 0.2 + random.nextUnitDouble() * 1.3
            let deadline = Date().addingTimeInterval(delay)
            while runner.isRunning && Date() < deadline { usleep(10_000) }
            if runner.isRunning {
                kill(runner.processIdentifier, SIGKILL)
                runner.waitUntilExit()
                killed += 1
            } else {
                // The queue ran dry before the kill: a new round of jobs keeps the kills landing mid-run.
                XCTAssertEqual(runner.terminationStatus, 0, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
                try addRound()
            }
            try assertConsistent(out, after: "trial \(trials) (killed after \(String(format: "%.2f", delay)) s)")
        }

        // The last runner was killed: `jobs list` shows its jobs queued again, not running.
        let listed = try CLIRunner.run(["jobs", "list", "-o", out.path, "--json"])
        XCTAssertEqual(listed.status, 0, listed.output)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.filter { $0["state"] as? String == "running" }.count, 0, listed.output)
        let open = rows.filter { $0["state"] as? String == "queued" }.count

        // Then run to completion (the runner runs every queued job of the ledger, earlier rounds' too);
        // its first line counts every open job, the recovered ones too.
        let final = try CLIRunner.run(["batch", file.path, "-o", out.path, "--workers", "2", "--json"])
        XCTAssertEqual(final.status, 0, final.output)
        let started = final.output.split(separator: "\n").first { $0.contains("\"batch_started\"") }
        let begin = try XCTUnwrap(started.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(begin["queued"] as? Int, open, final.output)

        let ledger = try JobLedger(outputFolder: out)
        let jobs = try ledger.jobs()
        let events = try ledger.events()
        XCTAssertEqual(jobs.count, 12 * round)
        for job in jobs {
            XCTAssertEqual(job.state, .completed, "\(job.id): \(job.error ?? "")")
            XCTAssertEqual(job.completions, 1, job.id)
            XCTAssertEqual(events.filter { $0.jobID == job.id && $0.kind == .completed }.count, 1, job.id)
            XCTAssertEqual(job.attempts, events.filter { $0.jobID == job.id && $0.kind == .claimed }.count, job.id)
        }
        XCTAssertEqual(jobs.flatMap(BatchCaptures.outputProblems), [])
        XCTAssertEqual(BatchCaptures.leftovers(in: out), [])
        let interruptions = jobs.map(\.interruptions).reduce(0, +)
        let restored = events.filter { $0.kind == .restoredFromCheckpoint }.count
        print("batch kill test: \(killed) kills in \(trials) trials, \(round) round(s) of 12 jobs, \(interruptions) interrupted attempts "
              + "requeued, \(restored) resumed from a checkpoint, attempts per job up to \(jobs.map(\.attempts).max() ?? 0)")
        XCTAssertEqual(interruptions, events.filter { $0.kind == .requeued }.count)
        XCTAssertGreaterThan(interruptions, 0, "the kills interrupted running jobs")
        XCTAssertGreaterThan(restored, 0, "interrupted jobs resumed from their checkpoints")
    }

    /// Between kills: nothing completed twice, every completed job's outputs whole, and every
    /// output folder that exists (committed just before a kill, perhaps) whole too.
    private func assertConsistent(_ out: URL, after trial: String) throws {
        guard FileManager.default.fileExists(atPath: out.appendingPathComponent("ledger.sqlite").path) else { return }
        let ledger = try JobLedger(outputFolder: out)
        let completedEvents = try ledger.events().filter { $0.kind == .completed }
        XCTAssertEqual(completedEvents.count, Set(completedEvents.map(\.jobID)).count, "a job completed twice, \(trial)")
        for job in try ledger.jobs() {
            XCTAssertLessThanOrEqual(job.completions, 1, "\(job.id), \(trial)")
            if job.state == .completed { XCTAssertEqual(BatchCaptures.outputProblems(job), [], trial) }
            let folder = out.appendingPathComponent("jobs/\(job.id)/output")
            if FileManager.default.fileExists(atPath: folder.path) {
                guard let manifest = OutputManifest.read(in: folder) else { XCTFail("\(job.id): no manifest, \(trial)"); continue }
                XCTAssertNil(manifest.mismatch(in: folder), "\(job.id), \(trial)")
            }
        }
    }
}
