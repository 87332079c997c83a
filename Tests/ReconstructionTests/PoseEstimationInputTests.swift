import Foundation
import Reconstruction
import XCTest

final class PoseEstimationInputTests: XCTestCase {
    func testFewerThanTwoUsableImagesIsAClearErrorNamingTheBadFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pe-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = pgm(width: 64, height: 64) { x, y in UInt8((x * x + y * 3) % 256) }
        try good.write(to: dir.appendingPathComponent("good.pgm"))
        try Data().write(to: dir.appendingPathComponent("empty.jpg"))
        try Data("hello".utf8).write(to: dir.appendingPathComponent("text.png"))
        let sources = ["good.pgm", "empty.jpg", "text.png", "missing.jpg"].map {
            ImageSource(name: $0, url: dir.appendingPathComponent($0), prior: .unknown)
        }
        XCTAssertThrowsError(try PoseEstimation().run(sources)) { error in
            guard case PoseEstimation.PoseEstimationError.tooFewImages(let usable, let invalid) = error else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertEqual(usable, 1)
            XCTAssertEqual(invalid.map(\.name), ["empty.jpg", "text.png", "missing.jpg"])
            XCTAssertTrue("\(error)".contains("empty.jpg"))
            XCTAssertEqual(invalid.first?.reason, "the file is empty (0 bytes)")
        }
    }
}
