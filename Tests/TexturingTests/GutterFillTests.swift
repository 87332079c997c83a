import Texturing
import XCTest

final class GutterFillTests: XCTestCase {
    func testEveryUncoveredTexelTakesItsNearestCoveredTexel() {
        let width = 9, height = 5
        var covered = [Bool](repeating: false, count: width * height)
        var pixels = [UInt8](repeating: 0, count: width * height)
        covered[2 * width + 1] = true; pixels[2 * width + 1] = 10   // left source at (1, 2)
        covered[2 * width + 7] = true; pixels[2 * width + 7] = 200  // right source at (7, 2)
        GutterFill.fill(&pixels, channels: 1, width: width, height: height, covered: covered)
        for y in 0..<height {
            for x in 0..<width {
                let left = (x - 1) * (x - 1), right = (x - 7) * (x - 7)
                if left == right { continue }
                XCTAssertEqual(pixels[y * width + x], left < right ? 10 : 200, "texel (\(x), \(y))")
            }
        }
    }

    func testNothingCoveredLeavesTheImageAlone() {
        var pixels: [UInt8] = [1, 2, 3, 4]
        GutterFill.fill(&pixels, channels: 1, width: 2, height: 2, covered: [false, false, false, false])
        XCTAssertEqual(pixels, [1, 2, 3, 4])
    }
}
