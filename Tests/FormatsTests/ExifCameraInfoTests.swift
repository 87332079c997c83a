import CaptureIO
import XCTest

final class ExifCameraInfoTests: XCTestCase {
    func testPrefers35mmEquivalentOverFocalPlaneResolution() {
        let info = ExifCameraInfo(focalLengthMillimetres: 50, focalLengthIn35mmFilm: 36, focalPlaneXResolution: 100,
                                  focalPlaneResolutionUnit: 4)
        XCTAssertEqual(info.focalLengthPixels(imageWidth: 3000, imageHeight: 2000), 3000)
    }

    func testFocalPlaneResolutionInInchesAndCentimetres() throws {
        // 2540 pixels per inch = 100 pixels per mm; 1000 pixels per cm = 100 pixels per mm.
        let inch = ExifCameraInfo(focalLengthMillimetres: 20, focalPlaneXResolution: 2540, focalPlaneResolutionUnit: 2)
        XCTAssertEqual(try XCTUnwrap(inch.focalLengthPixels(imageWidth: 640, imageHeight: 480)), 2000, accuracy: 1e-9)
        let cm = ExifCameraInfo(focalLengthMillimetres: 20, focalPlaneXResolution: 1000, focalPlaneResolutionUnit: 3)
        XCTAssertEqual(try XCTUnwrap(cm.focalLengthPixels(imageWidth: 640, imageHeight: 480)), 2000, accuracy: 1e-9)
        let defaultUnit = ExifCameraInfo(focalLengthMillimetres: 20, focalPlaneXResolution: 2540)
        XCTAssertEqual(try XCTUnwrap(defaultUnit.focalLengthPixels(imageWidth: 640, imageHeight: 480)), 2000,
                       accuracy: 1e-9, "EXIF's default unit is the inch")
    }

    func testFocalPlaneResultIsScaledToTheImageWidth() throws {
        let info = ExifCameraInfo(focalLengthMillimetres: 20, focalPlaneXResolution: 100, focalPlaneResolutionUnit: 4,
                                  pixelXDimension: 4000)
        XCTAssertEqual(try XCTUnwrap(info.focalLengthPixels(imageWidth: 1000, imageHeight: 750)), 500, accuracy: 1e-9)
    }

    func testMissingOrUnusableMetadataGivesNil() {
        XCTAssertNil(ExifCameraInfo().focalLengthPixels(imageWidth: 100, imageHeight: 100))
        XCTAssertNil(ExifCameraInfo(focalLengthMillimetres: 20).focalLengthPixels(imageWidth: 100, imageHeight: 100))
        XCTAssertNil(ExifCameraInfo(focalLengthMillimetres: 20, focalPlaneXResolution: 100, focalPlaneResolutionUnit: 7)
            .focalLengthPixels(imageWidth: 100, imageHeight: 100))
        XCTAssertNil(ExifCameraInfo(focalLengthIn35mmFilm: 28).focalLengthPixels(imageWidth: 0, imageHeight: 100))
    }

    /// Focal lengths no lens has give none: a 35 mm equivalent of 65535 mm (a placeholder) or
    /// 1 mm, or a focal-plane resolution that makes one of 50 000 mm.
    func testAFocalLengthNoLensHasGivesNone() {
        for f35 in [65535.0, 1] {
            let info = ExifCameraInfo(focalLengthIn35mmFilm: f35)
            XCTAssertNil(info.focalLengthPixels(imageWidth: 3000, imageHeight: 2000), "\(f35)")
            XCTAssertEqual(info.implausibleFocalLength, "a 35 mm equivalent of \(String(format: "%g", f35)) mm")
        }
        XCTAssertNil(ExifCameraInfo(focalLengthIn35mmFilm: 28).implausibleFocalLength)
        // 4.25 mm at 1000 px/mm on a 4032 × 3024 sensor: a 36 mm equivalent; at 1000 times that resolution, 36 000 mm.
        let phone = ExifCameraInfo(focalLengthMillimetres: 4.25, focalPlaneXResolution: 1000, focalPlaneResolutionUnit: 4,
                                   pixelXDimension: 4032, pixelYDimension: 3024)
        XCTAssertNil(phone.implausibleFocalLength)
        XCTAssertEqual(phone.focalLengthPixels(imageWidth: 4032, imageHeight: 3024) ?? 0, 4250, accuracy: 1e-6)
        // A placeholder 35 mm equivalent beside a good focal-plane resolution: the latter is used.
        var placeholder = phone
        placeholder.focalLengthIn35mmFilm = 65535
        XCTAssertNil(placeholder.implausibleFocalLength)
        XCTAssertEqual(placeholder.focalLengthPixels(imageWidth: 4032, imageHeight: 3024) ?? 0, 4250, accuracy: 1e-6)
        var damaged = phone
        damaged.focalPlaneXResolution = 1_000_000
        XCTAssertNil(damaged.focalLengthPixels(imageWidth: 4032, imageHeight: 3024))
        XCTAssertTrue(damaged.implausibleFocalLength?.hasPrefix("4.25 mm with a focal-plane resolution that makes it a 35 mm equivalent of 36485 mm") == true,
                      damaged.implausibleFocalLength ?? "nil")
    }
}
