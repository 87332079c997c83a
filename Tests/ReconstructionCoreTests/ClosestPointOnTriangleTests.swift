import ReconstructionCore
import XCTest

final class ClosestPointOnTriangleTests: XCTestCase {
    let a: SIMD3<Float> = [0, 0, 0], b: SIMD3<Float> = [2, 0, 0], c: SIMD3<Float> = [0, 2, 0]

    private func assertClosest(_ p: SIMD3<Float>, is expected: SIMD3<Float>, distance: Float,
                               file: StaticString = #filePath, line: UInt = #line) {
        let q = closestPointOnTriangle(to: p, a, b, c)
        XCTAssertLessThan(simdLength(q - expected), 1e-6, "closest point \(q)", file: file, line: line)
        XCTAssertEqual(squaredDistanceToTriangle(from: p, a, b, c).squareRoot(), distance, accuracy: 1e-5,
                       file: file, line: line)
    }

    func testPointAboveTheFaceProjectsOntoIt() {
        assertClosest([0.5, 0.5, 3], is: [0.5, 0.5, 0], distance: 3)
        assertClosest([0.25, 1.5, -0.5], is: [0.25, 1.5, 0], distance: 0.5)
        assertClosest([0.5, 0.5, 0], is: [0.5, 0.5, 0], distance: 0)
    }

    func testPointsBeyondACornerMeasureToThatCorner() {
        assertClosest([-1, -1, 1], is: a, distance: Float(3).squareRoot())
        assertClosest([3, -1, 0], is: b, distance: Float(2).squareRoot())
        assertClosest([-1, 3, 2], is: c, distance: Float(6).squareRoot())
    }

    func testPointsBesideAnEdgeMeasurePerpendicularlyToIt() {
        assertClosest([1, -2, 0], is: [1, 0, 0], distance: 2)  // edge ab
        assertClosest([-3, 1, 4], is: [0, 1, 0], distance: 5)  // edge ca
        assertClosest([2, 2, 0], is: [1, 1, 0], distance: Float(2).squareRoot())  // edge bc
        assertClosest([1.5, 1.5, 1], is: [1, 1, 0], distance: Float(1.5).squareRoot())
    }

    func testDegenerateTrianglesMeasureToTheirSegmentOrPoint() {
        let q = closestPointOnTriangle(to: [1, 1, 0], [0, 0, 0], [2, 0, 0], [4, 0, 0])
        XCTAssertLessThan(simdLength(q - [1, 0, 0]), 1e-6)
        let r = closestPointOnTriangle(to: [1, 1, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0])
        XCTAssertEqual(r, [0, 0, 0])
        let s = closestPointOnTriangle(to: [5, 1, 0], [0, 0, 0], [0, 0, 0], [2, 0, 0])
        XCTAssertLessThan(simdLength(s - [2, 0, 0]), 1e-6)
    }

    /// No point of the triangle (dense barycentric grid) is nearer than the returned one, and
    /// the returned one lies in the triangle's plane and inside it.
    func testNoPointOfTheTriangleIsNearerThanTheResult() {
        var random = TestRandom(seed: 7)
        for _ in 0..<200 {
            let a = random.point(-1...1), b = random.point(-1...1), c = random.point(-1...1)
            let p = random.point(-2...2)
            let q = closestPointOnTriangle(to: p, a, b, c)
            let best = simdLength(p - q)
            let steps = 40
            for i in 0...steps {
                for j in 0...(steps - i) {
                    let u = Float(i) / Float(steps), v = Float(j) / Float(steps)
                    let x = a + (b - a) * u + (c - a) * v
                    XCTAssertGreaterThanOrEqual(simdLength(p - x), best - 1e-5)
                }
            }
            let normal = simdCross(b - a, c - a)
            XCTAssertLessThan(abs(simdDot(q - a, normal)) / simdLength(normal), 1e-5)
        }
    }
}
