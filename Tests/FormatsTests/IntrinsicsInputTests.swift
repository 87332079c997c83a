import CaptureIO
import Foundation
import ReconstructionCore
import XCTest

final class IntrinsicsInputTests: XCTestCase {
    func testParsesFourCommaSeparatedNumbersWithSpaces() throws {
        let k = try PinholeIntrinsics.parse(commaSeparated: " 2759.48, 2764.16 ,1520.69,1006.81 ")
        XCTAssertEqual(k, PinholeIntrinsics(fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81))
    }

    func testParsesExponentNotation() throws {
        XCTAssertEqual(try PinholeIntrinsics.parse(commaSeparated: "1e3,1.5e3,320,240"),
                       PinholeIntrinsics(fx: 1000, fy: 1500, cx: 320, cy: 240))
    }

    func testRejectsThreeNumbers() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,320,240")) { error in
            XCTAssertTrue(String(describing: error).contains("expected 4"), "\(error)")
        }
    }

    func testRejectsFiveNumbersAndEmptyFields() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,1000,320,240,1"))
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,,320,240"))
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: ""))
    }

    func testRejectsNaNAndInfinity() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "nan,1000,320,240"))
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,1000,inf,240"))
    }

    func testRejectsNegativeOrZeroFocalLength() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "-1000,1000,320,240")) { error in
            XCTAssertTrue(String(describing: error).contains("positive"), "\(error)")
        }
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,0,320,240"))
    }

    /// A K in normalised units (fx 0.9) ran to poses 9° off after only a warning; no lens has 10⁹ px.
    func testRejectsFocalLengthsNoLensHas() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "0.9,0.9,0.5,0.33")) { error in
            XCTAssertTrue(String(describing: error).contains("focal lengths under 1 px (fx = 0.9, fy = 0.9): K must be in pixels"), "\(error)")
        }
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1e9,1e9,1536,1024")) { error in
            XCTAssertTrue(String(describing: error).contains("beyond any lens"), "\(error)")
        }
        XCTAssertNoThrow(try PinholeIntrinsics.parse(commaSeparated: "1,1,0.5,0.5"))
    }

    func testAKFileMayHoldCommentLines() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("K-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# K of fountain-P11\n2759.48 0 1520.69\n  # row two\n0 2764.16 1006.81\n0 0 1\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try PinholeIntrinsics.load(kFile: file), PinholeIntrinsics(fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81))
    }

    func testRejectsNonNumbersNamingTheField() {
        XCTAssertThrowsError(try PinholeIntrinsics.parse(commaSeparated: "1000,1000,abc,240")) { error in
            XCTAssertTrue(String(describing: error).contains("cx"), "\(error)")
        }
    }

    func testLoadsStrechaStyleKFileWithCarriageReturns() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("K.txt")
        try "2759.48 0 1520.69 \r\n0 2764.16 1006.81 \r\n0 0 1 ".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try PinholeIntrinsics.load(kFile: file),
                       PinholeIntrinsics(fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81))
    }

    func testMalformedKFileErrorNamesTheFile() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("broken-K.txt")
        try "2759.48 0 1520.69\n0 2764.16 1006.81\n0 0".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: file)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("broken-K.txt"), text)
            XCTAssertTrue(text.contains("9 numbers"), text)
        }
    }

    func testAFolderGivenAsTheKFileIsNamedAsOne() throws {
        let folder = try makeTemporaryDirectory(self)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: folder)) { error in
            XCTAssertEqual("\(error)", "\(folder.path): is a folder; give the K file itself (e.g. \(folder.appendingPathComponent("K.txt").path))")
        }
    }

    func testKFileWithNonZeroSkewIsRejected() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("skewed.txt")
        try "1000 2 320\n0 1000 240\n0 0 1\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: file)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("skew") && text.contains("skewed.txt"), text)
        }
    }

    func testKFileWithBadBottomRowOrLowerEntryIsRejected() throws {
        let directory = try makeTemporaryDirectory(self)
        let badBottom = directory.appendingPathComponent("bottom.txt")
        try "1000 0 320\n0 1000 240\n0 0 2\n".write(to: badBottom, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: badBottom)) { error in
            XCTAssertTrue(String(describing: error).contains("K[2][2]"), "\(error)")
        }
        let badLower = directory.appendingPathComponent("lower.txt")
        try "1000 0 320\n0.5 1000 240\n0 0 1\n".write(to: badLower, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: badLower)) { error in
            XCTAssertTrue(String(describing: error).contains("K[1][0]"), "\(error)")
        }
    }

    func testKFileWithNonNumberOrNegativeFocalIsRejected() throws {
        let directory = try makeTemporaryDirectory(self)
        let word = directory.appendingPathComponent("word.txt")
        try "1000 0 320\n0 f 240\n0 0 1\n".write(to: word, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: word)) { error in
            XCTAssertTrue(String(describing: error).contains("word.txt"), "\(error)")
        }
        let negative = directory.appendingPathComponent("negative.txt")
        try "-1000 0 320\n0 1000 240\n0 0 1\n".write(to: negative, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: negative))
    }

    func testMissingKFileErrorNamesTheFile() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("absent-K.txt")
        XCTAssertThrowsError(try PinholeIntrinsics.load(kFile: file)) { error in
            XCTAssertTrue(String(describing: error).contains("absent-K.txt"), "\(error)")
        }
    }

    func testConvertsToCameraIntrinsicsWithoutDistortion() {
        let k = PinholeIntrinsics(fx: 1000, fy: 1001, cx: 320, cy: 240).cameraIntrinsics(width: 640, height: 480)
        XCTAssertEqual(k, CameraIntrinsics(width: 640, height: 480, fx: 1000, fy: 1001, cx: 320, cy: 240))
        XCTAssertFalse(k.hasDistortion)
    }

    func testLoadsTheSharedStrechaKFile() throws {
        guard let scene = sharedFountainScene() else { throw XCTSkip("shared Strecha data absent") }
        let k = try PinholeIntrinsics.load(kFile: scene.appendingPathComponent("images/K.txt"))
        XCTAssertEqual(k, PinholeIntrinsics(fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81))
    }
}
