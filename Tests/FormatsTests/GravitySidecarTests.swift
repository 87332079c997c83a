import CaptureIO
import Foundation
import ReconstructionCore
import XCTest

final class GravitySidecarTests: XCTestCase {
    func testReadsMissingAndRejectsBadSidecarsByName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gravity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("0001.jpg")
        XCTAssertNil(try GravitySidecar.load(besides: photo))
        try "0.01 0.98 -0.2\n".write(to: folder.appendingPathComponent("0001_gravity.txt"), atomically: true, encoding: .utf8)
        let g = try XCTUnwrap(try GravitySidecar.load(besides: photo))
        XCTAssertEqual(g.y, 0.98, accuracy: 1e-12)
        for (name, text) in [("0002", "1 2"), ("0003", "nan 0 1"), ("0004", "0 0 0"), ("0005", "up")] {
            try text.write(to: folder.appendingPathComponent("\(name)_gravity.txt"), atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try GravitySidecar.load(besides: folder.appendingPathComponent("\(name).png"))) { error in
                XCTAssertTrue("\(error)".contains("\(name)_gravity.txt"), "\(error)")
            }
        }
    }
}
