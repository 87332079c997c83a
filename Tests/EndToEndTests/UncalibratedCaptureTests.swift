import Foundation
import XCTest

/// Photos with no K file and no EXIF: the intrinsics start from a guess, pairs are verified with
/// fundamental matrices, and the initial pair's relative pose comes from an essential matrix at
/// a loose threshold that every match meets. That pose must still be the best-fitting one (the
/// RANSAC breaks ties in inlier count by residual): when the first all-inlier sample was kept,
/// 2 of 30 photos registered on the first capture.
final class UncalibratedCaptureTests: XCTestCase {
    func testSmallCapturesWithoutIntrinsicsRegisterEveryPhoto() throws {
        for capture in try BatchCaptures.make(3) {
            let out = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("poses")
            let poses = try CLIRunner.run(["poses", capture.appendingPathComponent("images").path, "-o", out.path])
            XCTAssertEqual(poses.status, 0, poses.output)
            let views = BatchCaptures.views
            XCTAssertTrue(poses.output.contains("registered \(views)/\(views) images"), "\(capture.lastPathComponent): \(poses.output)")
            XCTAssertFalse(poses.output.contains("self-calibrated from only 2 photos"), poses.output)

            let evaluation = try CLIRunner.run(["evaluate-poses", "--ground-truth", capture.path, out.path, "--json"])
            XCTAssertEqual(evaluation.status, 0, evaluation.output)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(evaluation.output.utf8)) as? [String: Any])
            // Self-calibrated from 320 × 240 photos with the principal point at the centre: measured 0.45–0.57°.
            let rotation = try XCTUnwrap(report["medianRotationErrorDegrees"] as? Double, evaluation.output)
            XCTAssertLessThan(rotation, 1.0, "\(capture.lastPathComponent): \(evaluation.output)")
        }
    }

    /// Two views determine the focal length poorly; the command says so instead of writing a
    /// doubtful focal length without comment.
    func testTwoPhotosWithoutIntrinsicsGiveAWarningAboutTheFocalLength() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let pair = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        for name in ["0001.jpg", "0002.jpg"] {
            try FileManager.default.copyItem(at: capture.appendingPathComponent("images/\(name)"), to: pair.appendingPathComponent(name))
        }
        let out = pair.appendingPathComponent("out")
        let poses = try CLIRunner.run(["poses", pair.path, "-o", out.path])
        XCTAssertEqual(poses.status, 0, poses.output)
        XCTAssertTrue(poses.output.contains("registered 2/2 images, "), poses.output)
        XCTAssertTrue(poses.output.contains("warning: the focal length was self-calibrated from only 2 photos"), poses.output)
        // A file that is no photo counts among the images, and the summary says it was skipped.
        try Data("notes".utf8).write(to: pair.appendingPathComponent("notes.jpg"))
        let withJunk = try CLIRunner.run(["poses", pair.path, "-o", pair.appendingPathComponent("out-junk").path])
        XCTAssertTrue(withJunk.output.contains("registered 2/3 images (1 skipped before matching, listed below), "), withJunk.output)
        try FileManager.default.removeItem(at: pair.appendingPathComponent("notes.jpg"))
        // Two views cannot tell distortion from focal length: k1 stays at 0 (it wandered to −1.7 once).
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("poses.json"))) as? [String: Any]
        let images = try XCTUnwrap(written?["images"] as? [[String: Any]])
        XCTAssertEqual(images.count, 2)
        for image in images {
            let intrinsics = try XCTUnwrap(image["intrinsics"] as? [String: Any])
            XCTAssertEqual(intrinsics["k1"] as? Double, 0, "\(image)")
        }

        // With --json the warning comes before `complete`, the last event.
        let json = try CLIRunner.run(["poses", pair.path, "-o", pair.appendingPathComponent("out-json").path, "--json"])
        XCTAssertEqual(json.status, 0, json.output)
        let events = json.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(events.last?["event"] as? String, "complete", json.output)
        XCTAssertTrue(events.contains { ($0["message"] as? String)?.contains("self-calibrated from only 2 photos") == true }, json.output)
    }
}
