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

    func generalPairs() -> [Matrix3] {
        var rng = SplitMix64(seed: 41)
        return (0..<12).map { _ in
            fundamental(rotation: UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
                                                 angleRadians: rng.uniform(0.1, 0.5)).matrix,
                        translation: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()).normalized)
        }
    }

    /// An EXIF focal length more than twice off is contradicted (the pairs' focal length is
    /// returned); one within a factor of two is left to bundle adjustment, and a right one stands.
    func testAnEXIFFocalLengthIsContradictedOnlyWhenFarOff() throws {
        let pairs = generalPairs()
        func exif(_ focal: Double) -> CameraIntrinsics {
            CameraIntrinsics(width: 800, height: 600, fx: focal, fy: focal, cx: 400, cy: 300)
        }
        for wrong in [trueFocal * 15, trueFocal * 2.5, trueFocal / 2.5] {
            let found = try XCTUnwrap(FocalLengthFromPairs.exifContradicted(fundamentals: pairs, intrinsics: exif(wrong)), "\(wrong)")
            XCTAssertEqual(found, trueFocal, accuracy: 0.01 * trueFocal)
        }
        for close in [trueFocal, trueFocal * 1.5, trueFocal / 1.8] {
            XCTAssertNil(FocalLengthFromPairs.exifContradicted(fundamentals: pairs, intrinsics: exif(close)), "\(close)")
        }
        XCTAssertNil(FocalLengthFromPairs.exifContradicted(fundamentals: Array(pairs.prefix(4)), intrinsics: exif(trueFocal * 15)),
                     "too few pairs to contradict anything")
    }

    /// On an orbit the criterion is flat: nothing contradicts an EXIF focal length, however far off.
    func testAnOrbitNeverContradictsEXIF() {
        let views = (0..<12).map { i -> RigidTransform in
            let angle = Double(i) * 0.3
            return SyntheticScene.lookAt(centre: Vector3(3 * sin(angle), 0, -3 * cos(angle)), target: Vector3(0, 0, 0))
        }
        let pairs = (1..<views.count).map { i -> Matrix3 in
            let r = views[i].rotation * views[i - 1].rotation.transposed
            return fundamental(rotation: r, translation: views[i].translation - r * views[i - 1].translation)
        }
        for focal in [trueFocal / 2.5, trueFocal * 3] {
            let exif = CameraIntrinsics(width: 800, height: 600, fx: focal, fy: focal, cx: 400, cy: 300)
            XCTAssertNil(FocalLengthFromPairs.exifContradicted(fundamentals: pairs, intrinsics: exif), "\(focal)")
        }
    }

    func testTooFewPairsGiveNoEstimate() {
        let pair = fundamental(rotation: UnitQuaternion(axis: Vector3(0, 1, 0), angleRadians: 0.3).matrix,
                               translation: Vector3(1, 0.2, 0.1).normalized)
        XCTAssertNil(FocalLengthFromPairs.estimate(fundamentals: Array(repeating: pair, count: 4), intrinsics: intrinsics))
    }

    /// Photos of one size from two cameras (700 and 1000 px) under one guess are found to be two
    /// cameras, each with its focal length; photos of one camera are not split.
    func testPhotosOfTwoFocalLengthsUnderOneGuessAreSplit() throws {
        var rng = SplitMix64(seed: 7)
        let poses = (0..<8).map { _ in
            RigidTransform(rotation: UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
                                                    angleRadians: rng.uniform(0.05, 0.4)).matrix,
                           translation: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
        }
        func pairs(focal: (Int) -> Double) -> [(pair: ImagePair, f: Matrix3)] {
            func kInverse(_ f: Double) -> Matrix3 {
                Matrix3(rowMajor: [1 / f, 0, -intrinsics.cx / f, 0, 1 / f, -intrinsics.cy / f, 0, 0, 1])
            }
            return (0..<8).flatMap { i in ((i + 1)..<8).map { j in
                let relative = poses[j] * poses[i].inverse
                let t = relative.translation
                let cross = Matrix3(rowMajor: [0, -t.z, t.y, t.z, 0, -t.x, -t.y, t.x, 0])
                return (ImagePair(i, j), kInverse(focal(j)).transposed * cross * relative.rotation * kInverse(focal(i)))
            } }
        }
        let clusters = try XCTUnwrap(FocalLengthFromPairs.splitCamera(pairs { $0 < 4 ? 700 : 1000 }, start: 960, intrinsics: intrinsics))
        XCTAssertEqual(clusters.map(\.images), [[0, 1, 2, 3], [4, 5, 6, 7]])
        XCTAssertEqual(clusters[0].focalLength, 700, accuracy: 0.05 * 700)
        XCTAssertEqual(clusters[1].focalLength, 1000, accuracy: 0.05 * 1000)
        XCTAssertNil(FocalLengthFromPairs.splitCamera(pairs { _ in 700 }, start: 960, intrinsics: intrinsics), "one camera stays one")
    }
}
