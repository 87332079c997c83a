import BatchRunner
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// `photogrammetry batch` and `photogrammetry jobs` as a user runs them.
final class BatchCommandTests: XCTestCase {
    /// Jobs without a usable id are recorded under their file's path and place: two jobs files
    /// of one name in different folders share a ledger without taking each other's, and fixing
    /// one removes only its own.
    func testInvalidJobsOfSameNamedFilesInTwoFoldersStayApart() throws {
        let dir = try BatchCaptures.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        var files: [URL] = []
        for folder in ["dA", "dB"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            let file = dir.appendingPathComponent("\(folder)/jobs.json")
            try Data(#"[{"requests": ["poses"]}]"#.utf8).write(to: file)
            files.append(file)
            XCTAssertEqual(try CLIRunner.run(["batch", file.path, "-o", out.path, "--enqueue-only"]).status, 1)
        }
        let placeholders = files.map { "\($0.standardizedFileURL.path)#1" }
        XCTAssertEqual(Set(try JobLedger(outputFolder: out).jobs(in: [.failed]).map(\.id)), Set(placeholders))
        // dA's file fixed (its job now has an id, still without an input): only dA's place-holder goes.
        try Data(#"[{"id": "named", "requests": ["poses"]}]"#.utf8).write(to: files[0])
        let fixed = try CLIRunner.run(["batch", files[0].path, "-o", out.path, "--enqueue-only"])
        XCTAssertTrue(fixed.output.contains("removed '\(placeholders[0])' from the ledger"), fixed.output)
        XCTAssertEqual(Set(try JobLedger(outputFolder: out).jobs(in: [.failed]).map(\.id)), ["named", placeholders[1]])
    }

    /// Acceptance 1: 20 small jobs (one with a preview model) with two workers all complete, once each.
    func testTwentyJobsWithTwoWorkersAllCompleteOnce() throws {
        let captures = try BatchCaptures.make(4)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let jobs = (0..<20).map { BatchCaptures.job(String(format: "job%02d", $0), capture: captures[$0 % 4], model: $0 == 0) }
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs(jobs, to: file)
        let out = dir.appendingPathComponent("out")
        let started = Date()
        let result = try CLIRunner.run(["batch", file.path, "-o", out.path, "--workers", "2", "--json"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 0, result.output)
        print(String(format: "batch: 20 jobs with --workers 2 in %.1f s (%.1f jobs/min)", seconds, 20 / seconds * 60))

        let ledger = try JobLedger(outputFolder: out)
        let records = try ledger.jobs()
        XCTAssertEqual(records.count, 20)
        XCTAssertEqual(records.filter { $0.state == .completed && $0.completions == 1 }.count, 20, "\(records.map { ($0.id, $0.state, $0.error) })")
        XCTAssertEqual(try ledger.events().filter { $0.kind == .completed }.count, 20)
        XCTAssertEqual(records.flatMap(BatchCaptures.outputProblems), [])
        let model = out.appendingPathComponent("jobs/job00/output/model-preview.glb")
        let glb = try Data(contentsOf: model)
        XCTAssertEqual(glb.prefix(4), Data("glTF".utf8))
        XCTAssertEqual(Int(glb[8]) | Int(glb[9]) << 8 | Int(glb[10]) << 16 | Int(glb[11]) << 24, glb.count, "the GLB's header length is the file's")
        XCTAssertEqual(BatchCaptures.leftovers(in: out), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("jobs/job05/checkpoint").path))
        let lines = result.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.filter { $0["event"] as? String == "job_completed" }.count, 20)
        XCTAssertTrue(lines.contains { $0["event"] as? String == "progress" && $0["eta_seconds"] != nil }, "progress lines carry the session's ETA")

        // Running the same command again enqueues nothing and runs nothing.
        let again = try CLIRunner.run(["batch", file.path, "-o", out.path, "--workers", "2"])
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("jobs: 20 already in the ledger"), again.output)
        XCTAssertEqual(try ledger.jobs().count, 20)
        XCTAssertEqual(try ledger.events().filter { $0.kind == .completed }.count, 20)

        // A changed spec under a completed job's id is kept out, with advice that works for it.
        var changed = jobs
        changed[1]["priority"] = 5
        try BatchCaptures.writeJobs(changed, to: file)
        let edited = try CLIRunner.run(["batch", file.path, "-o", out.path, "--enqueue-only"])
        XCTAssertTrue(edited.output.contains("with another spec; kept the ledger's (give the new job another id; a completed job keeps its spec and outputs)"),
                      edited.output)
    }

    /// Acceptance 5: malformed specs and missing inputs fail those jobs alone, with messages; the others complete.
    func testABrokenJobsFileOrAnUnusableOutputFolderLeavesNothingBehind() throws {
        let dir = try BatchCaptures.temporaryDirectory(self)
        let broken = dir.appendingPathComponent("jobs.json")
        try Data("not json".utf8).write(to: broken)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["batch", broken.path, "-o", out.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("is not valid JSON"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no ledger for a jobs file that does not load")

        try BatchCaptures.writeJobs([], to: broken)
        let blocker = dir.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let blocked = try CLIRunner.run(["batch", broken.path, "-o", blocker.appendingPathComponent("out").path])
        XCTAssertEqual(blocked.status, 1)
        XCTAssertTrue(blocked.output.contains("\(blocker.path) is a file, not a folder"), blocked.output)

        // With --json the error is an event on standard output too.
        try Data("not json".utf8).write(to: broken)
        let json = try CLIRunner.run(["batch", broken.path, "-o", out.path, "--json"])
        XCTAssertEqual(json.status, 1)
        XCTAssertTrue(json.output.contains(#"{"event":"error","message":"#), json.output)
        // Without a jobs file, a folder that holds no ledger is a mistake (a mistyped folder), not
        // an empty batch that completes.
        let typo = try CLIRunner.run(["batch", "-o", dir.appendingPathComponent("outt").path])
        XCTAssertEqual(typo.status, 1, typo.output)
        XCTAssertTrue(typo.output.contains("holds no batch ledger"), typo.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("outt").path))
    }

    func testMalformedJobsAndMissingInputsFailAloneAndTheOthersComplete() throws {
        let captures = try BatchCaptures.make(2)
        let dir = try BatchCaptures.temporaryDirectory(self)
        // Photos that do not decode: the poses request fails the same way on every attempt.
        let corrupt = dir.appendingPathComponent("corrupt")
        try FileManager.default.createDirectory(at: corrupt, withIntermediateDirectories: true)
        for name in ["a.jpg", "b.jpg"] { try Data("not a JPEG".utf8).write(to: corrupt.appendingPathComponent(name)) }
        let jobs: [Any] = [
            BatchCaptures.job("good1", capture: captures[0]),
            ["id": "nofolder", "input": dir.appendingPathComponent("gone").path, "requests": ["poses"]],
            ["id": "typed", "input": captures[0].path, "requests": ["poses"], "priority": "urgent"],
            ["id": "level", "input": captures[0].path, "requests": [["type": "model", "detail": "ultra"]]],
            ["input": captures[1].path, "requests": ["poses"]],
            ["id": "badk", "input": captures[1].path, "requests": ["poses"], "intrinsicsFile": "nope/K.txt"],
            BatchCaptures.job("good2", capture: captures[1]),
            ["id": "corrupt", "input": corrupt.path, "requests": ["poses"]],
        ]
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs(jobs, to: file)
        // Only enqueueing: the invalid jobs make it fail too, as a full run does.
        let enqueued = try CLIRunner.run(["batch", file.path, "-o", dir.appendingPathComponent("enqueued").path, "--enqueue-only"])
        XCTAssertEqual(enqueued.status, 1, enqueued.output)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["batch", file.path, "-o", out.path, "--workers", "2"])
        XCTAssertEqual(result.status, 1, "some jobs failed: \(result.output)")
        for text in ["job 'nofolder': input folder \(dir.appendingPathComponent("gone").path) does not exist",
                     "job 'typed': 'priority' must be an integer",
                     "job 'level': 'requests[0].detail': unknown detail level 'ultra'",
                     "job #5 (no usable id): missing 'id'",
                     "job 'badk': intrinsicsFile:",
                     // The invalid jobs count as failed (the summary said 1 failed, then listed 6).
                     "2 completed, 6 failed (5 invalid when added)"] {
            XCTAssertTrue(result.output.contains(text), "missing \"\(text)\" in:\n\(result.output)")
        }
        let ledger = try JobLedger(outputFolder: out)
        XCTAssertEqual(try ledger.job("good1")?.state, .completed)
        XCTAssertEqual(try ledger.job("good2")?.state, .completed)
        XCTAssertEqual(Set(try ledger.jobs(in: [.failed]).map(\.id)), ["nofolder", "typed", "level", "\(file.standardizedFileURL.path)#5", "badk", "corrupt"])
        XCTAssertEqual(try ledger.job("corrupt")?.attempts, 1, "a failure the same photos repeat is not retried")
        XCTAssertFalse(result.output.contains("'corrupt' failed, retrying"), result.output)

        let list = try CLIRunner.run(["jobs", "list", "--ledger", out.path, "--state", "failed"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.output.contains("nofolder") && list.output.contains("does not exist"), list.output)
        // The corrupt job's error lists its photos on lines of their own; the table keeps one row per job.
        XCTAssertTrue(try XCTUnwrap(try ledger.job("corrupt")?.error).contains("\n"))
        let rows = list.output.split(separator: "\n")
        XCTAssertEqual(rows.filter { $0.hasPrefix("corrupt") }.count, 1, list.output)
        XCTAssertEqual(rows.filter { $0.contains("a.jpg") }.count, 1, "no continuation lines: \(list.output)")
        let show = try CLIRunner.run(["jobs", "show", "good1", "-o", out.path])
        XCTAssertTrue(show.output.contains("job good1: completed") && show.output.contains("poses.json"), show.output)
        let retry = try CLIRunner.run(["jobs", "retry", "typed", "-o", out.path])
        XCTAssertEqual(retry.status, 1)
        XCTAssertTrue(retry.output.contains("its spec is invalid"), retry.output)
    }

    /// A job completes with the photos that registered, and says which did not.
    func testACompletedJobNamesThePhotosThatDidNotRegister() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let copy = dir.appendingPathComponent("capture")
        try FileManager.default.copyItem(at: capture, to: copy)
        // A photo of nothing in the capture: it decodes but matches no other photo.
        var generator = SystemRandomNumberGenerator()
        let noise = RGBImage(width: 320, height: 240, pixels: (0..<(320 * 240 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try ImageCodec.encode(noise, as: .png).write(to: copy.appendingPathComponent("images/zz-unrelated.png"))
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([BatchCaptures.job("partial", capture: copy)], to: file)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["batch", file.path, "-o", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("not registered: zz-unrelated.png"), result.output)
        XCTAssertTrue(result.output.contains("not registered: zz-unrelated.png (1 of "), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "not registered:").count, 2, "one note: \(result.output)")
        let show = try CLIRunner.run(["jobs", "show", "partial", "-o", out.path])
        XCTAssertTrue(show.output.contains("not registered: zz-unrelated.png"), show.output)
    }

    /// A job's poses.json keeps the session's warnings as `poses` writes them: two photos
    /// without intrinsics self-calibrate a doubtful focal length, and the job says so.
    func testAJobOfTwoUncalibratedPhotosWarnsAboutTheFocalLength() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let pair = dir.appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        for name in ["0001.jpg", "0002.jpg"] {
            try FileManager.default.copyItem(at: capture.appendingPathComponent("images/\(name)"), to: pair.appendingPathComponent(name))
        }
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([["id": "pair", "input": pair.path, "requests": ["poses"]]], to: file)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["batch", file.path, "-o", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        let poses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("jobs/pair/output/poses.json")))
            as? [String: Any])
        let warnings = try XCTUnwrap(poses["warnings"] as? [String], "\(poses.keys.sorted())")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("the focal length was self-calibrated from only 2 photos") }, "\(warnings)")
    }

    /// A job left running by a runner that was killed is cancelled at once by `jobs cancel`
    /// (recovered first, as `batch` recovers it), not left running with a stop request no one reads.
    func testCancellingTheJobOfADeadRunnerCancelsIt() throws {
        let captures = try BatchCaptures.make(1)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([BatchCaptures.job("orphan", capture: captures[0])], to: file)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try CLIRunner.run(["batch", file.path, "-o", out.path, "--enqueue-only"]).status, 0)
        let ledger = try JobLedger(outputFolder: out)
        var dead = RunnerIdentity.current.record(workers: 1, now: Date().timeIntervalSince1970)
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        dead.pid = Int(exited.processIdentifier)
        try ledger.register(dead)
        XCTAssertEqual(try ledger.claim("orphan", runnerID: dead.id)?.state, .running)

        let cancel = try CLIRunner.run(["jobs", "cancel", "orphan", "-o", out.path])
        XCTAssertEqual(cancel.status, 0, cancel.output)
        XCTAssertTrue(cancel.output.contains("cancelled job 'orphan'"), cancel.output)
        XCTAssertEqual(try ledger.job("orphan")?.state, .cancelled)
    }

    /// `jobs cancel` and `jobs retry` on queued jobs, then a batch run of what is queued.
    func testCancelAndRetryFromTheCommandLine() throws {
        let captures = try BatchCaptures.make(1)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([BatchCaptures.job("a", capture: captures[0]), BatchCaptures.job("b", capture: captures[0])], to: file)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try CLIRunner.run(["batch", file.path, "-o", out.path, "--enqueue-only"]).status, 0)
        let cancel = try CLIRunner.run(["jobs", "cancel", "b", "-o", out.path])
        XCTAssertTrue(cancel.output.contains("cancelled job 'b'"), cancel.output)
        let run = try CLIRunner.run(["batch", "-o", out.path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("batch: 1 completed, 0 failed, 1 cancelled of the ledger's 2 jobs (1 completed in this run"), run.output)
        let ledger = try JobLedger(outputFolder: out)
        XCTAssertEqual(try ledger.job("a")?.state, .completed)
        XCTAssertEqual(try ledger.job("b")?.state, .cancelled)
        let retry = try CLIRunner.run(["jobs", "retry", "b", "-o", out.path])
        XCTAssertEqual(retry.status, 0, retry.output)
        XCTAssertTrue(retry.output.contains("queued job 'b' again; it runs from the start"), "b never ran: \(retry.output)")
        let again = try CLIRunner.run(["batch", "-o", out.path, "--json"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(try ledger.job("b")?.state, .completed)
        // The counts are the ledger's, whichever run finished the job: a's earlier completion counts, and b is no longer cancelled.
        let summary = try XCTUnwrap(again.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .last { $0["event"] as? String == "summary" })
        XCTAssertEqual(summary["completed"] as? Int, 2, "\(summary)")
        XCTAssertEqual(summary["completed_this_run"] as? Int, 1, "\(summary)")
        XCTAssertEqual(summary["cancelled"] as? Int, 0, "\(summary)")
        let json = try CLIRunner.run(["jobs", "list", "-o", out.path, "--json"])
        let listed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        XCTAssertEqual(listed?.compactMap { $0["state"] as? String }, ["completed", "completed"])
        XCTAssertTrue(listed?.allSatisfy { $0["error"] is NSNull && $0["slurm_job_id"] is NSNull } == true, "one shape in every state: \(json.output)")
    }

    /// `jobs run` stopped by Ctrl-C puts the job back in the queue and exits 130, as `batch` does.
    func testJobsRunStoppedByCtrlCExits130WithTheJobQueued() throws {
        let captures = try BatchCaptures.make(1)
        let dir = try BatchCaptures.temporaryDirectory(self)
        let file = dir.appendingPathComponent("jobs.json")
        try BatchCaptures.writeJobs([BatchCaptures.job("long", capture: captures[0], model: true)], to: file)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try CLIRunner.run(["batch", file.path, "-o", out.path, "--enqueue-only"]).status, 0)
        let ledger = try JobLedger(outputFolder: out)
        let log = dir.appendingPathComponent("run.log")
        let process = try CLIRunner.start(["jobs", "run", "long", "-o", out.path], log: log)
        let deadline = Date().addingTimeInterval(60)
        while try ledger.job("long")?.state != .running && process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(try ledger.job("long")?.state, .running, "the job started")
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        XCTAssertEqual(try ledger.job("long")?.state, .queued)
    }
}
