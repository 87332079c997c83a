import Reconstruction
import ReconstructionCore
import XCTest

final class IncrementalMapperTests: XCTestCase {
    /// Keypoint k of every image is the projection of point k (plus optional noise), so matches
    /// between any two images are (k, k).
    func inputs(scene: SyntheticScene, noisePixels: Double, seed: UInt64) -> [IncrementalMapper.ImageInput] {
        var rng = SplitMix64(seed: seed)
        return scene.cameraFromWorld.indices.map { c in
            var positions: [Float] = []
            for p in scene.points.indices {
                let pixel = scene.pixel(point: p, camera: c)
                positions += [Float(pixel.x + noisePixels * rng.gaussian()), Float(pixel.y + noisePixels * rng.gaussian())]
            }
            let n = scene.points.count
            let features = ImageFeatures(imageWidth: 640, imageHeight: 480, positions: positions,
                                         scales: Array(repeating: 3, count: n), descriptors: Array(repeating: 0, count: 128 * n),
                                         colors: Array(repeating: 128, count: 3 * n))
            return IncrementalMapper.ImageInput(features: features, intrinsics: scene.intrinsics, intrinsicsSource: .given, cameraGroup: 0)
        }
    }

    func geometries(scene: SyntheticScene, images: Int) -> [TwoViewGeometry] {
        geometries(scene: scene, pairs: (0..<images).flatMap { i in ((i + 1)..<images).map { (i, $0) } })
    }

    func geometries(scene: SyntheticScene, pairs: [(Int, Int)]) -> [TwoViewGeometry] {
        let all = (0..<Int32(scene.points.count)).map { $0 }
        return pairs.map { i, j in
            let pose = scene.cameraFromWorld[j] * scene.cameraFromWorld[i].inverse
            let unit = RigidTransform(rotation: pose.rotation, translation: pose.translation.normalized)
            return TwoViewGeometry(pair: ImagePair(i, j), keypoints1: all, keypoints2: all, secondFromFirst: unit,
                                   medianTriangulationAngleDegrees: 15 * Double(j - i))
        }
    }

    func testRecoversEveryPoseFromNoisyTracksAndReportsAnUnmatchedImage() throws {
        let scene = SyntheticScene(pointCount: 400, cameraCount: 6, seed: 21)
        var images = inputs(scene: scene, noisePixels: 0.3, seed: 4)
        // Image 5 has no verified matches at all: it must come back unregistered, with a reason.
        let verified = geometries(scene: scene, images: 5)
        images[5].features.positions = images[5].features.positions.map { $0 + 50 }
        let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
        var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        let result = try mapper.run()

        XCTAssertEqual(result.registeredCount, 5)
        XCTAssertFalse(result.images[5].isRegistered)
        XCTAssertNotNil(result.images[5].unregisteredReason)
        let truth = scene.cameraFromWorld.prefix(5).enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.inverse) }
        let estimated = result.images.prefix(5).enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.cameraFromWorld?.inverse) }
        let accuracy = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertLessThan(accuracy.maxRotationErrorDegrees, 0.05)
        XCTAssertLessThan(accuracy.maxPositionError, 0.005, "scene units; cameras are 5 units from the points")
        XCTAssertGreaterThan(result.points.count, 390)
        for point in result.points { XCTAssertLessThan(point.meanReprojectionErrorPixels, 2) }
    }

    func testUnregisteredImagesSayWhetherTheyAreIsolatedOrInASeparateGroup() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 7, seed: 8)
        let images = inputs(scene: scene, noisePixels: 0.2, seed: 5)
        // Images 0–3 match each other; 4 and 5 only match each other, with the most inliers of any
        // pair (the reconstruction must still start in the larger group); 6 matches nothing.
        let connected = (0..<4).flatMap { i in ((i + 1)..<4).map { (i, $0) } }
        var verified = geometries(scene: scene, pairs: connected + [(4, 5)])
        for g in verified.indices where g < connected.count {
            verified[g].keypoints1.removeLast(100)
            verified[g].keypoints2.removeLast(100)
        }
        let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
        var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        let result = try mapper.run()

        XCTAssertEqual(result.images.map(\.isRegistered), [true, true, true, true, false, false, false])
        for i in [4, 5] {
            let reason = try XCTUnwrap(result.images[i].unregisteredReason)
            XCTAssertTrue(reason.contains("one of 2 images that match each other"), reason)
            XCTAssertTrue(reason.contains("no verified pair with the reconstructed images"), reason)
        }
        let isolated = try XCTUnwrap(result.images[6].unregisteredReason)
        XCTAssertTrue(isolated.hasPrefix("no verified pair with any other image"), isolated)
        XCTAssertFalse(isolated.contains("features where"), isolated)

        // The same photo with 20 features where the others have 300 (dark, blurred, plain): said so.
        var sparse = images
        sparse[6].features = ImageFeatures(imageWidth: 640, imageHeight: 480, positions: Array(images[6].features.positions.prefix(40)),
                                           scales: Array(repeating: 3, count: 20), descriptors: Array(repeating: 0, count: 128 * 20),
                                           colors: Array(repeating: 128, count: 60))
        var sparseMapper = IncrementalMapper(images: sparse, tracks: FeatureTracks(keypointCounts: sparse.map(\.features.count), geometries: verified),
                                             geometries: verified)
        let dark = try XCTUnwrap(try sparseMapper.run().images[6].unregisteredReason)
        XCTAssertTrue(dark.hasSuffix("; it has 20 features where the photos' median is 300: it may be dark, blurred or of a plain surface"), dark)

        // The same, but a thumbnail among full-size photos: its size is the likelier cause.
        var thumbnail = sparse
        thumbnail[6].intrinsics = thumbnail[6].intrinsics.scaled(toWidth: 64, height: 48)
        var thumbnailMapper = IncrementalMapper(images: thumbnail, tracks: FeatureTracks(keypointCounts: thumbnail.map(\.features.count), geometries: verified),
                                                geometries: verified)
        let small = try XCTUnwrap(try thumbnailMapper.run().images[6].unregisteredReason)
        XCTAssertTrue(small.hasSuffix("at 64×48 it is much smaller than the others (a thumbnail?); use the full-size photo"), small)
    }

    func testAGroupThatCannotStartGivesWayToTheNextLargest() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 7, seed: 9)
        let images = inputs(scene: scene, noisePixels: 0.2, seed: 6)
        // Images 0–3 (the largest group) verify only with a relative pose without baseline, which
        // triangulates nothing; images 4–6 are a sound group of their own.
        let large = (0..<4).flatMap { i in ((i + 1)..<4).map { (i, $0) } }
        var verified = geometries(scene: scene, pairs: large + [(4, 5), (4, 6), (5, 6)])
        for g in verified.indices where g < large.count {
            verified[g].secondFromFirst = RigidTransform(rotation: .identity, translation: Vector3(0, 0, 0))
        }
        let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
        var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        let result = try mapper.run()
        XCTAssertEqual(result.images.map(\.isRegistered), [false, false, false, false, true, true, true])
    }

    /// The pair with most inliers cannot start (its relative pose has no baseline and triangulates
    /// nothing): the next pair starts instead, and every image registers. The mapper stopped at
    /// the first pair (24 photos of 200 × 150 px failed with "the best pair triangulates only 21
    /// points"); after every tried pair fails, the message names the best one's photos.
    func testAPairThatTriangulatesTooFewPointsGivesWayToTheNext() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 5, seed: 12)
        let images = inputs(scene: scene, noisePixels: 0.2, seed: 7)
        var verified = geometries(scene: scene, images: 5)
        for g in verified.indices where verified[g].pair != ImagePair(0, 1) {
            verified[g].keypoints1.removeLast(50)
            verified[g].keypoints2.removeLast(50)
        }
        let bad = try XCTUnwrap(verified.firstIndex { $0.pair == ImagePair(0, 1) })
        verified[bad].secondFromFirst = RigidTransform(rotation: .identity, translation: Vector3(0, 0, 0))
        let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
        var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        XCTAssertEqual(try mapper.run().registeredCount, 5)

        // Every pair without baseline: the error names the photos of the pair that came closest.
        for g in verified.indices { verified[g].secondFromFirst = RigidTransform(rotation: .identity, translation: Vector3(0, 0, 0)) }
        var failing = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        failing.imageNames = (0..<5).map { "photo-\($0).jpg" }
        XCTAssertThrowsError(try failing.run()) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("no pair triangulates the 30 points a start needs; the best of the 10 tried, photo-"), message)
        }
    }

    /// Pairs (0, 1) and (1, 2) share `firstPair` and `secondPair` points, but only `shared` of them
    /// are seen by all three images: too few for the third image to register by PnP. The pair with
    /// more inliers starts the reconstruction.
    func weaklyOverlappingTriple(shared: Int, firstPair: Int = 200, secondPair: Int = 200, seed: UInt64)
        -> (SyntheticScene, [IncrementalMapper.ImageInput], [TwoViewGeometry]) {
        let scene = SyntheticScene(pointCount: firstPair + secondPair - shared, cameraCount: 3, seed: seed)
        let images = inputs(scene: scene, noisePixels: 0.3, seed: seed + 1)
        var verified = geometries(scene: scene, pairs: [(0, 1), (1, 2)])
        let first = (0..<Int32(firstPair)).map { $0 }
        let second = (Int32(firstPair - shared)..<Int32(firstPair + secondPair - shared)).map { $0 }
        (verified[0].keypoints1, verified[0].keypoints2) = (first, first)
        (verified[1].keypoints1, verified[1].keypoints2) = (second, second)
        return (scene, images, verified)
    }

    func testAnImageSeeingFewReconstructedPointsRegistersThroughItsPair() throws {
        // Started from (0, 1), image 2 registers as the second image of its pair; started from
        // (1, 2), image 0 registers as the first image of its pair.
        for (firstPair, secondPair, seed, throughPair) in [(200, 200, 31, 2), (200, 230, 33, 0)] as [(Int, Int, UInt64, Int)] {
            let (scene, images, verified) = weaklyOverlappingTriple(shared: 12, firstPair: firstPair, secondPair: secondPair, seed: seed)
            let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
            var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
            let result = try mapper.run()

            XCTAssertEqual(result.registeredCount, 3, result.images.compactMap(\.unregisteredReason).joined(separator: "; "))
            // Three cameras align poorly by their centres alone, so compare what registration
            // through the pair fixes: the image's rotation relative to image 1 (its pair's other
            // image), and the ratio of the two baselines (the length only the 12 shared points fix).
            let poses = try result.images.map { try XCTUnwrap($0.cameraFromWorld) }
            let relative = poses[throughPair].rotation * poses[1].rotation.transposed
            let trueRelative = scene.cameraFromWorld[throughPair].rotation * scene.cameraFromWorld[1].rotation.transposed
            XCTAssertLessThan((relative * trueRelative.transposed).rotationAngleDegrees, 0.05, "image \(throughPair)")
            func baselineRatio(_ p: [RigidTransform]) -> Double {
                p[2].cameraCentreInWorld.distance(to: p[1].cameraCentreInWorld) / p[1].cameraCentreInWorld.distance(to: p[0].cameraCentreInWorld)
            }
            XCTAssertEqual(baselineRatio(poses), baselineRatio(scene.cameraFromWorld), accuracy: 0.01 * baselineRatio(scene.cameraFromWorld))
            XCTAssertGreaterThan(result.points.count, firstPair + secondPair - 30)
        }
    }

    func testAPairWhoseSharedPointsDisagreeDoesNotRegisterItsImage() throws {
        var (_, images, verified) = weaklyOverlappingTriple(shared: 12, seed: 32)
        // Image 2's keypoints of the shared points are moved off their projections: the pair still
        // verifies (its other matches are exact), but no baseline length fits the shared points.
        for k in 188..<200 {
            images[2].features.positions[2 * k] += Float(40 + 7 * (k % 5))
            images[2].features.positions[2 * k + 1] -= Float(30 + 11 * (k % 3))
        }
        let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
        var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
        let result = try mapper.run()

        XCTAssertEqual(result.images.map(\.isRegistered), [true, true, false])
        let reason = try XCTUnwrap(result.images[2].unregisteredReason)
        XCTAssertTrue(reason.contains("too few matches to the reconstructed scene"), reason)
        XCTAssertTrue(reason.contains("it sees 12 reconstructed points"), reason)
        XCTAssertTrue(reason.contains("of the 12 points both photos see fit one baseline length"), reason)
        for point in result.points { XCTAssertLessThan(point.meanReprojectionErrorPixels, 2) }
    }

    /// Photos from one spot (a camera turned on a tripod) have no baseline: every pair is a
    /// homography. With focal lengths only guessed, even pairs whose fitted pose looks wide (the
    /// noise of a translation that is not there: up to 6.7° on seven turned views of a fountain-P11
    /// photo) cannot start, and the error says why. (With known intrinsics such a pair stays the
    /// fallback it was: verification refuses pure rotations before, and dense sequences need it.)
    func testPhotosTakenFromOneSpotCannotStartAReconstruction() throws {
        var scene = SyntheticScene(pointCount: 300, cameraCount: 4, seed: 12)
        let centre = scene.cameraFromWorld[0].cameraCentreInWorld
        scene.cameraFromWorld = scene.cameraFromWorld.map { pose in
            RigidTransform(rotation: pose.rotation, translation: -(pose.rotation * centre))
        }
        var rng = SplitMix64(seed: 3)
        for angle in [6.0, 1.0] {
            let source = IntrinsicsSource.defaultGuess
            var images = inputs(scene: scene, noisePixels: 0.2, seed: 6)
            for i in images.indices { images[i].intrinsicsSource = source }
            let verified = geometries(scene: scene, pairs: [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]).map { g in
                // Verification's pose for a pair without translation: a direction from noise.
                let direction = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()).normalized
                return TwoViewGeometry(pair: g.pair, keypoints1: g.keypoints1, keypoints2: g.keypoints2,
                                       secondFromFirst: RigidTransform(rotation: g.secondFromFirst!.rotation, translation: direction),
                                       medianTriangulationAngleDegrees: angle)
            }
            let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
            var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified)
            XCTAssertThrowsError(try mapper.run(), "\(angle)°") { error in
                XCTAssertTrue("\(error)".contains("what a camera turning on one spot sees"), "\(angle)°: \(error)")
            }
        }
    }

    /// A photo alone at its size, without EXIF (say a 3072 px photo among 1024 px ones), is its
    /// own camera with the default focal guess, no pairs of its own to estimate it from, and a
    /// guess a third off leaves PnP too few inliers: on fountain-P11, 190 of 1242. The first image
    /// of such a camera searches the focal length that registers the most points, and bundle
    /// adjustment refines it.
    func testAPhotoAloneWithAGuessedFocalLengthRegistersWithItsOwn() throws {
        var scene = SyntheticScene(pointCount: 400, cameraCount: 6, seed: 21)
        // Camera 5 stands close (2.75 units): the points fill its view, at depths from 1.75 to
        // 3.75 units, so a wrong focal length cannot pass for a camera farther away.
        scene.cameraFromWorld[5] = SyntheticScene.lookAt(centre: 0.55 * scene.cameraFromWorld[5].cameraCentreInWorld, target: .zero)
        let trueFocal = 460.0, guess = 1.2 * 640  // a phone's main camera (26 mm) against the guess
        func mapped(focalSearch: Bool) throws -> SparseScene {
            var images = inputs(scene: scene, noisePixels: 0.3, seed: 4)
            var rng = SplitMix64(seed: 9)
            var positions: [Float] = []
            for p in scene.points.indices {
                let (u, v) = scene.normalized(point: p, camera: 5)
                if p % 3 != 0 {
                    // Two matches in three are wrong, as among real 2D-3D correspondences.
                    positions += [Float(rng.uniform(0, 640)), Float(rng.uniform(0, 480))]
                } else {
                    positions += [Float(320 + trueFocal * u + 0.3 * rng.gaussian()), Float(240 + trueFocal * v + 0.3 * rng.gaussian())]
                }
            }
            images[5].features.positions = positions
            images[5].intrinsics = CameraIntrinsics(width: 640, height: 480, fx: guess, fy: guess, cx: 320, cy: 240)
            images[5].intrinsicsSource = .defaultGuess
            images[5].cameraGroup = 1
            let verified = geometries(scene: scene, pairs: [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (4, 5)])
            let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
            var options = IncrementalMapper.Options()
            // Registration through a pair is off: here the pairs carry the true relative poses,
            // where verification would have estimated them with the wrong focal length.
            options.minPairRegistrationInliers = .max
            if !focalSearch { options.focalSearchMinGain = .infinity }
            var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified, options: options)
            return try mapper.run()
        }

        let plain = try mapped(focalSearch: false)
        XCTAssertFalse(plain.images[5].isRegistered, "the guess alone should not register it")
        let result = try mapped(focalSearch: true)
        XCTAssertEqual(result.registeredCount, 6)
        let focal = result.images[5].intrinsics.fx
        XCTAssertEqual(focal, trueFocal, accuracy: 0.01 * trueFocal)
        XCTAssertEqual(result.images[0].intrinsics.fx, 800, "the given camera is held")
        let truth = scene.cameraFromWorld.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.inverse) }
        let estimated = result.images.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.cameraFromWorld?.inverse) }
        let accuracy = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertLessThan(accuracy.maxPositionError, 0.01, "scene units; cameras are 5 units from the points")
    }

    /// A lens whose principal point is off the photo's centre (as fountain-P11's, by 15 px):
    /// held at the centre, it tilts every camera; refined (on request, as COLMAP's
    /// refine_principal_point), it is found and the rotations follow.
    func testARefinedPrincipalPointIsFoundAndStraightensTheCameras() throws {
        let scene = SyntheticScene(pointCount: 400, cameraCount: 6, seed: 21)
        let trueCentre = (x: 340.0, y: 225.0)
        func mapped(refinesPrincipalPoint: Bool) throws -> (scene: SparseScene, rotationError: Double) {
            var images = inputs(scene: scene, noisePixels: 0.3, seed: 4)
            var rng = SplitMix64(seed: 11)
            for c in images.indices {
                images[c].features.positions = scene.points.indices.flatMap { p -> [Float] in
                    let (u, v) = scene.normalized(point: p, camera: c)
                    return [Float(trueCentre.x + 800 * u + 0.3 * rng.gaussian()), Float(trueCentre.y + 800 * v + 0.3 * rng.gaussian())]
                }
                images[c].intrinsicsSource = .exif  // the focal length from EXIF, the centre assumed
            }
            let verified = geometries(scene: scene, images: images.count)
            let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
            var options = IncrementalMapper.Options()
            options.refinesPrincipalPoint = refinesPrincipalPoint
            var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified, options: options)
            let result = try mapper.run()
            let truth = scene.cameraFromWorld.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.inverse) }
            let estimated = result.images.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.cameraFromWorld?.inverse) }
            return (result, try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth).medianRotationErrorDegrees)
        }
        let held = try mapped(refinesPrincipalPoint: false)
        XCTAssertEqual(held.scene.images[0].intrinsics.cx, 320, "held at the centre by default")
        let refined = try mapped(refinesPrincipalPoint: true)
        XCTAssertEqual(refined.scene.registeredCount, 6)
        XCTAssertEqual(refined.scene.images[0].intrinsics.cx, trueCentre.x, accuracy: 2)
        XCTAssertEqual(refined.scene.images[0].intrinsics.cy, trueCentre.y, accuracy: 2)
        XCTAssertLessThan(refined.rotationError, 0.5 * held.rotationError, "held \(held.rotationError)°, refined \(refined.rotationError)°")
    }

    /// A given K is held and stays "given"; with refinement asked for it is refined and says so
    /// ("given-refined" in poses.json), so a reader of the poses knows the K is no longer the one given.
    func testAGivenFocalLengthRefinedOnRequestIsMarkedRefined() throws {
        let scene = SyntheticScene(pointCount: 400, cameraCount: 5, seed: 21)
        func mapped(refine: Bool) throws -> SparseScene {
            var images = inputs(scene: scene, noisePixels: 0.3, seed: 4)
            let k = scene.intrinsics
            for c in images.indices {
                images[c].intrinsics = CameraIntrinsics(width: k.width, height: k.height, fx: 1.05 * k.fx, fy: 1.05 * k.fy, cx: k.cx, cy: k.cy)
            }
            let verified = geometries(scene: scene, images: images.count)
            var options = IncrementalMapper.Options()
            options.refineGivenIntrinsics = refine
            var mapper = IncrementalMapper(images: images, tracks: FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified),
                                           geometries: verified, options: options)
            return try mapper.run()
        }
        let held = try mapped(refine: false)
        XCTAssertEqual(held.images.map(\.intrinsicsSource), Array(repeating: .given, count: 5))
        XCTAssertEqual(held.images[0].intrinsics.fx, 1.05 * scene.intrinsics.fx, "held")
        let refined = try mapped(refine: true)
        XCTAssertEqual(refined.images.map(\.intrinsicsSource), Array(repeating: .givenRefined, count: 5))
        XCTAssertEqual(refined.images[0].intrinsics.fx, scene.intrinsics.fx, accuracy: 0.01 * scene.intrinsics.fx, "refined towards the true focal length")
    }
}
