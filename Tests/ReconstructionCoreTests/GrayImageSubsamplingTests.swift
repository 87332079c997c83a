import ReconstructionCore
import XCTest

/// Masks kept small: every k-th pixel, the shape kept.
final class GrayImageSubsamplingTests: XCTestCase {
    func testAnImageLongerThanTheLimitKeepsEveryKthPixelAndItsShape() {
        var image = GrayImage(width: 4032, height: 3024, fill: 0)
        for y in 1000..<2000 { for x in 1500..<2500 { image.pixels[y * 4032 + x] = 255 } }
        let small = image.subsampled(toLongerSideAtMost: 2048)
        XCTAssertEqual(small.width, 2016)
        XCTAssertEqual(small.height, 1512)
        XCTAssertEqual(small.pixels[500 * 2016 + 750], 255, "the object's corner (1500, 1000) is kept")
        XCTAssertEqual(small.pixels[499 * 2016 + 750], 0)
        XCTAssertEqual(small.pixels.filter { $0 != 0 }.count, 500 * 500)
        // Three times too long: every third pixel, rounded up.
        let third = GrayImage(width: 6001, height: 10, fill: 7).subsampled(toLongerSideAtMost: 2048)
        XCTAssertEqual(third.width, 2001)
        XCTAssertEqual(third.height, 4)
    }

    func testAnImageWithinTheLimitIsItself() {
        let image = GrayImage(width: 2048, height: 100, fill: 9)
        XCTAssertEqual(image.subsampled(toLongerSideAtMost: 2048), image)
    }
}
