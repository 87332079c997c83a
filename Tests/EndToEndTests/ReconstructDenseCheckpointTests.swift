import Foundation
import XCTest

/// `reconstruct --checkpoint` keeps the dense surface too: another model of the same capture
/// starts at the model stage, with the same surface; a changed photo, or `--point-cloud` (whose
/// points are not kept), runs stereo again, saying why.
final class ReconstructDenseCheckpointTests: XCTestCase {
    private func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func messages(_ events: [[String: Any]], _ kind: String) -> [String] {
        events.filter { $0["event"] as? String == kind }.compactMap { $0["message"] as? String }
    }

    func testAnotherModelOfTheSameCaptureLoadsTheDenseSurface() throws {
        let source = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self)
        let capture = folder.appendingPathComponent("capture")
        try FileManager.default.copyItem(at: source, to: capture)
        let checkpoint = folder.appendingPathComponent("checkpoint").path
        let k = capture.appendingPathComponent("images/K.txt").path
        func reconstruct(_ output: String, _ extra: [String] = []) throws -> [[String: Any]] {
            let run = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent(output).path, "--intrinsics-file", k,
                                         "--checkpoint", checkpoint, "--json"] + extra)
            XCTAssertEqual(run.status, 0, run.output)
            let events = events(run.output)
            XCTAssertEqual(events.last?["event"] as? String, "complete", run.output)
            return events
        }
        let first = try reconstruct("vase.glb", ["--detail", "preview"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: checkpoint + "/dense.ckpt"))
        XCTAssertFalse(messages(first, "note").contains { $0.hasPrefix("dense, surface: loaded") })

        // Reduced asks for the same stereo size: the surface is loaded, and no stereo runs. A file
        // that is not part of the capture (a model written beside the photos) changes nothing.
        try Data("glTF".utf8).write(to: capture.appendingPathComponent("images/model.glb"))
        let second = try reconstruct("vase.obj", ["--detail", "reduced"])
        XCTAssertTrue(messages(second, "note").contains { $0.hasPrefix("dense, surface: loaded from the checkpoint (saved about ") },
                      "\(messages(second, "note"))")
        XCTAssertFalse(second.contains { $0["event"] as? String == "progress" && $0["stage"] as? String == "dense" }, "stereo ran again")
        let mesh = { (events: [[String: Any]]) in (events.last?["dense_mesh"] as? [String: Any])?["triangles"] as? Int }
        XCTAssertNotNil(mesh(first))
        XCTAssertEqual(mesh(second), mesh(first))
        XCTAssertEqual(second.last?["metric"] as? Bool, first.last?["metric"] as? Bool)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("vase.obj").path))

        // The text summary says where the surface came from; a stereo size above the photos' (320 px)
        // does the same work, so the checkpoint serves it too.
        let text = try CLIRunner.run(["reconstruct", capture.path, "-o", folder.appendingPathComponent("vase-medium.glb").path, "--intrinsics-file", k,
                                      "--checkpoint", checkpoint, "--detail", "medium"])
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(text.output.contains("; loaded from the checkpoint (stereo "), text.output)
        XCTAssertEqual(second.last?["dense_from_checkpoint"] as? Bool, true)
        XCTAssertEqual(first.last?["dense_from_checkpoint"] as? Bool, false)

        // --point-cloud needs stereo's points, which the checkpoint does not keep.
        let third = try reconstruct("vase2.glb", ["--detail", "preview", "--point-cloud", folder.appendingPathComponent("points.ply").path])
        XCTAssertTrue(messages(third, "note").contains { $0.contains("keeps no stereo point cloud") }, "\(messages(third, "note"))")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("points.ply").path))

        // A sidecar changed since: the saved surface is for other files.
        let depth = capture.appendingPathComponent("images/0003_depth.png")
        try FileManager.default.removeItem(at: depth)
        let fourth = try reconstruct("vase3.glb", ["--detail", "preview"])
        XCTAssertTrue(messages(fourth, "note").contains { $0.hasPrefix("dense: checkpoint files not used, computed again (dense.ckpt: saved for other photos or options; "
                                                                    + "the stereo size follows --detail") && $0.contains("give --stereo-image-size to share one") },
                      "\(messages(fourth, "note"))")

        // Known poses keep the surface too.
        let poses = capture.appendingPathComponent("ground_truth/poses.json").path
        let known = try reconstruct("known.glb", ["--detail", "preview", "--poses", poses])
        XCTAssertFalse(messages(known, "note").contains { $0.hasPrefix("dense, surface: loaded") })
        let again = try reconstruct("known.obj", ["--detail", "preview", "--poses", poses])
        XCTAssertTrue(messages(again, "note").contains { $0.hasPrefix("dense, surface: loaded from the checkpoint") }, "\(messages(again, "note"))")
    }
}
