import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The C interface's failure paths return errors; none of them may crash.
final class ShimErrorPathTests: XCTestCase {
    func testEmptyBufferIsAnInvalidArgument() {
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data())) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
    }

    func testCorruptImageBytesAreADecodeError() {
        var rng = SplitMix64(seed: 9)
        let garbage = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: garbage)) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
        }
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data("not an image at all\n".utf8)))
    }

    func testTruncatedImagesNeverCrash() {
        let whole = pgm(width: 64, height: 64) { x, y in UInt8((x * 7 + y * 13) % 256) }
        // A JPEG-looking header with nothing after it, and every truncation of a valid PGM.
        _ = try? FeatureExtractor().extract(encoded: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]))
        for length in stride(from: 1, to: whole.count, by: 97) {
            _ = try? FeatureExtractor().extract(encoded: whole.prefix(length))
        }
    }

    /// libjpeg would decode a cut-off JPEG with grey rows; the shim must call it corrupt instead,
    /// while still accepting data after the end-of-image marker (motion photos, vendor trailers).
    func testTruncatedJPEGIsADecodeErrorButTrailingDataIsAccepted() throws {
        let jpeg = Self.minimalJPEG
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg))
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg + Data("trailer after EOI".utf8)))
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: jpeg.prefix(jpeg.count - 40))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
            XCTAssertTrue("\(error)".contains("truncated"))
        }
    }

    /// Bytes scrambled in the middle of a JPEG's image data, its header and end marker intact:
    /// libjpeg would decode it with grey or garbled blocks and only a warning; the shim calls it
    /// corrupt. The same photo intact, and with a few bytes of padding before its end marker (some
    /// encoders leave them), decodes.
    func testJPEGDataDamagedMidFileIsADecodeError() throws {
        let photo = RGBImage(width: 256, height: 192, pixels: (0..<(256 * 192 * 3)).map { i in
            let x = (i / 3) % 256, y = (i / 3) / 256
            return UInt8(truncatingIfNeeded: (x * x / 7 + y * 11 + (x ^ y) * 3 + i % 3 * 40) % 256)
        })
        let jpeg = try ImageCodec.encode(photo, as: .jpeg(quality: 90))
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg))
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg.dropLast(2) + Data([0, 0, 0, 0xFF, 0xD9])))
        for seed in 1...5 {
            var rng = SplitMix64(seed: UInt64(seed))
            var damaged = [UInt8](jpeg)
            let start = damaged.count * (40 + 8 * seed) / 100
            for i in start..<(start + 48) { damaged[i] = UInt8(truncatingIfNeeded: rng.next() % 255) }  // no 0xFF
            XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data(damaged)), "seed \(seed)") { error in
                XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
                XCTAssertTrue("\(error)".contains("corrupt JPEG"), "\(error)")
            }
        }
    }

    /// libpng would print its own complaint about a cut-off PNG; the shim finds the truncation
    /// first (the chunks stop before IEND) and says so, and data after IEND is accepted.
    func testTruncatedPNGIsADecodeErrorButTrailingDataIsAccepted() throws {
        let png = try ImageCodec.encode16((0..<(32 * 32)).map { UInt16($0 * 61 % 65536) }, width: 32, height: 32)
        XCTAssertEqual(try ImageCodec.decodeUnchanged(png).width, 32)
        XCTAssertEqual(try ImageCodec.decodeUnchanged(png + Data("trailer".utf8)).width, 32)
        for cut in [png.count - 1, png.count - 12, png.count / 2, 40, 12] {
            XCTAssertThrowsError(try ImageCodec.decodeUnchanged(png.prefix(cut)), "cut at \(cut)") { error in
                XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
                XCTAssertTrue("\(error)".contains("truncated PNG"), "\(error)")
            }
        }
    }

    /// OpenCV refuses a header that claims more than 2^30 pixels; the message says the image is
    /// too large, not OpenCV's assertion text, and carries no trailing newline.
    func testAJPEGClaimingAHugeSizeIsADecodeErrorSayingSo() throws {
        var bytes = [UInt8](Self.minimalJPEG)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        // SOF0: marker, length (2), precision (1), height (2), width (2).
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 × 60000
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data(bytes))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
            XCTAssertTrue("\(error)".contains("image too large"), "\(error)")
            XCTAssertFalse("\(error)".hasSuffix("\n"))
        }
    }

    /// A 16×16 grey baseline JPEG (written once with Pillow, quality 90; 8-bit greyscale).
    static let minimalJPEG = Data(base64Encoded: """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/wAALCAAQABABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACiiiv/Z
        """, options: .ignoreUnknownCharacters)!

    func testMatchingEmptyDescriptorSetsGivesNoMatches() throws {
        XCTAssertEqual(try DescriptorMatcher().match([], []).count, 0)
        XCTAssertEqual(try DescriptorMatcher().match([UInt8](repeating: 1, count: 128), []).count, 0)
    }
}
