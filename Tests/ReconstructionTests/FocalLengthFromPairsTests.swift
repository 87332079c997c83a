import Reconstruction
import ReconstructionCore
import XCTest

/// The starting focal length estimated from fundamental matrices, on exact synthetic pairs.
final class FocalLengthFromPairsTests: XCTestCase {
    /// 800×600 photos with a focal length of 700 px; the default guess would be 960 px.
    let intrinsics = CameraIntrinsics(width: 800, height: 600, fx: 960, fy: 960, cx: 400, cy: 300)
    let trueFocal = 700.0

    /// F = K⁻ᵀ·[t]ₓ·R·K⁻¹ for the second camera at `secondFromFirst` (x2ᵀ F x1 = 0 in pixels).
    func fundamental(rotation: Matrix3, translation: Vector3) -> Matrix3 {
        let f = trueFocal, cx = intrinsics.cx, cy = intrinsics.cy
        let kInverse = Matrix3(rowMajor: [1 / f, 0, -cx / f, 0, 1 / f, -cy / f, 0, 0, 1])
        let t = translation
        let cross = Matrix3(rowMajor: [0, -t.z, t.y, t.z, 0, -t.x, -t.y, t.x, 0])
        return kInverse.transposed * cross * rotation * kInverse
    }

    func testTheFocalLengthIsRecoveredFromGeneralMotion() throws {
        var rng = SplitMix64(seed: 41)
        let pairs = (0..<12).map { _ in
            fundamental(rotation: UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
                                                 angleRadians: rng.uniform(0.1, 0.5)).matrix,
                        translation: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()).normalized)
        }
        let estimate = try XCTUnwrap(FocalLengthFromPairs.estimate(fundamentals: pairs, intrinsics: intrinsics))
        XCTAssertEqual(estimate, trueFocal, accuracy: 0.01 * trueFocal)
    }

    /// Cameras on a circle, all looking at its centre: their optical axes meet, and the criterion
    /// cannot tell focal lengths apart, so no estimate is returned (the guess is kept).
    func testAnOrbitWhoseOpticalAxesMeetGivesNoEstimate() {
        func lookingAtCentre(angle: Double) -> RigidTransform {
            let centre = Vector3(3 * sin(angle), 0, -3 * cos(angle))
            return SyntheticScene.lookAt(centre: centre, target: Vector3(0, 0, 0))
        }
        let views = (0..<12).map { lookingAtCentre(angle: Double($0) * 0.3) }
        let pairs = (1..<views.count).map { i -> Matrix3 in
            // Second from first: x2 = R·x1 + t with R = R2·R1ᵀ, t = t2 − R·t1.
            let r = views[i].rotation * views[i - 1].rotation.transposed
            return fundamental(rotation: r, translation: views[i].translation - r * views[i - 1].translation)
        }
        XCTAssertNil(FocalLengthFromPairs.estimate(fundamentals: pairs, intrinsics: intrinsics))
    }

    func testTooFewPairsGiveNoEstimate() {
        let pair = fundamental(rotation: UnitQuaternion(axis: Vector3(0, 1, 0), angleRadians: 0.3).matrix,
                               translation: Vector3(1, 0.2, 0.1).normalized)
        XCTAssertNil(FocalLengthFromPairs.estimate(fundamentals: Array(repeating: pair, count: 4), intrinsics: intrinsics))
    }
}
