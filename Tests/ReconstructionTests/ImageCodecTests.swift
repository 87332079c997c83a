import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

final class ImageCodecTests: XCTestCase {
    /// Smooth ramps plus, unless `smooth`, a sawtooth in blue (hard for JPEG, exact for PNG).
    private func gradient(width: Int, height: Int, smooth: Bool = false) -> RGBImage {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), smooth ? UInt8((x + y) * 2 % 256) : UInt8((x * y) % 256)]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func testPNGRoundTripIsExactAndKeepsRGBOrder() throws {
        let image = gradient(width: 37, height: 21)
        let decoded = try ImageCodec.decodeRGB(try ImageCodec.encode(image, as: .png))
        XCTAssertEqual(decoded, image)
    }

    func testJPEGRoundTripIsCloseAndReductionDividesTheSize() throws {
        let image = gradient(width: 64, height: 48, smooth: true)
        let data = try ImageCodec.encode(image, as: .jpeg(quality: 95))
        XCTAssertEqual(Array(data.prefix(2)), [0xFF, 0xD8])
        let decoded = try ImageCodec.decodeRGB(data)
        let meanError = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / image.pixels.count
        XCTAssertLessThan(meanError, 4)
        let half = try ImageCodec.decodeRGB(data, reduction: 2)
        XCTAssertEqual([half.width, half.height], [32, 24])
    }

    func testGrayAnd16BitAndFloatSamplesRoundTrip() throws {
        let gray = GrayImage(width: 5, height: 3, pixels: (0..<15).map { UInt8($0 * 17) })
        XCTAssertEqual(try ImageCodec.decodeGray(try ImageCodec.encode(gray)), gray)

        let millimetres: [UInt16] = (0..<12).map { UInt16($0 * 5000) }
        let png16 = try ImageCodec.decodeUnchanged(try ImageCodec.encode16(millimetres, width: 4, height: 3))
        XCTAssertEqual(png16, .init(width: 4, height: 3, channels: 1, samples: .uint16(millimetres)))

        let metres: [Float] = [0.5, 1.25, -1, .nan, 3e3, 0]
        let tiff = try ImageCodec.decodeUnchanged(try ImageCodec.encodeFloatTIFF(metres, width: 3, height: 2))
        guard case .float32(let back) = tiff.samples else { return XCTFail("float TIFF decoded as \(tiff.samples)") }
        XCTAssertEqual(back.count, 6)
        for (a, b) in zip(back, metres) { XCTAssertTrue(a == b || (a.isNaN && b.isNaN)) }
    }

    func testBadInputIsAnErrorWithAReason() {
        XCTAssertThrowsError(try ImageCodec.decodeRGB(Data("not an image".utf8))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
        }
        XCTAssertThrowsError(try ImageCodec.decodeRGB(Data())) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try ImageCodec.decodeRGB(Data([0x89, 0x50]), reduction: 3))
        XCTAssertThrowsError(try ImageCodec.encode16([1, 2, 3], width: 2, height: 2)) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try ImageCodec.encode(RGBImage(width: 2, height: 2), as: .jpeg(quality: 0)))
    }
}
