import Foundation
import ReconstructionCore
import XCTest

/// The CLI as a user runs it: exit codes and messages.
final class CommandLineTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CLIRunner.run(arguments)
    }

    func testHelpExplainsEachSubcommand() throws {
        let top = try run(["--help"])
        XCTAssertEqual(top.status, 0)
        XCTAssertTrue(top.output.contains("poses") && top.output.contains("evaluate-poses"))
        let poses = try run(["help", "poses"])
        XCTAssertTrue(poses.output.contains("transforms.json") && poses.output.contains("--intrinsics-file"))
    }

    func testFewerThanTwoUsableImagesExitsNonZeroNamingTheBadFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("definitely not a JPEG".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        try Data("1 0 0\n0 1 0\n0 0 1\n".utf8).write(to: dir.appendingPathComponent("K.txt"))
        let result = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("broken.jpg"), result.output)
        XCTAssertTrue(result.output.contains("at least 2 usable images"), result.output)
        // A K.txt beside the photos is read only when given: a note says how.
        XCTAssertTrue(result.output.contains("K.txt is not read unless given: --intrinsics-file"), result.output)
    }

    private func makeFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// The JSON objects among the output's lines (standard output and error are one stream here).
    private func events(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    func testAFolderWithoutPhotosIsAClearErrorAlsoAsAJSONEvent() throws {
        let dir = try makeFolder()
        try Data("notes".utf8).write(to: dir.appendingPathComponent("readme.txt"))
        let plain = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.output.contains("no photos in \(dir.path)"), plain.output)
        XCTAssertFalse(plain.output.contains("Usage:"), plain.output)
        XCTAssertFalse(plain.output.contains("hidden"), plain.output)

        // Only hidden files (macOS's ._ copies): the error says they were skipped, and why.
        try Data([0xFF, 0xD8]).write(to: dir.appendingPathComponent("._IMG_1.JPG"))
        let hidden = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertTrue(hidden.output.contains("1 hidden file(s) with an image's extension (._IMG_1.JPG) are skipped"), hidden.output)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("._IMG_1.JPG"))

        let json = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path, "--json"])
        XCTAssertEqual(json.status, 1)
        let error = try XCTUnwrap(try events(json.output).last)
        XCTAssertEqual(error["event"] as? String, "error")
        XCTAssertTrue((error["message"] as? String)?.contains("no photos in") == true, json.output)

        // Photos one level deeper, in a folder not called images/: the error says where they are.
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data("not decoded before the folder is resolved".utf8).write(to: photos.appendingPathComponent("IMG_0001.JPG"))
        let nested = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertEqual(nested.status, 1)
        XCTAssertTrue(nested.output.contains("photos are in \(photos.path)/: give that folder instead"), nested.output)

        // Two levels deeper, split over two folders, as a phone's DCIM holds them.
        let card = try makeFolder()
        for (folder, name) in [("DCIM/100APPLE", "IMG_0001.JPG"), ("DCIM/101APPLE", "IMG_0002.JPG")] {
            let sub = card.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data("junk".utf8).write(to: sub.appendingPathComponent(name))
        }
        let split = try run(["poses", card.path, "-o", card.appendingPathComponent("out").path])
        XCTAssertEqual(split.status, 1)
        XCTAssertTrue(split.output.contains("photos are in \(card.path)/DCIM/100APPLE/, \(card.path)/DCIM/101APPLE/: give one of them instead, "
                                            + "or gather a capture split over several into one folder"), split.output)

        // Photos beside a subfolder of photos: the subfolder's are not read, and a note says so.
        let best = photos.appendingPathComponent("Best of")
        try FileManager.default.createDirectory(at: best, withIntermediateDirectories: true)
        try Data("junk".utf8).write(to: best.appendingPathComponent("IMG_0002.JPG"))
        let beside = try run(["poses", photos.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertTrue(beside.output.contains("the photos in Best of/ are not read: only the photos directly in \(photos.path) are"), beside.output)
    }

    /// Poses of other photos with the same file names align by their centres but point elsewhere:
    /// the score says so in a warning. Here each camera is turned half a turn about its axis.
    func testEvaluatePosesWarnsWhenTheCamerasPointElsewhere() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let truthFile = capture.appendingPathComponent("ground_truth/poses.json")
        var poses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: truthFile)) as? [String: Any])
        poses["images"] = (poses["images"] as? [[String: Any]] ?? []).map { image in
            var turned = image
            if let q = image["rotation"] as? [Double] { turned["rotation"] = [-q[3], q[2], -q[1], q[0]] }  // q ⊗ (0, 0, 0, 1)
            return turned
        }
        let file = try makeFolder().appendingPathComponent("poses.json")
        try JSONSerialization.data(withJSONObject: poses).write(to: file)
        let result = try run(["evaluate-poses", "--ground-truth", capture.path, file.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("warning: the median rotation error is 180°: check that the poses and the ground truth are of the same photos"),
                      result.output)
        let plain = try run(["evaluate-poses", "--ground-truth", capture.path, truthFile.path])
        XCTAssertFalse(plain.output.contains("warning"), plain.output)

        // --json keeps the warning, and an error is JSON too.
        let json = try run(["evaluate-poses", "--ground-truth", capture.path, file.path, "--json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], json.output)
        let warnings = try XCTUnwrap(report["warnings"] as? [String], json.output)
        XCTAssertTrue(warnings.contains { $0.hasPrefix("the median rotation error is 180°") }, "\(warnings)")
        let missing = try run(["evaluate-poses", "--ground-truth", capture.path, capture.appendingPathComponent("nothing.json").path, "--json"])
        XCTAssertEqual(missing.status, 1, missing.output)
        let error = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missing.output.utf8)) as? [String: Any], missing.output)
        XCTAssertEqual(error["event"] as? String, "error", missing.output)
        XCTAssertTrue((error["message"] as? String)?.contains("nothing.json") == true, missing.output)
    }

    /// Every camera turned by the same 2° about the world's vertical, centres kept: the alignment,
    /// which fits centres, cannot undo it, so every camera scores 2°, but the cameras agree with
    /// each other exactly; the report gives both and says which it is.
    func testEvaluatePosesSeparatesTheAlignmentsRotationFromTheCameras() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let truthFile = capture.appendingPathComponent("ground_truth/poses.json")
        var poses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: truthFile)) as? [String: Any])
        let (c, z) = (cos(Double.pi / 180), sin(Double.pi / 180))  // q0 = (cos 1°, 0, 0, sin 1°): 2° about z
        poses["images"] = (poses["images"] as? [[String: Any]] ?? []).map { image in
            var turned = image
            if let q = image["rotation"] as? [Double] {  // q0 ⊗ q
                turned["rotation"] = [c * q[0] - z * q[3], c * q[1] - z * q[2], c * q[2] + z * q[1], c * q[3] + z * q[0]]
            }
            return turned
        }
        let file = try makeFolder().appendingPathComponent("poses.json")
        try JSONSerialization.data(withJSONObject: poses).write(to: file)
        let json = try run(["evaluate-poses", "--ground-truth", capture.path, file.path, "--json"])
        XCTAssertEqual(json.status, 0, json.output)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], json.output)
        XCTAssertEqual(try XCTUnwrap(report["medianRotationErrorDegrees"] as? Double), 2, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(report["medianRelativeRotationErrorDegrees"] as? Double), 0, accuracy: 1e-6)
        let warnings = try XCTUnwrap(report["warnings"] as? [String], json.output)
        XCTAssertTrue(warnings.contains { $0.hasPrefix("the rotation errors are mostly one turn shared by every camera")
                          && $0.contains("(median 2.000° after it, 0.000° between the cameras): the estimate is turned as a whole") },
                      "\(warnings)")
    }

    func testAFailedRunLeavesNoEmptyOutputFolder() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let dir = try makeFolder()
        try FileManager.default.copyItem(at: capture.appendingPathComponent("images/0001.jpg"), to: dir.appendingPathComponent("0001.jpg"))
        let out = dir.appendingPathComponent("out")
        let result = try run(["poses", dir.path, "-o", out.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no empty output folder left: \(result.output)")
    }

    func testEvaluateNamesAModelReportThatIsNotOne() throws {
        let dir = try makeFolder()
        let report = dir.appendingPathComponent("report.json")
        try Data(#"{"a": 1}"#.utf8).write(to: report)
        try Data("glTF".utf8).write(to: dir.appendingPathComponent("m.glb"))
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let result = try run(["evaluate", "--ground-truth", capture.path, "--model", dir.appendingPathComponent("m.glb").path,
                              "--model-poses", dir.path, "--model-report", report.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("--model-report \(report.path): not a model report written by reconstruct --model-report (it has no \"level\")"),
                      result.output)
    }

    /// The repository's regression manifest.
    static let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets/manifest.json")

    /// Extreme but well-formed values are refused with the option's name, not a crash or a run
    /// that fills the memory.
    func testExtremeValuesAreRefusedByName() throws {
        let dir = try makeFolder()
        let cases: [([String], String)] = [
            (["batch", dir.appendingPathComponent("jobs.json").path, "-o", dir.path, "--memory-budget", "inf"], "--memory-budget must be more than 0"),
            (["serve", "--data-dir", dir.path, "--memory-budget", "1e300"], "--memory-budget must be more than 0"),
            (["batch", dir.appendingPathComponent("jobs.json").path, "-o", dir.path, "--memory-budget", "-1"], "--memory-budget must be more than 0"),
            (["serve", "--data-dir", dir.path, "--memory-budget", "-2"], "--memory-budget must be more than 0"),
            (["serve", "--data-dir", dir.path, "--max-upload-mb", "99999999999999"], "--max-upload-mb must be 1…1000000"),
            (["scaling", "--views", "30", "--size", "1x1", "-o", dir.path], "--size must be WxH with 64 ≤ W"),
            (["scaling", "--views", "30", "--matching", "sequential", "--window", "0", "-o", dir.path], "--window must be at least 1"),
            // A negative value is a value, refused for what it is (was "Missing value for '--window'").
            (["poses", dir.path, "-o", dir.appendingPathComponent("o").path, "--matching", "sequential", "--window", "-1"],
             "--window must be at least 1"),
            (["poses", dir.path, "-o", dir.appendingPathComponent("o").path, "--max-image-size", "-5"], "--max-image-size must be"),
            (["poses", dir.path, "-o", dir.appendingPathComponent("o").path, "--window", "5"],
             "--window applies to --matching sequential or retrieval, not auto"),
            (["reconstruct", dir.path, "-o", dir.appendingPathComponent("m.ply").path, "--matching", "sequential", "--neighbours", "5"],
             "--neighbours applies to --matching retrieval, not sequential"),
            (["reconstruct", dir.path, "-o", dir.appendingPathComponent("m.ply").path, "--no-stereo", "--point-cloud", dir.appendingPathComponent("p.ply").path],
             "--point-cloud writes the fused stereo point cloud, and --no-stereo runs no stereo"),
            (["synth", "textured-vase", "-o", dir.appendingPathComponent("s").path, "--views", "100000000"], "--views must be 3…10000"),
            (["synth-frames", "textured-vase", "-o", dir.appendingPathComponent("f").path, "--frames", "4"],
             "with 4 frames the six default spoiled frames (2 dark, 2 blurred, 2 off-frame) would overlap"),
            (["synth-frames", "textured-vase", "-o", dir.appendingPathComponent("f").path, "--interval", "inf"],
             "the frame interval must be a positive number of seconds"),
            (["synth", "textured-vase", "-o", "/proc/photogrammetry-test", "--views", "3"], "-o /proc/photogrammetry-test: cannot create files in /proc"),
            (["batch", dir.path, "-o", dir.appendingPathComponent("b").path], "jobs file \(dir.path) is a folder; give the jobs file"),
            (["regression", "--manifest", Self.manifest.path, "--only", "nosuch", "-o", dir.path],
             "unknown dataset(s): nosuch; \(Self.manifest.path) has vase-40"),
        ]
        for (arguments, expected) in cases {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.output.contains(expected), "\(arguments.joined(separator: " ")): \(result.output)")
            XCTAssertFalse(result.output.contains("Usage: photogrammetry <subcommand>"), result.output)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f").path), "nothing half-written")
    }

    /// Without stereo only depth sidecars give depth: a folder with none fails before the poses.
    func testNoStereoWithoutDepthSidecarsFailsBeforeAnyWork() throws {
        let dir = try makeFolder()
        try Data("not a JPEG".utf8).write(to: dir.appendingPathComponent("a.jpg"))
        let result = try run(["reconstruct", dir.path, "-o", dir.appendingPathComponent("m.ply").path, "--no-stereo"])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("--no-stereo: no photo in \(dir.path) has a depth sidecar (NAME_depth.png)"), result.output)
        XCTAssertFalse(result.output.contains("estimating poses"), result.output)
    }

    func testVersionIsPrinted() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output.trimmingCharacters(in: .whitespacesAndNewlines), PhotogrammetryVersion.string)
    }

    func testAnEmptyJobsFileSaysItHoldsNone() throws {
        let dir = try makeFolder()
        let file = dir.appendingPathComponent("jobs.json")
        try Data("[]".utf8).write(to: file)
        let result = try run(["batch", file.path, "-o", dir.appendingPathComponent("out").path, "--enqueue-only"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("jobs: none in the jobs file"), result.output)
    }

    func testEvaluateRefusesAThresholdThatIsNotAFraction() throws {
        let dir = try makeFolder()
        for value in ["0", "1.5", "nan"] {
            let result = try run(["evaluate", "--ground-truth", dir.path, "--poses", dir.path, "--threshold=\(value)"])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.output.contains("--threshold is a fraction of the true bounding-box diagonal, above 0 and below 1"), result.output)
        }
    }

    func testAnOutputPathUnderAFileFailsBeforeAnyWork() throws {
        let dir = try makeFolder()
        try Data("not a JPEG".utf8).write(to: dir.appendingPathComponent("a.jpg"))
        let blocker = dir.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let result = try run(["poses", dir.path, "-o", blocker.appendingPathComponent("out").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("\(blocker.path) is a file, not a folder"), result.output)
        XCTAssertFalse(result.output.contains("a.jpg"), "the photos were read before the output was checked: \(result.output)")
    }

    func testJSONLinesStayValidWhenAMessageHoldsANewlineOrATab() throws {
        let dir = try makeFolder()
        for name in ["broken\nname.jpg", "tab\there.jpg"] {
            try Data("not a JPEG".utf8).write(to: dir.appendingPathComponent(name))
        }
        let result = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path, "--json"])
        XCTAssertEqual(result.status, 1)
        let messages = try events(result.output).compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.hasPrefix("skipped broken\nname.jpg:") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("skipped tab\there.jpg:") }, "\(messages)")
    }

    func testASceneFolderIsReadThroughItsImagesSubfolder() throws {
        let scene = try makeFolder()
        let images = scene.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Data("not a JPEG".utf8).write(to: images.appendingPathComponent("a.jpg"))
        let result = try run(["poses", scene.path, "-o", scene.appendingPathComponent("out").path])
        XCTAssertTrue(result.output.contains("using its images/ subfolder"), result.output)
        XCTAssertTrue(result.output.contains("a.jpg"), result.output)
    }

    func testSurfaceScoringAgainstAGroundTruthWithoutAMeshSaysSo() throws {
        let scene = StrechaPosesTests.strecha.appendingPathComponent("fountain-P11")
        guard FileManager.default.fileExists(atPath: scene.path) else {
            throw XCTSkip("../shared/datasets/strecha is absent: \(scene.path)")
        }
        let result = try run(["evaluate", "--ground-truth", scene.path, "--poses", "poses.json", "--surface", "mesh.ply"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("\(scene.path) has no ground-truth mesh"), result.output)
    }

    func testConflictingIntrinsicsOptionsAreAValidationError() throws {
        let result = try run(["poses", "/tmp", "-o", "/tmp/x", "--intrinsics", "1,1,1,1", "--intrinsics-file", "K.txt"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("either --intrinsics or --intrinsics-file"), result.output)
    }
}
