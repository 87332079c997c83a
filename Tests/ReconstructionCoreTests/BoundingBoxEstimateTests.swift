import ReconstructionCore
import XCTest

final class BoundingBoxEstimateTests: XCTestCase {
    func testEstimateSpansTheBulkOfThePointsAndIgnoresStrayOnes() throws {
        var points: [SIMD3<Float>] = []
        for i in 0..<1000 {
            let f = Float(i) / 999
            points.append(SIMD3(-1 + 2 * f, 2 + f, 0.5 * f))  // x -1…1, y 2…3, z 0…0.5
        }
        points += [SIMD3(100, 0, 0), SIMD3(0, -50, 0), SIMD3(.nan, 0, 0)]
        let box = try XCTUnwrap(BoundingBox.estimate(enclosing: points, trimmedFraction: 0.005, marginFraction: 0))
        XCTAssertEqual(box.centre.x, 0, accuracy: 0.02)
        XCTAssertEqual(box.centre.y, 2.5, accuracy: 0.02)
        XCTAssertEqual(box.halfExtents.x, 1, accuracy: 0.02)
        XCTAssertEqual(box.halfExtents.y, 0.5, accuracy: 0.02)
        XCTAssertEqual(box.halfExtents.z, 0.25, accuracy: 0.02)
        let grown = try XCTUnwrap(BoundingBox.estimate(enclosing: points, trimmedFraction: 0.005, marginFraction: 0.1))
        XCTAssertEqual(grown.halfExtents.x, 1.2, accuracy: 0.03)
        XCTAssertNil(BoundingBox.estimate(enclosing: []))
    }
}
