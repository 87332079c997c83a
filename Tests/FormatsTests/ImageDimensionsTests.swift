import CaptureIO
import Foundation
import XCTest

/// Photo sizes come from JPEG and PNG headers without decoding.
final class ImageDimensionsTests: XCTestCase {
    func testJPEGFrameHeaderAfterAnAPPSegment() {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x06, 1, 2, 3, 4]          // SOI, APP1 with 4 bytes
        bytes += [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x02, 0xD0, 0x05, 0x00, 3]              // progressive SOF: 720 × 1280
        XCTAssertEqual(ImageDimensions.read(header: bytes), ImageDimensions(width: 1280, height: 720))
    }

    func testPNGHeader() {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0, 0, 0x01, 0x40, 0, 0, 0, 0xF0]                                     // 320 × 240
        XCTAssertEqual(ImageDimensions.read(header: bytes), ImageDimensions(width: 320, height: 240))
    }

    func testOtherOrTruncatedDataIsNil() {
        XCTAssertNil(ImageDimensions.read(header: Array("not an image".utf8)))
        XCTAssertNil(ImageDimensions.read(header: [0xFF, 0xD8, 0xFF, 0xC0, 0x00]))
        XCTAssertNil(ImageDimensions.read(header: [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x04, 0, 0]), "scan data before any frame")
    }
}
