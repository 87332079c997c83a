import Foundation
import XCTest

/// Photos without depth but with the poses a device tracked (`tracked_poses.json`): the dense mesh
/// and the written poses come out in metres; tracked poses of other photos are refused by name.
final class ReconstructTrackedPosesTests: XCTestCase {
    /// The capture's photos and K alone, with `tracked` (a poses.json document) beside them.
    func photosOnly(tracked: Data) throws -> URL {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let folder = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = capture.appendingPathComponent("images")
        for name in try FileManager.default.contentsOfDirectory(atPath: images.path) where name.hasSuffix(".jpg") && !name.contains("_") || name == "K.txt" {
            try FileManager.default.copyItem(at: images.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try tracked.write(to: folder.appendingPathComponent("tracked_poses.json"))
        return folder
    }

    static func truth() throws -> (document: [String: Any], centres: [String: [Double]]) {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let data = try Data(contentsOf: capture.appendingPathComponent("ground_truth/poses.json"))
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (document, try centres(document))
    }

    static func centres(_ document: [String: Any]) throws -> [String: [Double]] {
        let images = try XCTUnwrap(document["images"] as? [[String: Any]])
        var centres: [String: [Double]] = [:]
        for image in images {
            if let file = image["file"] as? String, let t = image["translation"] as? [Double] { centres[file] = t }
        }
        return centres
    }

    func reconstruct(_ folder: URL) throws -> (events: [[String: Any]], poses: URL) {
        let poses = folder.deletingLastPathComponent().appendingPathComponent("poses")
        let run = try CLIRunner.run(["reconstruct", folder.path, "-o", folder.deletingLastPathComponent().appendingPathComponent("mesh.ply").path,
                                     "--intrinsics-file", folder.appendingPathComponent("K.txt").path, "--poses-output", poses.path, "--json"])
        XCTAssertEqual(run.status, 0, run.output)
        let events = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (events, poses)
    }

    func testTrackedPosesGiveTheScaleOfAPhotosOnlyCapture() throws {
        let (document, truth) = try Self.truth()
        let folder = try photosOnly(tracked: try JSONSerialization.data(withJSONObject: document))
        let (events, posesFolder) = try reconstruct(folder)
        let complete = try XCTUnwrap(events.last { $0["event"] as? String == "complete" })
        XCTAssertEqual(complete["metric"] as? Bool, true, "\(complete)")
        XCTAssertEqual(complete["tracked_poses"] as? Int, BatchCaptures.views, "\(complete)")
        // Distances between the written camera centres are the true ones, in metres, and the file says so.
        let writtenDocument = try XCTUnwrap(try JSONSerialization.jsonObject(
            with: Data(contentsOf: posesFolder.appendingPathComponent("poses.json"))) as? [String: Any])
        XCTAssertEqual(writtenDocument["metric"] as? Bool, true)
        let written = try Self.centres(writtenDocument)
        var ratios: [Double] = []
        let names = truth.keys.sorted()
        for (a, b) in zip(names, names.dropFirst(names.count / 2)) {
            guard let wa = written[a], let wb = written[b], let ta = truth[a], let tb = truth[b] else { continue }
            let estimated = zip(wa, wb).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
            let actual = zip(ta, tb).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
            ratios.append(estimated / actual)
        }
        XCTAssertGreaterThan(ratios.count, 10)
        for ratio in ratios { XCTAssertEqual(ratio, 1, accuracy: 0.01, "written distances are metres") }
    }

    func testTrackedPosesOfOtherPhotosAreRefusedAndTheScaleStaysUnknown() throws {
        // Each photo gets the centre of another (a permutation): the centres no longer fit.
        var (document, _) = try Self.truth()
        let images = try XCTUnwrap(document["images"] as? [[String: Any]])
        document["images"] = images.indices.map { k -> [String: Any] in
            var moved = images[k]
            moved["translation"] = images[(k * 7) % images.count]["translation"]
            return moved
        }
        let folder = try photosOnly(tracked: try JSONSerialization.data(withJSONObject: document))
        let (events, _) = try reconstruct(folder)
        let complete = try XCTUnwrap(events.last { $0["event"] as? String == "complete" })
        XCTAssertEqual(complete["metric"] as? Bool, false, "\(complete)")
        XCTAssertEqual(complete["tracked_poses"] as? Int, 0, "\(complete)")
        XCTAssertTrue(events.contains {
            ($0["message"] as? String)?.contains("tracked_poses.json: after the best similarity") == true
        }, "\(events)")
    }
}
