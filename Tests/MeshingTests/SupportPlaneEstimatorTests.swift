import Meshing
import ReconstructionCore
import XCTest

/// The support plane: found under an object among noise and a wall; refused when the object
/// does not stand on it.
final class SupportPlaneEstimatorTests: XCTestCase {
    /// Noisy floor samples (z ≈ offset) around the origin, and wall samples (x = 0.6).
    private func background(floorHeight: Float) -> [SIMD3<Float>] {
        var noise = SeededGenerator(seed: 7)
        var points: [SIMD3<Float>] = []
        for i in 0..<3000 {
            let x = Float(i % 60) / 60 - 0.5, y = Float(i / 60) / 50 - 0.5
            points.append(SIMD3(x, y, floorHeight + 0.004 * (noise.nextUnitFloat() - 0.5)))
        }
        for i in 0..<800 { points.append(SIMD3(0.6, Float(i % 40) / 40 - 0.5, Float(i / 40) / 40)) }
        return points
    }

    /// Samples of a box's sides, from `bottom` up to 0.3.
    private func object(bottom: Float) -> [SIMD3<Float>] {
        (0..<2000).map { i in
            let z = bottom + (0.3 - bottom) * Float(i / 40) / 50
            let a = Float(i % 40) / 40 * 2 * .pi
            return SIMD3(0.15 * cos(a), 0.1 * sin(a), z)
        }
    }

    func testTheFloorUnderAnObjectIsFound() throws {
        var options = SupportPlaneEstimator.Options()
        options.inlierDistance = 0.005
        let plane = try XCTUnwrap(SupportPlaneEstimator(options: options).estimate(background: background(floorHeight: 0.02),
                                                                                   object: object(bottom: 0.03)))
        XCTAssertGreaterThan(plane.normal.z, 0.999, "normal up, towards the object")
        XCTAssertEqual(plane.offset, 0.02, accuracy: 0.001)
    }

    func testAnObjectAboveThePlaneOrTooFewSamplesGiveNone() {
        var options = SupportPlaneEstimator.Options()
        options.inlierDistance = 0.005
        let estimator = SupportPlaneEstimator(options: options)
        XCTAssertNil(estimator.estimate(background: background(floorHeight: 0), object: object(bottom: 0.15)), "hanging in the air")
        XCTAssertNil(estimator.estimate(background: [], object: object(bottom: 0)))
        XCTAssertNil(estimator.estimate(background: background(floorHeight: 0), object: []))
    }

    /// Without masks: a box on a floor, its near side carrying more samples than the floor and its
    /// top level. Only the level floor below the point the cameras look at is the support.
    func testWithoutObjectSamplesTheLevelPlaneBelowTheFocusIsTheSupport() throws {
        var noise = SeededGenerator(seed: 3)
        var samples: [SIMD3<Float>] = []
        for i in 0..<3000 { samples.append(SIMD3(0.2, Float(i % 60) / 60 * 0.4 - 0.2, Float(i / 60) / 50 * 0.4)) }  // near side
        for i in 0..<900 { samples.append(SIMD3(Float(i % 30) / 30 * 0.4 - 0.2, Float(i / 30) / 30 * 0.4 - 0.2, 0.4)) }  // top
        while samples.count < 3000 + 900 + 1500 {  // floor around the box
            let p = SIMD3<Float>(noise.nextUnitFloat() * 1.2 - 0.6, noise.nextUnitFloat() * 1.2 - 0.6, 0.002 * (noise.nextUnitFloat() - 0.5))
            if max(abs(p.x), abs(p.y)) > 0.25 { samples.append(p) }
        }
        var options = SupportPlaneEstimator.Options()
        options.inlierDistance = 0.005
        options.minimumInlierFraction = 0.1
        let estimator = SupportPlaneEstimator(options: options)
        let floor = try XCTUnwrap(estimator.estimate(samples: samples, below: SIMD3(0, 0, 0.2), up: SIMD3(0, 0, 3), maximumTiltDegrees: 30))
        XCTAssertGreaterThan(floor.normal.z, 0.999, "the floor, normal up (not the box's side, which has more samples)")
        XCTAssertEqual(floor.offset, 0, accuracy: 0.002)
        let above = try XCTUnwrap(estimator.estimate(samples: samples, below: SIMD3(0, 0, 0.6), up: SIMD3(0, 0, 1), maximumTiltDegrees: 30))
        XCTAssertEqual(above.offset, 0, accuracy: 0.002, "a point above the box: of the two level planes below it, the floor carries more")
        XCTAssertNil(estimator.estimate(samples: samples, below: SIMD3(0, 0, -0.2), up: SIMD3(0, 0, 1), maximumTiltDegrees: 30),
                     "nothing level below a point under the floor")
        let sideways = try XCTUnwrap(estimator.estimate(samples: samples, below: SIMD3(1, 0, 0.2), up: SIMD3(1, 0, 0), maximumTiltDegrees: 30))
        XCTAssertGreaterThan(sideways.normal.x, 0.999, "with up along x, the box's near side is the level plane below the point")
        XCTAssertEqual(sideways.offset, 0.2, accuracy: 0.002)
    }
}
