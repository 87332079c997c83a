import Reconstruction
import ReconstructionCore
import XCTest

/// Matches that keep their place in the frame while the camera moves (a turntable's backdrop)
/// are dropped before a pair is verified, so the relative pose is the object's.
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

    /// The same pair seen by two cameras whose intrinsics differ: a place in one frame is not the
    /// same place in the other, so nothing is dropped (and the backdrop outvotes the cloud again).
    func testStillMatchesAreKeptBetweenPhotosOfDifferentCameras() {
        let p = pair(stillCount: 1500, objectCount: 100)
        var other = p.scene.intrinsics
        other.fx += 1
        let result = PairVerifier().verify(pair: ImagePair(0, 1), features1: p.features[0], features2: p.features[1],
                                           intrinsics1: p.scene.intrinsics, intrinsics2: other, calibrated: true)
        if case .success(let g) = result {
            XCTAssertLessThan(g.keypoints1.filter { $0 < Int32(p.objectCount) }.count, 50)
        }
    }

    /// Features at the given places (640 × 480), one keypoint per place.
    func features(_ places: [(Double, Double)]) -> ImageFeatures {
        ImageFeatures(imageWidth: 640, imageHeight: 480, positions: places.flatMap { [Float($0.0), Float($0.1)] },
                      scales: Array(repeating: 4, count: places.count), descriptors: Array(repeating: 0, count: 128 * places.count),
                      colors: Array(repeating: 0, count: 3 * places.count))
    }

    /// `still` matches that move 0.5 px and `moving` ones that move `step` px; match i pairs
    /// keypoint i with keypoint i. Returns how many of the matches `movingMatches` keeps.
    func kept(still: Int, moving: Int, step: Double) -> Int {
        var first: [(Double, Double)] = [], second: [(Double, Double)] = []
        for i in 0..<(still + moving) {
            let x = Double(20 + (i * 37) % 600), y = Double(20 + (i * 53) % 440)
            first.append((x, y))
            second.append(i < still ? (x + 0.5, y) : (x + step, y + 0.3 * step))
        }
        let matches = (0..<Int32(still + moving)).map { ($0, $0) }
        return PairVerifier().movingMatches(matches, features1: features(first), features2: features(second)).count
    }

    /// Still matches are dropped from 20 on, and when they are a quarter of the pair's or more: a
    /// few are what two photos of one scene can share by chance.
    func testStillMatchesAreDroppedFromTwentyAndAQuarterOfThePairOn() {
        XCTAssertEqual(kept(still: 19, moving: 40, step: 40), 59)
        XCTAssertEqual(kept(still: 20, moving: 40, step: 40), 40)
        XCTAssertEqual(kept(still: 49, moving: 151, step: 40), 200)
        XCTAssertEqual(kept(still: 50, moving: 150, step: 40), 150)
        XCTAssertEqual(kept(still: 1500, moving: 100, step: 40), 100)
    }

    /// Where both cameras aim at one point of a surface, the surface around it keeps its place
    /// in both photos: a few percent of the matches, all genuine, and kept.
    func testAPatchWhereBothCamerasAimIsKept() {
        XCTAssertEqual(kept(still: 60, moving: 940, step: 40), 1000)
    }

    /// Photos a small step apart (video frames, a burst) have many matches under 2 px, and the
    /// rest move little too (here 6 px, under 1 % of the 800 px diagonal): nothing is dropped.
    /// Neither is anything when every match is still (the same photo twice).
    func testMatchesAreKeptWhenNothingClearlyMoves() {
        XCTAssertEqual(kept(still: 300, moving: 200, step: 6), 500)
        XCTAssertEqual(kept(still: 300, moving: 0, step: 0), 300)
        XCTAssertEqual(kept(still: 300, moving: 200, step: 9), 200, "9 px along, 2.7 px across: 9.4 px, over 8 px")
    }
}
