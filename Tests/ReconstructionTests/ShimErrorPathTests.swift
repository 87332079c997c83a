import Foundation
import Reconstruction
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

    func testMatchingEmptyDescriptorSetsGivesNoMatches() throws {
        XCTAssertEqual(try DescriptorMatcher().match([], []).count, 0)
        XCTAssertEqual(try DescriptorMatcher().match([UInt8](repeating: 1, count: 128), []).count, 0)
    }
}
