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
        XCTAssertTrue(result.output.contains("warning: \(mask.path): the mask is 100×100, which does not have the shape of its 320×240 photo; "
                                             + "the photo is used whole"), result.output)
    }
}
