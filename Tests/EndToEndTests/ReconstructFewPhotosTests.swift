import Foundation
import XCTest

/// Two registered photos without depth cannot give stereo depth (a depth is kept only where two
/// other photos agree): the failure says so, in `reconstruct` and in the session's error alike.
final class ReconstructFewPhotosTests: XCTestCase {
    func testTwoPhotosWithoutDepthFailSayingStereoNeedsThree() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let pair = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        for name in ["0001.jpg", "0002.jpg", "K.txt"] {  // no depth, mask or gravity sidecars
            try FileManager.default.copyItem(at: capture.appendingPathComponent("images/\(name)"), to: pair.appendingPathComponent(name))
        }
        let result = try CLIRunner.run(["reconstruct", pair.path, "-o", pair.appendingPathComponent("mesh.ply").path,
                                        "--intrinsics-file", pair.appendingPathComponent("K.txt").path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("registered 2/2 images"), result.output)
        XCTAssertTrue(result.output.contains("needs at least 3 registered photos of the surface (2 registered)"), result.output)
        XCTAssertFalse(result.output.contains("dense stereo on"), "known before stereo runs: \(result.output)")

        // Without intrinsics, the warning `poses` gives about the focal length comes too (the session gives it).
        let uncalibrated = try CLIRunner.run(["reconstruct", pair.path, "-o", pair.appendingPathComponent("mesh2.ply").path])
        XCTAssertEqual(uncalibrated.status, 1, uncalibrated.output)
        XCTAssertTrue(uncalibrated.output.contains("warning: the focal length was self-calibrated from only 2 photos"), uncalibrated.output)
    }
}
