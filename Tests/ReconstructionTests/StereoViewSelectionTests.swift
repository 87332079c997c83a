import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Source views for dense stereo, planned from cameras on a ring around an object and the sparse
/// points on it.
final class StereoViewSelectionTests: XCTestCase {
    /// `count` cameras evenly spaced on a horizontal ring of radius 1 around the origin, 0.3 above
    /// it, looking at it; and points on a sphere of radius 0.1 at the origin, each seen by every
    /// camera on its side.
    private func ring(_ count: Int) -> (cameras: [StereoViewSelection.Camera], points: [DenseStereo.SparsePoint]) {
        let intrinsics = CameraIntrinsics(width: 640, height: 480, fx: 600, fy: 600, cx: 320, cy: 240)
        let centres = (0..<count).map { i -> Vector3 in
            let a = 2 * Double.pi * Double(i) / Double(count)
            return Vector3(cos(a), sin(a), 0.3)
        }
        let cameras = centres.map { centre -> StereoViewSelection.Camera in
            let forward = (Vector3(0, 0, 0) - centre).normalized
            let right = forward.cross(Vector3(0, 0, 1)).normalized
            let down = forward.cross(right)
            let cameraFromWorld = Matrix3(rows: right, down, forward)
            let worldFromCamera = RigidTransform(rotation: cameraFromWorld, translation: -(cameraFromWorld * centre)).inverse
            return StereoViewSelection.Camera(intrinsics: intrinsics, worldFromCamera: worldFromCamera)
        }
        var points: [DenseStereo.SparsePoint] = []
        for i in 0..<400 {
            // A Fibonacci sphere: even cover without randomness.
            let z = 1 - 2 * (Double(i) + 0.5) / 400, r = (1 - z * z).squareRoot(), a = Double(i) * 2.399963
            let normal = Vector3(r * cos(a), r * sin(a), z)
            let seen = centres.indices.filter { (centres[$0] - 0.1 * normal).dot(normal) > 0 }
            points.append(DenseStereo.SparsePoint(position: 0.1 * normal, viewIndices: seen))
        }
        return (cameras, points)
    }

    /// Ring neighbours 51° apart are beyond the 45° the planner prefers. Each view then has no
    /// source within it, and would get no depth map; it takes its two ring neighbours from the
    /// wider limit (60°), and nothing further round the ring.
    func testAViewWithTooFewSourcesTakesItsNeighboursUpToTheWidestAngle() {
        let (cameras, points) = ring(7)
        let plans = StereoViewSelection().plan(cameras: cameras, points: points)
        for (v, plan) in plans.enumerated() {
            XCTAssertEqual(plan.sources.count, 2, "view \(v): \(plan.sources)")
            XCTAssertEqual(Set(plan.sources), [(v + 1) % 7, (v + 6) % 7], "view \(v)")
            XCTAssertNotNil(plan.depthRange)
        }

        var strict = StereoViewSelection.Options()
        strict.widestTriangulationAngleDegrees = strict.maxTriangulationAngleDegrees
        let without = StereoViewSelection(options: strict).plan(cameras: cameras, points: points)
        XCTAssertTrue(without.allSatisfy { $0.sources.isEmpty }, "\(without.map(\.sources))")
    }

    /// A view with enough sources within 45° keeps exactly those: 24 cameras 15° apart give each
    /// view the four nearest on the ring (the two 45° away score under a tenth of the best), the
    /// same plan as with the filling turned off.
    func testAViewWithEnoughSourcesIsPlannedAsBefore() {
        let (cameras, points) = ring(24)
        let plans = StereoViewSelection().plan(cameras: cameras, points: points)
        var strict = StereoViewSelection.Options()
        strict.widestTriangulationAngleDegrees = strict.maxTriangulationAngleDegrees
        XCTAssertEqual(plans, StereoViewSelection(options: strict).plan(cameras: cameras, points: points))
        for (v, plan) in plans.enumerated() {
            XCTAssertEqual(Set(plan.sources), [(v + 1) % 24, (v + 2) % 24, (v + 22) % 24, (v + 23) % 24], "view \(v)")
        }
    }

    /// 12 cameras 30° apart: within 45° each view has its two ring neighbours, and takes the two
    /// 60° round to reach four, after its own. With room for only three sources, it takes one.
    func testAViewWithSomeSourcesIsToppedUpAfterThem() {
        let (cameras, points) = ring(12)
        let plans = StereoViewSelection().plan(cameras: cameras, points: points)
        for (v, plan) in plans.enumerated() {
            XCTAssertEqual(plan.sources.count, 4, "view \(v): \(plan.sources)")
            XCTAssertEqual(Set(plan.sources.prefix(2)), [(v + 1) % 12, (v + 11) % 12], "view \(v)")
            XCTAssertEqual(Set(plan.sources.suffix(2)), [(v + 2) % 12, (v + 10) % 12], "view \(v)")
        }
        var three = StereoViewSelection.Options()
        three.maxSourceViews = 3
        for (v, plan) in StereoViewSelection(options: three).plan(cameras: cameras, points: points).enumerated() {
            XCTAssertEqual(plan.sources.count, 3, "view \(v): \(plan.sources)")
        }
    }

    /// Without sparse points (known poses), sources come from the cameras' geometry with the
    /// same fallback.
    func testWithoutPointsTheGeometricSourcesAreFilledTheSameWay() {
        let (cameras, _) = ring(7)
        let plans = StereoViewSelection().plan(cameras: cameras, points: [], fallbackDepthRange: 0.5...1.5)
        for (v, plan) in plans.enumerated() {
            XCTAssertEqual(plan.sources.count, 2, "view \(v): \(plan.sources)")
            XCTAssertEqual(Set(plan.sources), [(v + 1) % 7, (v + 6) % 7], "view \(v)")
        }
    }
}
