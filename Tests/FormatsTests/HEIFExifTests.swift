import CaptureIO
import Foundation
import TestSupport
import XCTest

/// EXIF camera metadata read from HEIC photos (the `Exif` item of the HEIF container), made at run
/// time: a JPEG with known tags (Pillow) encoded by libheif's `heif-enc`, which carries EXIF over.
final class HEIFExifTests: XCTestCase {
    func makeFixture(in folder: URL) throws -> URL {
        try PythonTool.requireModule("PIL", pipPackage: "Pillow")
        let jpeg = folder.appendingPathComponent("tagged.jpg"), heic = folder.appendingPathComponent("tagged.heic")
        let script = """
            import sys
            from PIL import Image
            exif = Image.Exif(); exif[0x010F] = 'TestMake'; exif[0x0110] = 'TestModel'
            ifd = exif.get_ifd(0x8769); ifd[0x920A] = 4.25; ifd[0xA405] = 26
            Image.new('RGB', (64, 48), (120, 80, 40)).save(sys.argv[1], exif=exif.tobytes())
            """
        let made = try PythonTool.run(script, [jpeg.path])
        XCTAssertEqual(made.status, 0, made.output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["heif-enc", "-q", "50", "-o", heic.path, jpeg.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: heic.path) else {
            XCTFail("heif-enc (Debian libheif-examples, installed by Scripts/install-deps.sh) could not make the fixture")
            throw XCTSkip("no HEIC encoder (reported as a failure above)")
        }
        return heic
    }

    func testTheExifOfAHEICPhotoGivesItsCameraAndFocalLength() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-exif-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let heic = try makeFixture(in: folder)
        let info = try XCTUnwrap(ExifReader.read(contentsOf: heic), "the EXIF item is found")
        XCTAssertEqual(info.make, "TestMake")
        XCTAssertEqual(info.model, "TestModel")
        XCTAssertEqual(try XCTUnwrap(info.focalLengthMillimetres), 4.25, accuracy: 1e-9)
        XCTAssertEqual(info.focalLengthIn35mmFilm, 26)
    }

    func testTruncatedOrExifLessHEICGivesNothingAndNeverTraps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-exif-bad-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: try makeFixture(in: folder))
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            _ = ExifReader.read(heifData: bytes.prefix(length))  // must not trap
        }
        XCTAssertNil(ExifReader.read(heifData: bytes.prefix(40)))
        var scrambled = [UInt8](bytes)
        for k in stride(from: 16, to: scrambled.count, by: 7) { scrambled[k] ^= 0x5A }
        _ = ExifReader.read(heifData: Data(scrambled))
        XCTAssertNil(ExifReader.read(heifData: Data("not a heif file at all".utf8)))
    }
}
