import ReconstructionCore
import XCTest

final class TriangulationTests: XCTestCase {
    func testRaysThroughAPointMeetAtIt() throws {
        let point = Vector3(0.3, -0.2, 5)
        let centres = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0.5)]
        let rays = centres.map { Triangulation.Ray(origin: $0, direction: point - $0) }
        let x = try XCTUnwrap(Triangulation.point(closestTo: rays))
        XCTAssertLessThan(x.distance(to: point), 1e-10)
        XCTAssertEqual(Triangulation.angleDegrees(point: Vector3(0, 0, 1), centre1: Vector3(-1, 0, 0), centre2: Vector3(1, 0, 0)), 90, accuracy: 1e-9)
    }

    func testParallelRaysHaveNoPoint() {
        let rays = [Triangulation.Ray(origin: .zero, direction: Vector3(0, 0, 1)), Triangulation.Ray(origin: Vector3(1, 0, 0), direction: Vector3(0, 0, 1))]
        XCTAssertNil(Triangulation.point(closestTo: rays))
    }

    func testNormalizedUndoesProjectionWithDistortion() {
        let k = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 510, cx: 320, cy: 240, k1: -0.1, k2: 0.02)
        let p = Vector3(0.4, -0.3, 2)
        let pixel = k.project(p)!
        let n = k.normalized(x: pixel.x, y: pixel.y)
        XCTAssertEqual(n.u, 0.2, accuracy: 1e-9)
        XCTAssertEqual(n.v, -0.15, accuracy: 1e-9)
    }
}
