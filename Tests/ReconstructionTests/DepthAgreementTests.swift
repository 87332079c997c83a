import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The depth agreement check must not refuse a good capture whose depth varies little: a sweep
/// along a wall (here a floor seen from above) agrees between neighbours at any depth scale, and
/// a candidate that takes the points further away puts more of them in more views.
final class DepthAgreementTests: XCTestCase {
    /// `count` frames 1 m above the plane z = 0, looking straight down, `step` metres apart along
    /// x, depth 64×48 (fx 50) with relative noise `noise`; the photos are 256×192.
    private func sweep(count: Int = 20, step: Double = 0.05, noise: Float = 0.003, tilt: Double = 0) -> [SurfaceReconstruction.DepthInput] {
        var random = SeededGenerator(seed: 7)
        let k = CameraIntrinsics(width: 64, height: 48, fx: 50, fy: 50, cx: 32, cy: 24)
        // Camera x = world x, camera y = world −y, camera z = world −z, tilted about x by `tilt`.
        let c = cos(tilt), s = sin(tilt)
        let rotation = Matrix3(rowMajor: [1, 0, 0, 0, -c, -s, 0, s, -c])
        return (0..<count).map { i in
            let pose = RigidTransform(rotation: rotation, translation: Vector3(Double(i) * step, 0, 1))
            var depth = DepthMap(width: 64, height: 48)
            for y in 0..<48 {
                for x in 0..<64 {
                    let ray = rotation * Vector3((Double(x) + 0.5 - 32) / 50, (Double(y) + 0.5 - 24) / 50, 1)
                    guard ray.z < 0 else { continue }
                    let z = Float(-1 / ray.z)  // depth along the camera's axis to the plane
                    depth[x, y] = z * (1 + noise * Float(random.nextUnitDouble() * 2 - 1))
                }
            }
            return SurfaceReconstruction.DepthInput(depth: depth, weights: nil, intrinsics: k, worldFromCamera: pose)
        }
    }

    func testASidewaysSweepOverAPlaneAgreesAndIsNotDiagnosed() {
        for tilt in [0.0, 0.3] {
            let views = sweep(tilt: tilt)
            let result = DepthAgreement.measure(views)
            XCTAssertGreaterThan(result.median ?? 0, 0.9, "tilt \(tilt)")
            let sizes = views.map { _ in (width: 256, height: 192) }
            XCTAssertNil(DepthAgreement.diagnose(views, photoSizes: sizes, current: result), "tilt \(tilt)")
        }
    }

    func testFactorsAreWrittenAsWholeNumbers() {
        XCTAssertEqual(DepthAgreement.Mistake.depthScaled(factor: 0.001).description, "the depth looks 1000 times too small (other units?)")
        XCTAssertEqual(DepthAgreement.Mistake.depthScaled(factor: 5).description, "the depth looks 5 times too large (other units?)")
    }

    /// Neighbours are spread over the nearest views, so dense video frames are compared across
    /// baselines too, not only with the frames next to them.
    func testNeighboursSpreadOverTheNearestViews() {
        let lists = DepthAgreement.neighbourLists(sweep(count: 100, step: 0.01), count: 12)
        XCTAssertEqual(lists[50].count, 12)
        let distances = lists[50].map { abs($0 - 50) }
        XCTAssertGreaterThanOrEqual(distances.max() ?? 0, 20, "\(lists[50])")
        XCTAssertFalse(lists[50].contains(50))
    }
}
