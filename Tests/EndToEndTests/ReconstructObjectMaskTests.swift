import Foundation
import XCTest

/// `reconstruct` estimates poses as `poses` does: through the session, with the object masks
/// restricting the features, and with the pose stages checkpointed.
final class ReconstructObjectMaskTests: XCTestCase {
    /// An object turned over between two passes, in a textured room: the room stays still while
    /// the object moves, so only the object's own features give its poses (without the masks
    /// the median position error is about 400 mm).
    func flipCapture() throws -> URL {
        let folder = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("flip")
        let synth = try CLIRunner.run(["synth", "flip-object", "-o", folder.path, "--surroundings", "room", "--views", "40", "--size", "640x480"])
        guard synth.status == 0 else { throw XCTSkip("synth failed: \(synth.output)") }
        return folder
    }

    func testTheMasksGiveTheObjectsPosesAndTheCheckpointIsSharedWithPoses() throws {
        let capture = try flipCapture()
        let out = capture.deletingLastPathComponent()
        let checkpoint = out.appendingPathComponent("checkpoint").path
        let k = capture.appendingPathComponent("images/K.txt").path
        let posesOutput = out.appendingPathComponent("model-poses").path
        let run = try CLIRunner.run(["reconstruct", capture.path, "-o", out.appendingPathComponent("mesh.ply").path, "--intrinsics-file", k,
                                     "--checkpoint", checkpoint, "--poses-output", posesOutput, "--stereo-image-size", "256", "--json"])
        XCTAssertEqual(run.status, 0, run.output)
        let events = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.last?["event"] as? String, "complete", run.output)

        let score = try CLIRunner.run(["evaluate-poses", "--ground-truth", capture.path, posesOutput, "--json"])
        XCTAssertEqual(score.status, 0, score.output)
        let scores = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(score.output.utf8)) as? [String: Any], score.output)
        XCTAssertEqual(scores["registeredCount"] as? Int, 40, score.output)
        XCTAssertLessThan(try XCTUnwrap(scores["medianPositionError"] as? Double), 0.003, "metres")

        // `poses` with the same options loads every stage `reconstruct` kept.
        let poses = try CLIRunner.run(["poses", capture.path, "-o", out.appendingPathComponent("poses").path,
                                       "--intrinsics-file", k, "--checkpoint", checkpoint, "--json"])
        XCTAssertEqual(poses.status, 0, poses.output)
        let notes = poses.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "note" }.compactMap { $0["message"] as? String }
        for stage in ["features: 40/40", "matching:", "mapping:"] {
            XCTAssertTrue(notes.contains { $0.hasPrefix("\(stage) loaded from the checkpoint") }, "\(stage): \(notes)")
        }
    }

    func testACheckpointWithPointCloudsIsRefused() throws {
        let run = try CLIRunner.run(["reconstruct", "photos", "-o", "mesh.ply", "--poses", "poses.json", "--intrinsics", "500,500,320,240",
                                     "--lidar-points", "scan.ply", "--checkpoint", "ck"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.output.contains("--checkpoint keeps the pose stages and the dense surface, not yet the depth of --lidar-points clouds"),
                      run.output)
    }
}
