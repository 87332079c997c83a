import Foundation
import XCTest

/// `reconstruct --json`: standard output is JSON lines only, progress goes through every stage in
/// order with a time estimate, and the run ends with a `complete` event describing what was written,
/// or an `error` event.
final class ReconstructJSONTests: XCTestCase {
    func events(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try XCTUnwrap(object, "not a JSON object: \(line)")
        }
    }

    func testAModelRunReportsEveryStageAndEndsWithWhatItWrote() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let model = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("vase.glb")
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", model.path, "--detail", "preview",
                                        "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path, "--json"])
        XCTAssertEqual(result.status, 0, result.output)
        let events = try events(result.output)
        let progress = events.filter { $0["event"] as? String == "progress" }
        var stages: [String] = []
        var last: [String: Double] = [:]
        for event in progress {
            let stage = try XCTUnwrap(event["stage"] as? String), fraction = try XCTUnwrap(event["fraction"] as? Double)
            if stages.last != stage { stages.append(stage) }
            XCTAssertGreaterThanOrEqual(fraction, last[stage] ?? 0, "\(stage) went back")
            last[stage] = fraction
        }
        XCTAssertEqual(stages, ["features", "matching", "mapping", "dense", "surface", "model", "export"])
        for stage in stages { XCTAssertEqual(last[stage], 1, "\(stage) did not reach 1") }
        let steps = progress.map { "\($0["stage"] ?? "") \($0["fraction"] ?? "")" }
        XCTAssertFalse(zip(steps, steps.dropFirst()).contains { $0 == $1 }, "a progress event repeated itself")
        // Dense stereo and the model stage report as they go, not only at their start and end
        // (the model stage of a full level was silent for three minutes). Events within a stage
        // are at most 20 a second, so a preview's model stage of half a second has about nine.
        XCTAssertGreaterThan(progress.filter { $0["stage"] as? String == "dense" }.count, 10)
        let modelSteps = progress.filter { $0["stage"] as? String == "model" }.compactMap { $0["fraction"] as? Double }
        XCTAssertGreaterThanOrEqual(modelSteps.filter { $0 > 0 && $0 < 1 }.count, 3, "\(modelSteps)")
        let estimates = progress.compactMap { $0["eta_seconds"] as? Double }
        XCTAssertGreaterThan(estimates.count, progress.count / 2, "most reports carry the time left")
        XCTAssertTrue(estimates.allSatisfy { $0 >= 0 })

        let complete = try XCTUnwrap(events.last)
        XCTAssertEqual(complete["event"] as? String, "complete")
        XCTAssertEqual(complete["output"] as? String, model.path)
        XCTAssertEqual(complete["registered"] as? Int, BatchCaptures.views)
        let built = try XCTUnwrap(complete["model"] as? [String: Any])
        XCTAssertEqual(built["detail"] as? String, "preview")
        XCTAssertGreaterThan(built["triangles"] as? Int ?? 0, 1000)
        XCTAssertLessThanOrEqual(built["triangles"] as? Int ?? .max, 25_000)
        XCTAssertEqual(built["files"] as? [String], [model.path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: model.path))
        XCTAssertNotNil((complete["dense_mesh"] as? [String: Any])?["triangles"] as? Int)
        XCTAssertEqual(complete["metric"] as? Bool, true, "the capture's depth sidecars fix the scale")
        XCTAssertEqual(complete["depth_sidecars"] as? Int, BatchCaptures.views)
        XCTAssertEqual(complete["also_written"] as? [String], [])
    }

    func testAFailureIsAnErrorEvent() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let pair = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        for name in ["0001.jpg", "0002.jpg", "K.txt"] {
            try FileManager.default.copyItem(at: capture.appendingPathComponent("images/\(name)"), to: pair.appendingPathComponent(name))
        }
        let result = try CLIRunner.run(["reconstruct", pair.path, "-o", pair.appendingPathComponent("mesh.ply").path,
                                        "--intrinsics-file", pair.appendingPathComponent("K.txt").path, "--json"])
        XCTAssertEqual(result.status, 1, result.output)
        // ArgumentParser also prints the error on standard error, after the JSON lines.
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n")
        let error = try XCTUnwrap(try events(lines).last)
        XCTAssertEqual(error["event"] as? String, "error")
        XCTAssertTrue((error["message"] as? String ?? "").contains("needs at least 3 registered photos"), "\(error)")
    }

    /// Requests refused before any work (by ArgumentParser or the command's own checks) end with
    /// an error event on standard output too.
    func testARequestRefusedBeforeAnyWorkIsAnErrorEvent() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        for (arguments, expected) in [(["-o", out.appendingPathComponent("m.glb").path, "--detail", "ultra"], "unknown detail level 'ultra'"),
                                      (["-o", out.appendingPathComponent("m.ply").path, "--point-cloud", out.appendingPathComponent("m.ply").path],
                                       "-o and --point-cloud are both")] {
            let result = try CLIRunner.run(["reconstruct", capture.path] + arguments + ["--json"])
            XCTAssertNotEqual(result.status, 0, result.output)
            let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n")
            let error = try XCTUnwrap(try events(lines).last, result.output)
            XCTAssertEqual(error["event"] as? String, "error")
            XCTAssertTrue((error["message"] as? String ?? "").contains(expected), "\(error)")
        }
    }

    /// Ctrl-C (SIGTERM alike: `PosesInterruptTests`) ends the run at once with exit code 130 and,
    /// with --json, a last event saying so.
    func testAnInterruptEndsTheRunWithACancelledEvent() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        guard FileManager.default.isExecutableFile(atPath: CLIRunner.binary.path) else { throw XCTSkip("photogrammetry binary not built") }
        let model = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("vase.glb")
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["reconstruct", capture.path, "-o", model.path, "--detail", "preview", "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var output = Data()
        // Interrupt once dense stereo is under way.
        while !String(decoding: output, as: UTF8.self).contains(#""stage":"dense""#) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output += chunk
        }
        process.interrupt()
        output += pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 130, text)
        let last = try XCTUnwrap(try events(text).last)
        XCTAssertEqual(last["event"] as? String, "cancelled", "a reader's last event is complete, error or cancelled")
        XCTAssertTrue((last["message"] as? String ?? "").hasPrefix("cancelled"), "\(last)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: model.path), "no model written")
    }
}
