import Foundation
import Reconstruction
import ReconstructionCore
import TestSupport
import XCTest

/// HEIC through libheif: photos, embedded depth, and bad input. Fixtures are encoded at run time
/// by heif-enc (libheif-examples); without it these tests fail, naming the package.
final class HEICDecodingTests: XCTestCase {
    /// 96×64 (a size heif-enc codes without a grid): smooth colour ramps.
    static func photo() -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<96 { pixels += [UInt8(x * 255 / 95), UInt8(y * 255 / 63), UInt8((x + y) % 160 + 40)] }
        }
        return RGBImage(width: 96, height: 64, pixels: pixels)
    }

    /// 64×64 depth samples rising from 0 at the left to 255 at the right.
    static let depthSamples = GrayImage(width: 64, height: 64, pixels: (0..<(64 * 64)).map { UInt8(($0 % 64) * 255 / 63) })

    static func heicPhoto() throws -> Data { try HEIFFixture.encode(png: ImageCodec.encode(photo()), quality: 95) }

    static func heicWithDepth(_ representation: HEIFFixture.DepthRepresentation?) throws -> Data {
        let depth = try HEIFFixture.encode(png: ImageCodec.encode(depthSamples), lossless: true)
        return try HEIFFixture.withDepth(photo: heicPhoto(), depth: depth, representation: representation)
    }

    override func setUpWithError() throws {
        if HEIFFixture.encoder == nil { XCTFail("\(HEIFFixture.EncoderMissing())") }
    }

    func testAHEICPhotoDecodesToItsRGBPixels() throws {
        let data = try Self.heicPhoto()
        XCTAssertEqual(String(decoding: data[4..<8], as: UTF8.self), "ftyp")
        let decoded = try ImageCodec.decodeRGB(data)
        XCTAssertEqual([decoded.width, decoded.height], [96, 64])
        let meanError = zip(decoded.pixels, Self.photo().pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / decoded.pixels.count
        XCTAssertLessThan(meanError, 6)
    }

    func testAHEICPhotoDecodesToGreyAndReducedLikeOtherFormats() throws {
        let data = try Self.heicPhoto()
        let grey = try ImageCodec.decodeGray(data)
        XCTAssertEqual([grey.width, grey.height], [96, 64])
        let quarter = try ImageCodec.decodeRGB(data, reduction: 4)
        XCTAssertEqual([quarter.width, quarter.height], [24, 16])
        let unchanged = try ImageCodec.decodeUnchanged(data)
        XCTAssertEqual(unchanged.channels, 3)
    }

    func testEmbeddedInverseZDepthReadsAsMetres() throws {
        let data = try Self.heicWithDepth(.init(type: 0, zNear: 0.5, zFar: 2))
        XCTAssertEqual(try ImageCodec.decodeRGB(data).width, 96, "the photo still decodes")
        let depth = try XCTUnwrap(try ImageCodec.decodeHEIFDepth(data))
        XCTAssertEqual([depth.width, depth.height, depth.bitDepth], [64, 64, 8])
        XCTAssertEqual(depth.representation?.type, .uniformInverseZ)
        XCTAssertEqual(depth.representation?.zNear ?? 0, 0.5, accuracy: 1e-4)
        XCTAssertEqual(depth.representation?.zFar ?? 0, 2, accuracy: 1e-4)
        let metres = try depth.metres().get()
        // Sample 0 is z-far, sample 255 z-near; in between 1/z is linear in the sample.
        XCTAssertEqual(Double(metres[0, 10]), 2, accuracy: 0.02)
        XCTAssertEqual(Double(metres[63, 10]), 0.5, accuracy: 0.01)
        let v = Double(Self.depthSamples.pixels[32]) / 255
        XCTAssertEqual(Double(metres[32, 10]), 1 / (0.5 + v * 1.5), accuracy: 0.02)
    }

    func testEmbeddedUniformZDepthIsLinearFromNearToFar() throws {
        let depth = try XCTUnwrap(try ImageCodec.decodeHEIFDepth(Self.heicWithDepth(.init(type: 2, zNear: 0.25, zFar: 4))))
        let metres = try depth.metres().get()
        XCTAssertEqual(Double(metres[0, 0]), 0.25, accuracy: 0.02)
        XCTAssertEqual(Double(metres[63, 0]), 4, accuracy: 0.05)
    }

    func testDepthWithoutRepresentationOrAsDisparityIsReadButNotMetric() throws {
        let bare = try XCTUnwrap(try ImageCodec.decodeHEIFDepth(Self.heicWithDepth(nil)))
        XCTAssertNil(bare.representation)
        XCTAssertThrowsError(try bare.metres().get()) { XCTAssertTrue("\($0)".contains("no depth representation"), "\($0)") }
        let disparity = try XCTUnwrap(try ImageCodec.decodeHEIFDepth(Self.heicWithDepth(.init(type: 1, zNear: 1, zFar: 2))))
        XCTAssertThrowsError(try disparity.metres().get()) { XCTAssertTrue("\($0)".contains("disparity"), "\($0)") }
    }

    func testAPhotoWithoutDepthHasNone() throws {
        XCTAssertNil(try ImageCodec.decodeHEIFDepth(Self.heicPhoto()))
    }

    func testTruncatedHEICFailsWithAHEIFMessage() throws {
        let data = try Self.heicPhoto()
        for keep in [data.count / 2, data.count - 40, 40] {
            XCTAssertThrowsError(try ImageCodec.decodeRGB(data.prefix(keep)), "kept \(keep) of \(data.count) bytes") { error in
                XCTAssertTrue("\(error)".contains("HEIF"), "\(error)")
            }
        }
    }

    func testBytesAreRoutedByContentNotByName() throws {
        // Not HEIF: depth reading refuses it; a PNG decodes as a PNG whatever it is called.
        let png = try ImageCodec.encode(Self.photo())
        XCTAssertThrowsError(try ImageCodec.decodeHEIFDepth(png)) { XCTAssertTrue("\($0)".contains("not a HEIF file"), "\($0)") }
        XCTAssertThrowsError(try ImageCodec.decodeHEIFDepth(Data("junk that is not an image".utf8)))
        XCTAssertEqual(try ImageCodec.decodeRGB(png).width, 96)
    }

    func testFeaturesAreExtractedFromHEIC() throws {
        var pixels: [UInt8] = []
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<(256 * 192) {
            let v = UInt8.random(in: 0...255, using: &generator)
            pixels += [v, v, v]
        }
        let noise = RGBImage(width: 256, height: 192, pixels: pixels)
        let heic = try HEIFFixture.encode(png: ImageCodec.encode(noise), quality: 95)
        let features = try FeatureExtractor().extract(encoded: heic)
        XCTAssertEqual([features.imageWidth, features.imageHeight], [256, 192])
        XCTAssertGreaterThan(features.count, 50)
    }
}
