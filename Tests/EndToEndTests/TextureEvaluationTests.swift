import Foundation
import XCTest

/// `evaluate --model` scores a written GLB against held-out photos through the cameras that
/// `reconstruct --poses-output` wrote in the model's frame, and agrees with the PSNR the
/// reconstruction measured in memory (the GLB round trip and the model frame lose nothing).
final class TextureEvaluationTests: XCTestCase {
    func testEvaluateScoresAWrittenModelLikeTheReconstructionDid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("texture-eval-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("capture").path
        let synth = try CLIRunner.run(["synth", "textured-vase", "-o", capture, "--views", "16", "--seed", "2", "--size", "480x360"])
        XCTAssertEqual(synth.status, 0, synth.output)
        let model = folder.appendingPathComponent("vase.glb").path, report = folder.appendingPathComponent("report.json").path
        let poses = folder.appendingPathComponent("poses").path
        let built = try CLIRunner.run(["reconstruct", capture, "-o", model, "--detail", "preview", "--hold-out-every", "4",
                                       "--model-report", report, "--poses-output", poses,
                                       "--intrinsics-file", capture + "/images/K.txt"])
        XCTAssertEqual(built.status, 0, built.output)
        // Preview's stereo size (768 px) is larger than these photos: they are used as they are, and said so.
        XCTAssertTrue(built.output.contains("photos at their size (at most 480 px)"), "preview's stereo size: \(built.output)")
        let measured = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let inMemory = try XCTUnwrap(measured["meanPSNR"] as? Double)

        let evaluated = try CLIRunner.run(["evaluate", "--ground-truth", capture, "--model", model, "--model-poses", poses,
                                           "--model-report", report, "--json"])
        XCTAssertEqual(evaluated.status, 0, evaluated.output)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(evaluated.output.utf8)) as? [String: Any])
        let fromFile = try XCTUnwrap(json["meanTexturePSNR"] as? Double)
        XCTAssertEqual(fromFile, inMemory, accuracy: 0.05)
        XCTAssertGreaterThan(fromFile, 18, "the texture resembles the held-out photos")
        let views = try XCTUnwrap((json["texture"] as? [String: Any])?["views"] as? [[String: Any]])
        let heldOut = try XCTUnwrap((measured["fidelity"] as? [String: Any])?["views"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(heldOut.count, 2)
        XCTAssertEqual(views.compactMap { $0["name"] as? String }, heldOut.compactMap { $0["name"] as? String })

        let missing = try CLIRunner.run(["evaluate", "--ground-truth", capture, "--model", model, "--model-poses", poses,
                                         "--held-out", "nope.jpg"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("nope.jpg"), missing.output)

        // A held-out photo gone from the capture is named with the reason, not Foundation's error text.
        let gone = try XCTUnwrap(heldOut.first?["name"] as? String)
        try FileManager.default.removeItem(atPath: capture + "/images/" + gone)
        let withoutPhoto = try CLIRunner.run(["evaluate", "--ground-truth", capture, "--model", model, "--model-poses", poses,
                                              "--model-report", report])
        XCTAssertNotEqual(withoutPhoto.status, 0)
        XCTAssertTrue(withoutPhoto.output.contains("held-out photo \(capture)/images/\(gone) cannot be read: it does not exist"), withoutPhoto.output)
        XCTAssertFalse(withoutPhoto.output.contains("NSCocoaErrorDomain"), withoutPhoto.output)
    }
}
