import Foundation
import XCTest

/// `reconstruct` refuses, before any work, outputs that would spoil each other or the capture.
final class ReconstructOutputChecksTests: XCTestCase {
    func testTwoOutputsOnOnePathAreRefused() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        let model = out.appendingPathComponent("vase.glb").path
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", model, "--detail", "preview", "--model-report", model])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("-o and --model-report are both \(model)"), result.output)
        XCTAssertFalse(result.output.contains("estimating poses"), "refused before any work: \(result.output)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: model))
    }

    /// Texture images or preview pictures written into the capture would be read as photos next time.
    func testImagesAreNotWrittenAmongThePhotos() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let images = capture.appendingPathComponent("images")
        let before = try FileManager.default.contentsOfDirectory(atPath: images.path).sorted()
        let cases: [([String], String)] = [
            (["-o", capture.path], "-o would write the model's texture images into \(capture.path)"),
            (["-o", images.appendingPathComponent("vase.obj").path], "-o would write the model's texture images into \(images.path)"),
            (["-o", capture.appendingPathComponent("mesh.ply").path, "--preview", images.appendingPathComponent("look").path],
             "--preview would write the PNG pictures into \(images.path)"),
        ]
        for (arguments, expected) in cases {
            let result = try CLIRunner.run(["reconstruct", capture.path] + arguments)
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains(expected), result.output)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: images.path).sorted(), before, "nothing written among the photos")
        XCTAssertFalse(FileManager.default.fileExists(atPath: capture.appendingPathComponent("mesh.ply").path))
    }

    /// Holding out every 1000th of 30 photos holds out none: said, not silently skipped.
    func testAHoldOutStepThatHoldsOutNothingIsNamed() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", out.appendingPathComponent("vase.glb").path, "--detail", "preview",
                                        "--hold-out-every", "1000"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("warning: holding out every 1000th photo leaves none of the 30 out"), result.output)
    }

    /// The pose options of `poses` apply to `reconstruct` too, with the same checks.
    func testPoseOptionsAreCheckedAsInPoses() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        // Words are read in any case: the run gets as far as checking the size.
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", out.appendingPathComponent("mesh.ply").path, "--max-image-size", "32",
                                        "--matching", "Sequential", "--close-openings", "Never"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--max-image-size must be at least 64"), result.output)
        let help = try CLIRunner.run(["reconstruct", "--help"])
        for option in ["--matching", "--max-features", "--feature-sensitivity", "--refine-intrinsics"] {
            XCTAssertTrue(help.output.contains(option), option)
        }
    }
}
