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
}
