import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore
import Regression
import XCTest

final class CaptureSamplesTests: XCTestCase {
    func testAFolderBecomesSamplesInNameOrderWithMaskSidecarsAndGivenIntrinsics() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try ImageCodec.encode(RGBImage(width: 8, height: 6, fill: (10, 20, 30)))
        try photo.write(to: folder.appendingPathComponent("b.png"))
        try photo.write(to: folder.appendingPathComponent("a.png"))
        try ImageCodec.encode(GrayImage(width: 4, height: 3, fill: 255)).write(to: folder.appendingPathComponent("b_mask.png"))
        let k = PinholeIntrinsics(fx: 100, fy: 101, cx: 4, cy: 3)

        let samples = try CaptureSamples.load(imagesDirectory: folder, given: k)
        XCTAssertEqual(samples.map(\.id), [0, 1])
        XCTAssertEqual(samples.map(\.name), ["a.png", "b.png"])
        XCTAssertNil(samples[0].objectMask)
        XCTAssertEqual(samples[1].objectMask?.width, 4)
        XCTAssertEqual(samples[1].intrinsics, .given(fx: 100, fy: 101, cx: 4, cy: 3))
        XCTAssertEqual(samples[1].url, folder.appendingPathComponent("b.png"))

        let session = try PhotogrammetrySession(input: folder, intrinsics: k)
        XCTAssertEqual(session.samples.map(\.name), ["a.png", "b.png"])

        try Data("junk".utf8).write(to: folder.appendingPathComponent("a_mask.png"))
        XCTAssertThrowsError(try CaptureSamples.load(imagesDirectory: folder)) { XCTAssertTrue("\($0)".contains("a_mask.png")) }
    }
}
