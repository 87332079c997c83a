import Foundation
import XCTest

/// A folder of photos as a phone gives it (no masks, depth, gravity or K) of an object standing on
/// a rug in a room with posters: `reconstruct` gives the object, closed on the floor, not the room;
/// `--no-object-masking` keeps the room.
final class PhotosOnlyObjectCaptureTests: XCTestCase {
    func testReconstructKeepsToTheObjectAndNoObjectMaskingKeepsTheRoom() throws {
        let folder = try BatchCaptures.temporaryDirectory(self)
        let capture = folder.appendingPathComponent("capture")
        let synth = try CLIRunner.run(["synth", "textured-vase", "-o", capture.path, "--views", "32", "--size", "640x480",
                                       "--surroundings", "room", "--photos-only"])
        XCTAssertEqual(synth.status, 0, synth.output)
        let names = try FileManager.default.contentsOfDirectory(atPath: capture.appendingPathComponent("images").path)
        XCTAssertEqual(names.filter { $0.hasSuffix(".jpg") }.count, 32)
        XCTAssertFalse(names.contains { $0.contains("_mask") || $0.contains("_depth") || $0.contains("_gravity") }, "\(names)")

        func reconstruct(_ name: String, _ extra: [String]) throws -> (output: String, surface: [String: Any]) {
            let mesh = folder.appendingPathComponent("\(name).ply"), poses = folder.appendingPathComponent("\(name)-poses")
            let run = try CLIRunner.run(["reconstruct", capture.path, "-o", mesh.path, "--poses-output", poses.path] + extra)
            XCTAssertEqual(run.status, 0, run.output)
            let evaluation = try CLIRunner.run(["evaluate", "--ground-truth", capture.path, "--poses", poses.path,
                                                "--surface", mesh.path, "--json"])
            XCTAssertEqual(evaluation.status, 0, evaluation.output)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(evaluation.output.utf8)) as? [String: Any])
            return (run.output, try XCTUnwrap(report["surface"] as? [String: Any], evaluation.output))
        }
        func outsideFraction(_ surface: [String: Any]) throws -> Double {
            try XCTUnwrap(surface["outsideCropFraction"] as? Double, "\(surface)")
        }

        let object = try reconstruct("object", ["--stereo-image-size", "480"])
        XCTAssertTrue(object.output.contains("object capture without masks: 32 of 32 photos look at one place"), object.output)
        XCTAssertTrue(object.output.contains("unseen opening(s) on the support plane"), object.output)
        XCTAssertLessThan(try outsideFraction(object.surface), 0.02, "the vase alone: \(object.surface)")
        // Measured 0.935 / 0.990 (F 0.962).
        XCTAssertGreaterThan(object.surface["precision"] as? Double ?? 0, 0.85, "\(object.surface)")
        XCTAssertGreaterThan(object.surface["recall"] as? Double ?? 0, 0.9, "\(object.surface)")

        let room = try reconstruct("room", ["--stereo-image-size", "240", "--no-object-masking"])
        XCTAssertFalse(room.output.contains("object capture without masks"), room.output)
        XCTAssertGreaterThan(try outsideFraction(room.surface), 0.5, "the rug and the walls: \(room.surface)")
    }
}
