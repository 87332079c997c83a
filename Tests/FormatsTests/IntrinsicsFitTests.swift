import CaptureIO
import XCTest

final class IntrinsicsFitTests: XCTestCase {
    /// Strecha's K, made for 3072 × 2048 photos.
    let strecha = PinholeIntrinsics(fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81)

    func testAKNearThePhotosCentreFits() {
        XCTAssertEqual(IntrinsicsFit.check(strecha, width: 3072, height: 2048), .fits)
        // 9 % off-centre along x is still within what a lens or a crop gives.
        let shifted = PinholeIntrinsics(fx: 1000, fy: 1000, cx: 500 + 90, cy: 500)
        XCTAssertEqual(IntrinsicsFit.check(shifted, width: 1000, height: 1000), .fits)
    }

    func testAKForLargerPhotosIsOffCentreOrOutsideWithTheScaleThatFixesIt() throws {
        guard case .offCentre(.scaled(let factor)?) = IntrinsicsFit.check(strecha, width: 1536, height: 1024) else {
            return XCTFail("expected an off-centre K with a scale hint")
        }
        XCTAssertEqual(factor, 0.5, accuracy: 1e-12)
        guard case .offCentre(.scaled(let twoThirds)?) = IntrinsicsFit.check(strecha, width: 2048, height: 1365) else {
            return XCTFail("expected an off-centre K with a scale hint")
        }
        XCTAssertEqual(twoThirds, 2.0 / 3, accuracy: 1e-12)
        // The raw ratio of the principal point to the centre is 0.3367 here (Strecha's principal
        // point is 1 % off-centre); photos are scaled by simple ratios, so the hint is exactly 1/3.
        guard case .outside(.scaled(let third)?) = IntrinsicsFit.check(strecha, width: 1024, height: 683) else {
            return XCTFail("expected an off-centre K with a scale hint")
        }
        XCTAssertEqual(third, 1.0 / 3, accuracy: 1e-12)
    }

    func testAKForTheUprightViewOfPhotosStoredTurnedIsOffCentreAndSaysSo() {
        let halfK = PinholeIntrinsics(fx: 1379.74, fy: 1382.08, cx: 760.345, cy: 503.405)
        XCTAssertEqual(IntrinsicsFit.check(halfK, width: 1536, height: 1024), .fits)
        XCTAssertEqual(IntrinsicsFit.check(halfK, width: 1024, height: 1536), .offCentre(.rotated))
    }

    func testAPrincipalPointOutsideThePhotoCannotDescribeIt() {
        let k = PinholeIntrinsics(fx: 1379, fy: 1382, cx: 5000, cy: 5000)
        XCTAssertEqual(IntrinsicsFit.check(k, width: 1536, height: 1024), .outside(nil))
        // Made for photos four times as large: outside, and the scale still says how to fix it.
        guard case .outside(.scaled(let factor)?) = IntrinsicsFit.check(strecha, width: 768, height: 480) else {
            return XCTFail("expected an outside K with a scale hint")
        }
        XCTAssertEqual(factor, 0.25, accuracy: 1e-12)
    }

    func testAnOffCentreKWithNoSimpleExplanationHasNoHint() {
        let k = PinholeIntrinsics(fx: 1000, fy: 1000, cx: 900, cy: 500)
        XCTAssertEqual(IntrinsicsFit.check(k, width: 1000, height: 1000), .offCentre(nil))
    }

    func testAScaleIsTheNearestSimpleRatioWithinTwoPercent() {
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 0.3367), 1.0 / 3)
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 0.745), 0.75)
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 0.702), 0.7, "a resize to 70 %, not 5/7")
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 2.03), 2)
        // Nothing simple within 2 %: the measured ratio stands.
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 0.65), 0.65)
        XCTAssertEqual(IntrinsicsFit.simpleRatio(near: 0.0917), 0.0917)
    }
}
