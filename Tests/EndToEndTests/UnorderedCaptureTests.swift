import Foundation
import ReconstructionCore
import XCTest

/// A capture beyond the exhaustive limit whose file names say nothing about the views: automatic
/// pair selection must find the overlapping photos by image retrieval.
final class UnorderedCaptureTests: XCTestCase {
    func testShuffledCaptureBeyondTheExhaustiveLimitRegistersEveryImage() throws {
        let views = 48
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unordered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        let synth = try CLIRunner.run(["synth", "textured-vase", "-o", capture.path, "--views", "\(views)", "--seed", "4",
                                       "--size", "640x480"])
        XCTAssertEqual(synth.status, 0, synth.output)

        // The same photos under shuffled names, and the ground truth renamed to match.
        let shuffled = root.appendingPathComponent("shuffled")
        let images = shuffled.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let photos = try FileManager.default.contentsOfDirectory(atPath: capture.appendingPathComponent("images").path)
            .filter { $0.wholeMatch(of: #/\d+\.jpg/#) != nil }.sorted()
        XCTAssertEqual(photos.count, views)
        var generator = SeededGenerator(seed: 11)
        var newName: [String: String] = [:]
        for (new, from) in photos.shuffled(using: &generator).enumerated() {
            let to = String(format: "%04d.jpg", new)
            newName[from] = to
            try FileManager.default.createSymbolicLink(at: images.appendingPathComponent(to),
                                                       withDestinationURL: capture.appendingPathComponent("images/\(from)"))
        }
        let truthURL = capture.appendingPathComponent("ground_truth/poses.json")
        var truth = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: truthURL)) as? [String: Any])
        let renamed = try XCTUnwrap(truth["images"] as? [[String: Any]]).map { image -> [String: Any] in
            var image = image
            image["file"] = newName[image["file"] as? String ?? ""]
            return image
        }
        XCTAssertEqual(renamed.compactMap { $0["file"] as? String }.count, views)
        truth["images"] = renamed
        try FileManager.default.createDirectory(at: shuffled.appendingPathComponent("ground_truth"), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: truth).write(to: shuffled.appendingPathComponent("ground_truth/poses.json"))

        let out = root.appendingPathComponent("out")
        let poses = try CLIRunner.run(["poses", images.path, "-o", out.path,
                                       "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(poses.status, 0, poses.output)
        XCTAssertTrue(poses.output.contains("registered \(views)/\(views) images"), poses.output)
        // Retrieval, not every pair: at most (neighbours + window) pairs per image.
        let matched = try XCTUnwrap(poses.output.firstMatch(of: #/of (\d+) matched pairs/#).flatMap { Int($0.1) }, poses.output)
        XCTAssertLessThanOrEqual(matched, views * 20)
        XCTAssertLessThan(matched, views * (views - 1) / 2)

        // Retrieval alone picks photos that really overlap: nearly every pair it chooses verifies
        // (a random choice of as many pairs verifies about half of them on this capture).
        let retrievalOnly = try CLIRunner.run(["poses", images.path, "-o", root.appendingPathComponent("retrieval").path,
                                               "--matching", "retrieval",
                                               "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(retrievalOnly.status, 0, retrievalOnly.output)
        XCTAssertTrue(retrievalOnly.output.contains("registered \(views)/\(views) images"), retrievalOnly.output)
        let counts = try XCTUnwrap(retrievalOnly.output.firstMatch(of: #/(\d+) of (\d+) matched pairs verified/#), retrievalOnly.output)
        let verified = try XCTUnwrap(Int(counts.1)), chosen = try XCTUnwrap(Int(counts.2))
        XCTAssertGreaterThanOrEqual(Double(verified), 0.9 * Double(chosen), retrievalOnly.output)

        let evaluation = try CLIRunner.run(["evaluate-poses", "--ground-truth", shuffled.path, out.path, "--json"])
        XCTAssertEqual(evaluation.status, 0, evaluation.output)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(evaluation.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["registeredCount"] as? Int, views, evaluation.output)
        let rotation = try XCTUnwrap(report["medianRotationErrorDegrees"] as? Double, evaluation.output)
        XCTAssertLessThan(rotation, 0.1, evaluation.output)
    }
}
