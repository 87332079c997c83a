import Foundation
import XCTest

/// `reconstruct` on a folder that holds a photo of something else: the model is built from the
/// photos that register, and the stranger is named with the reason, as `poses` names it. Its
/// depth sidecar belongs to a photo that exists, so it is not reported as an orphan.
final class ReconstructUnregisteredTests: XCTestCase {
    func testReconstructNamesEachPhotoThatDidNotRegisterAndWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reconstruct-stranger-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("vase").path, other = folder.appendingPathComponent("box").path
        for (scene, path) in [("textured-vase", capture), ("plain-box", other)] {
            let synth = try CLIRunner.run(["synth", scene, "-o", path, "--views", "24", "--seed", "3", "--size", "400x300"])
            XCTAssertEqual(synth.status, 0, synth.output)
        }
        for (from, to) in [("0001.jpg", "stranger.jpg"), ("0001_depth.png", "stranger_depth.png")] {
            try FileManager.default.copyItem(atPath: other + "/images/" + from, toPath: capture + "/images/" + to)
        }

        let model = folder.appendingPathComponent("vase.glb").path
        let result = try CLIRunner.run(["reconstruct", capture, "-o", model, "--detail", "preview",
                                        "--intrinsics-file", capture + "/images/K.txt"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("registered 24/25 images"), result.output)
        let line = try XCTUnwrap(result.output.split(separator: "\n").first { $0.contains("not registered: stranger.jpg: ") },
                                 result.output)
        XCTAssertGreaterThan(line.count, "  not registered: stranger.jpg: ".count + 10, "a reason follows the name")
        XCTAssertFalse(result.output.contains("not registered: 00"), "every vase photo registers")
        XCTAssertFalse(result.output.contains("missing image"), result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: model))

        // `poses --json` lists it, with the same reason, in its `complete` event.
        let json = try CLIRunner.run(["poses", capture, "-o", folder.appendingPathComponent("poses").path,
                                      "--intrinsics-file", capture + "/images/K.txt", "--json"])
        XCTAssertEqual(json.status, 0, json.output)
        let complete = try XCTUnwrap(json.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.last)
        XCTAssertEqual(complete["event"] as? String, "complete", json.output)
        let unregistered = try XCTUnwrap(complete["unregistered"] as? [[String: String]], "\(complete)")
        XCTAssertEqual(unregistered.map { $0["name"] }, ["stranger.jpg"])
        XCTAssertEqual("  not registered: stranger.jpg: " + (unregistered.first?["reason"] ?? ""), String(line))
    }
}
