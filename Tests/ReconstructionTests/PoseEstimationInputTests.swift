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

    /// Photos skipped for one reason share a line of the error (a K that fit none of 11 photos
    /// repeated its sentence 11 times).
    func testPhotosSkippedForOneReasonShareALine() {
        let reason = "the given K cannot describe this 1024×683 photo"
        let invalid = (0..<6).map { PoseEstimation.InvalidImage(name: "000\($0).jpg", reason: reason) } + [PoseEstimation.InvalidImage(name: "x.jpg", reason: "empty")]
        let text = "\(PoseEstimation.PoseEstimationError.tooFewImages(usable: 0, invalid: invalid))"
        XCTAssertEqual(text, "need at least 2 usable images, found 0; skipped:\n  0000.jpg, 0001.jpg, 0002.jpg, 0003.jpg, 0004.jpg, 0005.jpg (6 photos): \(reason)"
                       + "\n  x.jpg: empty")
    }

    /// The same photo under two names adds no view: the copy is set aside, naming the original,
    /// and a photo of the same texture shifted by a few pixels is kept.
    func testACopyOfAPhotoIsSetAsideNamingTheOriginal() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pe-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(192 * 192)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let photo = pgm(width: 192, height: 192) { x, y in noise[(y / 3) * 192 + x / 3] }
        try photo.write(to: dir.appendingPathComponent("a.pgm"))
        try photo.write(to: dir.appendingPathComponent("b.pgm"))
        try pgm(width: 192, height: 192) { x, y in noise[(y / 3) * 192 + x / 3 + 1] }.write(to: dir.appendingPathComponent("c.pgm"))
        let sources = ["a.pgm", "b.pgm", "c.pgm"].map { ImageSource(name: $0, url: dir.appendingPathComponent($0), prior: .unknown) }

        let features = try PoseEstimation().extractFeatures(from: sources)
        XCTAssertEqual(features.usableIndices, [0, 2])
        XCTAssertEqual(features.invalidImages.map(\.name), ["b.pgm"])
        XCTAssertEqual(features.invalidImages.first?.reason, "the same photo as a.pgm (identical features); it is used once")
    }

    /// Copies named as file managers name them sort before the original ("IMG_1 copy.jpg" <
    /// "IMG_1.jpg"): the original's name is the one kept, and the copies name it.
    func testOfIdenticalPhotosTheOneNamedLikeTheOriginalIsKept() {
        let photo = ImageFeatures(imageWidth: 8, imageHeight: 8, positions: [1, 2], scales: [1],
                                  descriptors: [UInt8](repeating: 7, count: 128), colors: [0, 0, 0])
        let other = ImageFeatures(imageWidth: 8, imageHeight: 8, positions: [3, 2], scales: [1],
                                  descriptors: [UInt8](repeating: 7, count: 128), colors: [0, 0, 0])
        let names = ["IMG_1 (1).jpg", "IMG_1 copy.jpg", "IMG_1.jpg", "IMG_2.jpg", "IMG_1-2.jpg"]
        let features = FeaturesStageOutput(images: [.success(photo), .success(photo), .success(photo), .success(other), .success(photo)])
            .withCopiesSetAside(names: names)
        XCTAssertEqual(features.usableIndices, [2, 3])
        XCTAssertEqual(features.invalidImages.map(\.name), ["IMG_1 (1).jpg", "IMG_1 copy.jpg", "IMG_1-2.jpg"])
        XCTAssertTrue(features.invalidImages.allSatisfy { $0.reason.hasPrefix("the same photo as IMG_1.jpg ") })
    }
}
