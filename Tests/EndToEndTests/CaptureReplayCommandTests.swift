import Foundation
import XCTest

/// `photogrammetry synth-frames` and `photogrammetry capture replay` as a user runs them.
final class CaptureReplayCommandTests: XCTestCase {
    func testReplayHelpExplainsInputsOutputsAndDefaults() throws {
        let help = try CLIRunner.run(["capture", "replay", "--help"])
        XCTAssertEqual(help.status, 0)
        for text in ["frames.json", "photogrammetry-frame-stream/1", "NNNN_depth.png", "K.txt", "--json", "movingTooFast",
                     "(default: 0.15)", "(default: 24)", "(default: 640)"] {
            XCTAssertTrue(help.output.contains(text), "help lacks \(text)")
        }
    }

    func testSynthFramesThenReplayPrintsAFrameLineEachAndASummary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames").path, capture = dir.appendingPathComponent("capture").path
        let synth = try CLIRunner.run(["synth-frames", "textured-vase", "-o", frames, "--frames", "12", "--size", "160x120",
                                       "--dark", "3", "--blurred", "none", "--off-frame", "none"])
        XCTAssertEqual(synth.status, 0, synth.output)
        XCTAssertTrue(synth.output.contains("spoiled frames: dark 3; blurred none; off-frame none"), synth.output)

        let replay = try CLIRunner.run(["capture", "replay", frames, "-o", capture, "--json", "--coverage-bins", "6"])
        XCTAssertEqual(replay.status, 0, replay.output)
        let lines = replay.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 13, replay.output)
        let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.prefix(12).compactMap { $0["event"] as? String }, Array(repeating: "frame", count: 12))
        XCTAssertEqual(objects[3]["outcome"] as? String, "rejected")
        XCTAssertEqual(objects[3]["feedback"] as? [String], ["environmentTooDark"])
        let summary = objects[12]
        XCTAssertEqual(summary["event"] as? String, "summary")
        XCTAssertEqual(summary["savedShots"] as? Int, 10)
        XCTAssertEqual(summary["completedPasses"] as? [Int], [0])

        let text = try CLIRunner.run(["capture", "replay", frames, "-o", dir.appendingPathComponent("text").path, "--coverage-bins", "6", "--quiet"])
        XCTAssertTrue(text.output.contains("scan pass 0 completed"), text.output)

        let again = try CLIRunner.run(["capture", "replay", frames, "-o", capture])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.output.contains("is not empty"), again.output)
        // A box no frame sees: the session never captures, which is a failure, and no empty folder stays.
        let nowhere = dir.appendingPathComponent("nowhere")
        let failed = try CLIRunner.run(["capture", "replay", frames, "-o", nowhere.path, "--box=0,0,100,0.1,0.1,0.1", "--quiet"])
        XCTAssertEqual(failed.status, 1, failed.output)
        XCTAssertTrue(failed.output.contains("no shot was saved from \(frames): the session never left detection"), failed.output)
        XCTAssertTrue(failed.output.contains("no frame confirmed the object's box: outOfFieldOfView on 12 of 12 frames"), failed.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere.path), "no empty output folder left behind")
        XCTAssertFalse(failed.output.contains("wrote 0 shots"), "no claim of a folder that is not there: \(failed.output)")

        let missing = try CLIRunner.run(["capture", "replay", dir.path, "-o", dir.appendingPathComponent("other").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("frames.json"), missing.output)
    }

    func testAnOutOfRangeOptionIsNamedByItsFlag() throws {
        let result = try CLIRunner.run(["capture", "replay", FileManager.default.temporaryDirectory.path, "-o", "/tmp/unused-replay",
                                        "--min-luminance", "2"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--min-luminance must be in 0…1"), result.output)
        XCTAssertFalse(result.output.contains("minimumMeanLuminance"), result.output)
        let relative = try CLIRunner.run(["capture", "replay", FileManager.default.temporaryDirectory.path, "-o", "/tmp/unused-replay",
                                          "--min-relative-sharpness", "1.5"])
        XCTAssertTrue(relative.output.contains("--min-relative-sharpness must be in 0…1"), relative.output)
    }

    /// Too short a stream is named as such, not as default spoiled frames that would overlap.
    func testAStreamOfFewerThanThreeFramesIsRefusedForThat() throws {
        for frames in ["0", "1"] {
            let result = try CLIRunner.run(["synth-frames", "plain-box", "-o", "/tmp/unused-frames", "--frames", frames])
            XCTAssertEqual(result.status, 64, result.output)
            XCTAssertTrue(result.output.contains("a stream needs at least 3 frames"), result.output)
            XCTAssertFalse(result.output.contains("overlap"), result.output)
        }
    }
}
