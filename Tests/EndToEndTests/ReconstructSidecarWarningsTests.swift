import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Sidecars that cannot be used are named in a warning, and the run goes on without them.
final class ReconstructSidecarWarningsTests: XCTestCase {
    func testAnUnreadableGravitySidecarAndAMaskOfTheWrongShapeAreNamed() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let copy = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("capture")
        try FileManager.default.copyItem(at: capture.appendingPathComponent("images"), to: copy)
        let gravity = copy.appendingPathComponent("0005_gravity.txt")
        try "abc".write(to: gravity, atomically: true, encoding: .utf8)
        // A square mask for a 4:3 photo would be stretched over it.
        let mask = copy.appendingPathComponent("0006_mask.png")
        try ImageCodec.encode(GrayImage(width: 100, height: 100, fill: 255)).write(to: mask)
        let result = try CLIRunner.run(["reconstruct", copy.path, "-o", copy.deletingLastPathComponent().appendingPathComponent("mesh.ply").path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("warning: \(gravity.path): a gravity sidecar holds three numbers \"x y z\", found \"abc\"; "
                                             + "the photo's gravity is not used"), result.output)
        // Before the features, which it would cut stretched: the photo is skipped, saying why.
        XCTAssertTrue(result.output.contains("warning: skipped 0006.jpg: its object mask 0006_mask.png is 100×100, which does not have the "
                                             + "shape of its 320×240 photo"), result.output)
        // With known poses, only stereo would use the mask: the photo is used whole.
        let known = try CLIRunner.run(["reconstruct", copy.path, "-o", copy.deletingLastPathComponent().appendingPathComponent("known.ply").path,
                                       "--poses", capture.appendingPathComponent("ground_truth/poses.json").path,
                                       "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(known.status, 0, known.output)
        XCTAssertTrue(known.output.contains("warning: \(mask.path): the mask is 100×100, which does not have the shape of its 320×240 photo; "
                                            + "the photo is used whole"), known.output)
    }

    /// Masks checked as a set before stereo: all empty is an error at once (it was found only
    /// after stereo and fusion, as "no surface"); mostly inverted (the border is the object) is a
    /// warning (inverted masks made a disc 7 mm thick, silently).
    func testEmptyMasksAreAnErrorBeforeStereoAndInvertedMasksAWarning() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let root = try BatchCaptures.temporaryDirectory(self)
        func copy(_ name: String, masks change: (GrayImage) -> GrayImage) throws -> URL {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.copyItem(at: capture.appendingPathComponent("images"), to: folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix("_mask.png") {
                let url = folder.appendingPathComponent(file)
                try ImageCodec.encode(change(try ImageCodec.decodeGray(Data(contentsOf: url)))).write(to: url)
            }
            return folder
        }
        let empty = try copy("empty") { GrayImage(width: $0.width, height: $0.height, fill: 0) }
        let refused = try CLIRunner.run(["reconstruct", empty.path, "-o", root.appendingPathComponent("empty.ply").path])
        XCTAssertEqual(refused.status, 1, refused.output)
        XCTAssertTrue(refused.output.contains("every object mask (30, e.g. 0001_mask.png) marks no pixel as the object"), refused.output)
        XCTAssertFalse(refused.output.contains("dense:"), "refused before stereo: \(refused.output)")

        let inverted = try copy("inverted") { GrayImage(width: $0.width, height: $0.height, pixels: $0.pixels.map { $0 == 0 ? 255 : 0 }) }
        let warned = try CLIRunner.run(["reconstruct", inverted.path, "-o", root.appendingPathComponent("inverted.ply").path])
        XCTAssertTrue(warned.output.contains("30 of 30 object masks (e.g. 0001_mask.png) mark their photo's whole border as the object: "
                                             + "are they inverted?"), warned.output)
        let fine = try CLIRunner.run(["reconstruct", capture.path, "-o", root.appendingPathComponent("fine.ply").path])
        XCTAssertEqual(fine.status, 0, fine.output)
        XCTAssertFalse(fine.output.contains("inverted"), fine.output)
    }
}
