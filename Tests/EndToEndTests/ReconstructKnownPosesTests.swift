import Foundation
import XCTest

/// `reconstruct --poses FILE` matches poses to photos by file name, and says when they do not match.
final class ReconstructKnownPosesTests: XCTestCase {
    func testAPosesFileNamingNoneOfThePhotosIsAClearError() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("renamed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 1...3 {
            try FileManager.default.copyItem(at: capture.appendingPathComponent(String(format: "images/%04d.jpg", i)),
                                             to: folder.appendingPathComponent("IMG_\(i).jpg"))
        }
        let poses = capture.appendingPathComponent("ground_truth/poses.json")
        let result = try CLIRunner.run(["reconstruct", folder.path, "-o", folder.appendingPathComponent("mesh.ply").path,
                                        "--poses", poses.path, "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("\(poses.path): names none of the 3 photos in \(folder.path)"), result.output)
        XCTAssertTrue(result.output.contains("0001.jpg, 0002.jpg, 0003.jpg, …"), result.output)
        XCTAssertFalse(result.output.contains("depth map"), "no stereo attempted: \(result.output)")
    }

    func testPhotosWithoutAPoseAreNamed() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self)
        var poses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: capture.appendingPathComponent("ground_truth/poses.json")))
            as? [String: Any])
        let images = try XCTUnwrap(poses["images"] as? [[String: Any]])
        // 0008.jpg is listed as not registered, with the reason `poses` gave: that reason is kept.
        poses["images"] = images.filter { $0["file"] as? String != "0007.jpg" }.map { image in
            guard image["file"] as? String == "0008.jpg" else { return image }
            return ["file": "0008.jpg", "registered": false, "reason": "skipped: the file is empty"]
        }
        let posesFile = folder.appendingPathComponent("poses.json")
        try JSONSerialization.data(withJSONObject: poses).write(to: posesFile)
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("mesh.ply").path,
                                        "--poses", posesFile.path, "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("28/30 photos have a pose in \(posesFile.path)"), result.output)
        XCTAssertTrue(result.output.contains("not registered: 0007.jpg: no pose in poses.json"), result.output)
        XCTAssertTrue(result.output.contains("not registered: 0008.jpg: not registered in poses.json: skipped: the file is empty"), result.output)
        // Known poses are metres, with depth sidecars (which then must agree with them) or without.
        XCTAssertTrue(result.output.contains("metric (1 m per pose unit, from 28 depth maps)"), result.output)
        // With --json the `complete` event lists the photo too.
        let withoutDepth = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("mesh2.ply").path, "--no-depth",
                                              "--poses", posesFile.path, "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path,
                                              "--json"])
        XCTAssertEqual(withoutDepth.status, 0, withoutDepth.output)
        let complete = try XCTUnwrap(withoutDepth.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.last)
        XCTAssertEqual(complete["event"] as? String, "complete", withoutDepth.output)
        XCTAssertEqual(complete["unregistered"] as? [[String: String]],
                       [["name": "0007.jpg", "reason": "no pose in poses.json"],
                        ["name": "0008.jpg", "reason": "not registered in poses.json: skipped: the file is empty"]], "\(complete)")
        XCTAssertEqual(complete["metric"] as? Bool, true, "known poses are metres: \(complete)")
        XCTAssertEqual(complete["depth_sidecars"] as? Int, 0, "\(complete)")
    }

    /// Poses that `poses` self-calibrated: `reconstruct --poses` takes each photo's intrinsics
    /// from the file (no K to copy by hand); a posed photo the file gives none for, or intrinsics
    /// of another size, is a clear error before any work.
    func testIntrinsicsComeFromThePosesFileWhenNoneAreGiven() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self)
        let estimated = try CLIRunner.run(["poses", capture.path, "-o", folder.appendingPathComponent("poses").path])
        XCTAssertEqual(estimated.status, 0, estimated.output)
        let posesFile = folder.appendingPathComponent("poses/poses.json")
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("mesh.ply").path,
                                        "--poses", posesFile.path, "--no-depth", "--json"])
        XCTAssertEqual(result.status, 0, result.output)
        let complete = try XCTUnwrap(result.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.last)
        XCTAssertEqual(complete["event"] as? String, "complete", result.output)
        XCTAssertEqual(complete["registered"] as? Int, BatchCaptures.views)
        XCTAssertGreaterThan((complete["dense_mesh"] as? [String: Any])?["triangles"] as? Int ?? 0, 1000, "\(complete)")

        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: posesFile)) as? [String: Any])
        let original = try XCTUnwrap(document["images"] as? [[String: Any]])
        var images = original
        images[2]["intrinsics"] = nil
        document["images"] = images
        let withoutK = folder.appendingPathComponent("without-k.json")
        try JSONSerialization.data(withJSONObject: document).write(to: withoutK)
        let missing = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("m2.ply").path, "--poses", withoutK.path])
        XCTAssertEqual(missing.status, 1, missing.output)
        XCTAssertTrue(missing.output.contains("\(withoutK.path): gives no intrinsics for 0003.jpg: give --intrinsics or --intrinsics-file"),
                      missing.output)

        var k = try XCTUnwrap(images[0]["intrinsics"] as? [String: Any])
        k["width"] = 640
        images[0]["intrinsics"] = k
        images[2] = original[2]
        document["images"] = images
        let otherSize = folder.appendingPathComponent("other-size.json")
        try JSONSerialization.data(withJSONObject: document).write(to: otherSize)
        let resized = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("m3.ply").path, "--poses", otherSize.path])
        XCTAssertEqual(resized.status, 1, resized.output)
        XCTAssertTrue(resized.output.contains("gives intrinsics for 640×240 pixels, but 0001.jpg is 320×240"), resized.output)
        XCTAssertFalse(resized.output.contains("dense stereo on"), resized.output)

        // A given K made for photos twice as large is said before any work, as `poses` says it.
        let doubled = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("m4.ply").path, "--poses", posesFile.path,
                                         "--intrinsics", "576,576,320,240"])
        XCTAssertEqual(doubled.status, 1, doubled.output)
        XCTAssertTrue(doubled.output.contains("K seems to be for photos 2× as large: multiply fx, fy, cx and cy by 0.5"), doubled.output)
        XCTAssertFalse(doubled.output.contains("dense stereo on"), doubled.output)
    }

    /// Poses of other photos (here each photo's pose given to another) leave stereo almost no
    /// depth that the photos agree on: the run says so instead of writing a scrap of mesh silently.
    func testPosesThatDoNotFitThePhotosAreAWarning() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self)
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: capture.appendingPathComponent("ground_truth/poses.json")))
            as? [String: Any])
        let images = try XCTUnwrap(document["images"] as? [[String: Any]])
        let names = images.compactMap { $0["file"] as? String }
        document["images"] = images.enumerated().map { i, image in
            var shuffled = image
            shuffled["file"] = names[(i + names.count / 2) % names.count]
            return shuffled
        }
        let posesFile = folder.appendingPathComponent("poses.json")
        try JSONSerialization.data(withJSONObject: document).write(to: posesFile)
        let k = capture.appendingPathComponent("images/K.txt").path
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("mesh.ply").path,
                                        "--poses", posesFile.path, "--intrinsics-file", k, "--no-depth"])
        XCTAssertTrue(result.output.contains("warning: dense stereo kept almost no depth"), result.output)
        XCTAssertTrue(result.output.contains("do the known poses belong to these photos"), result.output)
        // The right poses give no such warning.
        let right = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("right.ply").path, "--poses",
                                       capture.appendingPathComponent("ground_truth/poses.json").path, "--intrinsics-file", k, "--no-depth"])
        XCTAssertEqual(right.status, 0, right.output)
        XCTAssertFalse(right.output.contains("kept almost no depth"), right.output)
    }

    /// `poses` writes structure from motion's own units and says so ("metric": false); given to
    /// `reconstruct --poses` they are not taken for metres (which made a model 3.3 times too large
    /// and called it metric): the model keeps their units, and the depth, which could not be scaled
    /// to them, is left out with a warning that says why.
    func testPosesInTheirOwnUnitsAreNotTakenForMetres() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self)
        let k = capture.appendingPathComponent("images/K.txt").path
        let estimated = try CLIRunner.run(["poses", capture.path, "-o", folder.appendingPathComponent("poses").path, "--intrinsics-file", k])
        XCTAssertEqual(estimated.status, 0, estimated.output)
        // The right K of an orbit is not said to disagree with the pairs.
        XCTAssertFalse(estimated.output.contains("the given focal length disagrees"), estimated.output)
        let posesFile = folder.appendingPathComponent("poses/poses.json")
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("mesh.ply").path,
                                        "--poses", posesFile.path, "--intrinsics-file", k, "--json"])
        XCTAssertEqual(result.status, 0, result.output)
        let events = result.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = events.filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.hasPrefix("\(posesFile.path) says its units are not metres") && $0.contains("depth sidecars") }, result.output)
        XCTAssertFalse(warnings.contains { $0.contains("its depth agrees with no other frame") }, "depth is not checked against them: \(result.output)")
        let complete = try XCTUnwrap(events.last)
        XCTAssertEqual(complete["event"] as? String, "complete", result.output)
        XCTAssertEqual(complete["metric"] as? Bool, false, "\(complete)")
    }
}
