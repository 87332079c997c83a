import Reconstruction
import ReconstructionCore
import XCTest

/// Matches that keep their place in the frame while the camera moves (a turntable's backdrop, a
/// date stamp) are dropped before a pair is verified, so the relative pose is the object's.
final class PairVerifierStillMatchesTests: XCTestCase {
    /// Two photos of a point cloud 14° apart on an arc (`SyntheticScene`), 0.3 px of keypoint
    /// noise, and `stillCount` keypoints at the same places in both photos (0.2 px of noise).
    /// Keypoints `0..<objectCount` are the cloud's, in both photos; each match has a descriptor of
    /// its own, so the matcher pairs exactly these.
    func pair(stillCount: Int, objectCount: Int = 200, seed: UInt64 = 3) -> (scene: SyntheticScene, features: [ImageFeatures], objectCount: Int) {
        let scene = SyntheticScene(pointCount: objectCount, cameraCount: 2, seed: seed)
        var rng = SplitMix64(seed: seed + 100)
        let still = (0..<stillCount).map { _ in (rng.uniform(5, 635), rng.uniform(5, 475)) }
        let descriptors = (0..<(scene.points.count + stillCount) * 128).map { _ in UInt8(rng.uniform(0, 255)) }
        let features = (0..<2).map { camera in
            var positions: [Float] = []
            for p in scene.points.indices {
                let x = scene.pixel(point: p, camera: camera)
                positions += [Float(x.x + 0.3 * rng.gaussian()), Float(x.y + 0.3 * rng.gaussian())]
            }
            for s in still { positions += [Float(s.0 + 0.2 * rng.gaussian()), Float(s.1 + 0.2 * rng.gaussian())] }
            let count = positions.count / 2
            return ImageFeatures(imageWidth: 640, imageHeight: 480, positions: positions, scales: Array(repeating: 4, count: count),
                                 descriptors: descriptors, colors: Array(repeating: 128, count: 3 * count))
        }
        return (scene, features, scene.points.count)
    }

    func verify(_ verifier: PairVerifier, _ p: (scene: SyntheticScene, features: [ImageFeatures], objectCount: Int))
        -> Result<TwoViewGeometry, PairVerifier.Rejection>
    {
        verifier.verify(pair: ImagePair(0, 1), features1: p.features[0], features2: p.features[1],
                        intrinsics1: p.scene.intrinsics, intrinsics2: p.scene.intrinsics, calibrated: true)
    }

    func rotationErrorDegrees(_ g: TwoViewGeometry, _ scene: SyntheticScene) throws -> Double {
        let truth = scene.cameraFromWorld[1] * scene.cameraFromWorld[0].inverse
        let pose = try XCTUnwrap(g.secondFromFirst)
        return (pose.rotation.transposed * truth.rotation).rotationAngleDegrees
    }

    /// A turntable photographed in front of a textured backdrop: the backdrop fills most of the
    /// frame, so most matches are still and the object's are a few percent of them.
    func testTheObjectsMotionIsFoundAmongFifteenTimesAsManyStillMatches() throws {
        let p = pair(stillCount: 1500, objectCount: 100)
        let g = try verify(PairVerifier(), p).get()
        XCTAssertEqual(g.keypoints1.filter { $0 >= Int32(p.objectCount) }.count, 0, "no still match kept")
        XCTAssertGreaterThanOrEqual(g.inlierCount, 95, "the cloud's matches kept")
        XCTAssertLessThan(try rotationErrorDegrees(g, p.scene), 0.5)

        // The control: with the still matches kept, the cloud's matches are 6 % of the pair's, and
        // a five-point sample of them alone is too rare for RANSAC's draws to find.
        var keeping = PairVerifier()
        keeping.options.minStillMatches = .max
        switch verify(keeping, p) {
        case .failure(let rejection): print("control: \(rejection)")
        case .success(let kept):
            let objectKept = kept.keypoints1.filter { $0 < Int32(p.objectCount) }.count
            print("control: \(kept.inlierCount) inliers, \(objectKept) of the cloud's, rotation error \(try rotationErrorDegrees(kept, p.scene))°")
            XCTAssertLessThan(objectKept, 50, "the cloud's motion is not found among the still matches")
        }
    }

    /// A few still matches are what two photos of one scene can share by chance (near the
    /// epipole): fewer than `minStillMatches` are kept and verified with the rest.
    func testAFewStillMatchesAreKept() throws {
        let p = pair(stillCount: 10)
        let g = try verify(PairVerifier(), p).get()
        XCTAssertGreaterThanOrEqual(g.keypoints1.filter { $0 < Int32(p.objectCount) }.count, 190)
        XCTAssertLessThan(try rotationErrorDegrees(g, p.scene), 0.5)
        // They are still in the verification: on a mostly sideways motion a still match lies on
        // its own epipolar line, and some of these do.
        XCTAssertGreaterThan(g.keypoints1.filter { $0 >= Int32(p.objectCount) }.count, 0)
    }

    /// Photos that differ only in what did not move give no geometry: a pair of one photo
    /// and itself (or a burst taken without moving) fails as having too few matches.
    func testAPairWhoseMatchesAllStayStillIsRejected() throws {
        let p = pair(stillCount: 300)
        var still = p
        still.features[1] = p.features[0]
        switch verify(PairVerifier(), still) {
        case .success(let g): XCTFail("verified with \(g.inlierCount) inliers")
        case .failure(let rejection): XCTAssertEqual(rejection, .tooFewMatches(0))
        }
    }
}
