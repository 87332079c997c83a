import ReconstructionCore
import XCTest

final class AxisBoxTests: XCTestCase {
    /// The distance to the box's surface along a direction, tilted or not, from inside; 0 outside.
    func testExitDistanceIsWhereTheRayLeavesTheBox() {
        let box = AxisBox(lower: SIMD3(-1, -1, 0), upper: SIMD3(1, 1, 2))
        XCTAssertEqual(box.exitDistance(from: SIMD3(0, 0, 1.5), along: SIMD3(0, 0, -1)), 1.5, accuracy: 1e-6)
        let tilted = SIMD3<Float>(0.6, 0, -0.8)
        // Down 0.8 per unit and sideways 0.6: the side x = 1 comes first (at 1/0.6), before the floor (at 1.5/0.8).
        XCTAssertEqual(box.exitDistance(from: SIMD3(0, 0, 1.5), along: tilted), 1 / 0.6, accuracy: 1e-5)
        let foot = SIMD3<Float>(0, 0, 1.5) + box.exitDistance(from: SIMD3(0, 0, 1.5), along: tilted) * tilted
        XCTAssertTrue(box.grown(by: 1.0001).contains(foot), "the foot stays on the box")
        XCTAssertEqual(box.exitDistance(from: SIMD3(5, 0, 1), along: SIMD3(0, 0, -1)), 0)
    }
}
