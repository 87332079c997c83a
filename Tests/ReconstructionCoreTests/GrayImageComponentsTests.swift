import ReconstructionCore
import XCTest

/// `GrayImage.keepingLargeComponents`: speckles go, the object's region stays exactly as it was.
final class GrayImageComponentsTests: XCTestCase {
    func testSpecklesAreRemovedAndTheLargeRegionKept() {
        var mask = GrayImage(width: 40, height: 30, fill: 0)
        for y in 5..<25 { for x in 10..<30 { mask.pixels[y * 40 + x] = 255 } }  // the object: 400 pixels
        mask.pixels[25 * 40 + 30] = 200  // touches the object's corner diagonally: part of it
        for (x, y) in [(2, 2), (3, 2), (37, 27), (35, 5)] { mask.pixels[y * 40 + x] = 255 }  // speckles of 2, 1 and 1 pixels
        for y in 0..<4 { for x in 34..<39 { mask.pixels[y * 40 + x] = 255 } }  // a piece of 20 pixels: 5 % of the object

        let cleaned = mask.keepingLargeComponents(minimumFraction: 0.01)
        XCTAssertEqual(cleaned.pixels.filter { $0 != 0 }.count, 401 + 20, "the 1 % bar keeps the 20-pixel piece")
        XCTAssertEqual(cleaned.pixels[25 * 40 + 30], 200, "values are kept as they were")
        XCTAssertEqual(cleaned.pixels[2 * 40 + 2], 0)
        XCTAssertEqual(cleaned.pixels[27 * 40 + 37], 0)

        let strict = mask.keepingLargeComponents(minimumFraction: 0.1)
        XCTAssertEqual(strict.pixels.filter { $0 != 0 }.count, 401)
        XCTAssertEqual(GrayImage(width: 3, height: 2, fill: 0).keepingLargeComponents(minimumFraction: 0.5).pixels, [0, 0, 0, 0, 0, 0])
    }
}
