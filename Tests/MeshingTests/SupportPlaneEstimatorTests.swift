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
}
