import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// Object captures without masks (photos of an object in a textured room): the dense path keeps
/// the object standing on its floor and leaves the room out, as a masked capture would; with
/// isolation off it keeps the room. The session's bounds request answers with the object's box.
final class ObjectIsolationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isolation-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func roomCapture(views: Int, sidecars: Bool, frameFill: Double = 0.8, surroundings: SyntheticCapture.Surroundings = .room,
                             seed: UInt64 = 3, width: Int = 512, height: Int = 384) throws -> (capture: SyntheticCapture, images: URL) {
        var settings = SyntheticCapture.Settings(scene: .texturedVase, views: views, seed: seed, imageWidth: width, imageHeight: height)
        settings.surroundings = surroundings
        settings.frameFill = frameFill
        let capture = SyntheticCapture(settings: settings)
        let images = try SyntheticCaptureWriter.write(capture, to: folder, sidecars: sidecars)
        return (capture, images)
    }

    private func removeMasks(in images: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: images.path) where name.hasSuffix("_mask.png") {
            try FileManager.default.removeItem(at: images.appendingPathComponent(name))
        }
    }

    /// The capture's true poses (metric) as a scene, and dense options that fuse its LiDAR-like
    /// depth sidecars without stereo.
    private func knownPosesAndDepth(_ capture: SyntheticCapture, images: URL) throws -> (scene: SparseScene, options: DenseRun.Options) {
        let k = capture.intrinsics
        let scene = try KnownPoses.scene(posesFile: folder.appendingPathComponent("ground_truth/poses.json"), imagesDirectory: images,
                                         intrinsics: PinholeIntrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        var options = DenseRun.Options()
        options.useStereo = false
        options.posesAreMetric = true
        return (scene, options)
    }

    /// `mesh` (in the capture's frame) against the vase, cropped to its box grown by 5 %.
    private func vaseAccuracy(of mesh: TriangleMesh, against capture: SyntheticCapture) throws -> SurfaceAccuracy {
        var options = SurfaceAccuracy.Options()
        options.maxSampleCount = 50000
        options.cropMarginFraction = 0.05
        return try SurfaceAccuracy.evaluate(reconstruction: mesh, groundTruth: capture.objectMesh, options: options)
    }

    /// Known metric poses and LiDAR-like depth, masks removed: no sparse points, so the region the
    /// cameras look at is found in the depth itself.
    func testLiDARDepthWithoutMasksGivesTheObjectOnItsFloor() throws {
        let (capture, images) = try roomCapture(views: 24, sidecars: true)
        try removeMasks(in: images)
        let (scene, options) = try knownPosesAndDepth(capture, images: images)
        let messages = Messages()
        let isolated = try DenseRun.run(scene: scene, imagesDirectory: images, options: options, log: messages.append)
        XCTAssertTrue(messages.lines.contains { $0.hasPrefix("object capture without masks: 24 of 24 photos") }, "\(messages.lines)")

        let floor = try XCTUnwrap(isolated.surface.supportPlane, "the rug the vase stands on")
        XCTAssertGreaterThan(floor.normal.z, 0.995)
        XCTAssertEqual(floor.offset, 0, accuracy: 0.005)
        XCTAssertEqual(isolated.surface.closure.closedOnSupport, 1, "the underside is closed on the floor")
        let accuracy = try vaseAccuracy(of: isolated.surface.mesh, against: capture)
        XCTAssertLessThan(accuracy.outsideCropFraction, 0.02, "no room in the object's model")
        // Measured 0.71 and 0.85 (with the masks and their hull: 0.92 and 0.94): 128 × 96 depth
        // misses the vase's foot and the dish at its top, which the closure and no hull restore.
        XCTAssertGreaterThan(accuracy.precision, 0.6)
        XCTAssertGreaterThan(accuracy.recall, 0.8)

        var keepingAll = options
        keepingAll.isolatesObject = false
        let whole = try DenseRun.run(scene: scene, imagesDirectory: images, options: keepingAll)
        let wholeAccuracy = try vaseAccuracy(of: whole.surface.mesh, against: capture)
        XCTAssertGreaterThan(wholeAccuracy.outsideCropFraction, 0.5, "without isolation the floor and walls are kept")
    }

    /// Mattes and masks of any extension and case are masks to the dense stage too (as to the
    /// pose stage): the capture is a masked one, completed from their outlines, not isolated.
    func testMattesAndUpperCaseMasksMakeAMaskedCapture() throws {
        let (capture, images) = try roomCapture(views: 24, sidecars: true)
        let masks = try FileManager.default.contentsOfDirectory(atPath: images.path).filter { $0.hasSuffix("_mask.png") }.sorted()
        for (i, name) in masks.enumerated() {
            let stem = String(name.dropLast("_mask.png".count))
            try FileManager.default.moveItem(at: images.appendingPathComponent(name),
                                             to: images.appendingPathComponent(i % 2 == 0 ? "\(stem)_matte.png" : "\(stem)_MASK.PNG"))
        }
        let (scene, options) = try knownPosesAndDepth(capture, images: images)
        let messages = Messages()
        let dense = try DenseRun.run(scene: scene, imagesDirectory: images, options: options, log: messages.append)
        XCTAssertFalse(messages.lines.contains { $0.hasPrefix("object capture without masks") || $0.hasPrefix("warning") }, "\(messages.lines)")
        XCTAssertGreaterThan(dense.surface.silhouetteVoxels, 0, "the hull of 24 masks")
    }

    /// Photos taken so close that the object overflows every frame: no photo frames it whole, so
    /// where every photo looks is only its middle. Isolating there would cut the object; the
    /// capture is kept whole instead, and the whole object is in the surface.
    func testAnObjectLargerThanThePhotosFrameIsNotCut() throws {
        let (capture, images) = try roomCapture(views: 24, sidecars: true, frameFill: 1.8)
        try removeMasks(in: images)
        let (scene, options) = try knownPosesAndDepth(capture, images: images)
        let messages = Messages()
        let dense = try DenseRun.run(scene: scene, imagesDirectory: images, options: options, log: messages.append)
        XCTAssertTrue(messages.lines.contains { $0.hasPrefix("kept the surroundings: the object reaches beyond what every photo frames") },
                      "\(messages.lines)")
        let accuracy = try vaseAccuracy(of: dense.surface.mesh, against: capture)
        // Measured 0.786 kept whole; isolated to where every photo looks, it was 0.739.
        XCTAssertGreaterThan(accuracy.recall, 0.77, "the whole vase, as far as the close photos show it")
        XCTAssertGreaterThan(accuracy.outsideCropFraction, 0.3, "with the room around it")
    }

    /// Photos only (no depth), poses estimated, stereo on 256 px photos.
    private func photosOnlyRun(frameFill: Double, isolation: ObjectIsolation.Options = .init(),
                               studio: Bool = false) throws -> (messages: [String], accuracy: SurfaceAccuracy, depthCoverage: Double) {
        // The studio capture is `synth textured-vase --views 24 --size 640x480 --photos-only`'s.
        let (capture, images) = studio ? try roomCapture(views: 24, sidecars: false, surroundings: .studio, seed: 1, width: 640, height: 480)
            : try roomCapture(views: 24, sidecars: false, frameFill: frameFill)
        let k = capture.intrinsics
        let sources = try CaptureSources.load(imagesDirectory: images, given: PinholeIntrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        let scene = try PoseEstimation().run(sources).scene
        XCTAssertEqual(scene.registeredCount, 24)
        var options = DenseRun.Options()
        options.stereo.maxImageDimension = studio ? 640 : 256
        options.isolation = isolation
        let messages = Messages()
        let dense = try DenseRun.run(scene: scene, imagesDirectory: images, options: options, log: messages.append)
        let accuracy = try SurfaceEvaluation.evaluate(mesh: dense.surface.mesh, estimated: scene.namedPoses, groundTruth: GroundTruth.load(folder))
        let views = try XCTUnwrap(dense.stereo).views
        let coverage = views.reduce(0.0) { $0 + Double($1.depth.metres.filter { $0 > 0 }.count) / Double($1.depth.metres.count) }
        return (messages.lines, accuracy, coverage / Double(views.count))
    }

    /// Close photos without depth: the sparse points already show the object reaching the edge of
    /// where every photo looks, so stereo matches whole photos and the surroundings are kept.
    func testCloseUpPhotosWithEstimatedPosesKeepTheirSurroundings() throws {
        let run = try photosOnlyRun(frameFill: 2.0)
        XCTAssertTrue(run.messages.contains { $0.hasPrefix("kept the surroundings: the object reaches beyond what every photo frames") },
                      "\(run.messages)")
        XCTAssertFalse(run.messages.contains { $0.hasPrefix("stereo keeps to the object") }, "\(run.messages)")
        // Measured: 3 % of the object's sparse points at the region's edge; 20 % of the surface
        // around the vase, recall 0.55 at 256 px.
        XCTAssertGreaterThan(run.accuracy.outsideCropFraction, 0.1, "with the floor and walls it stands among")
        XCTAssertGreaterThan(run.accuracy.recall, 0.45)
    }

    /// On a plain floor stereo finds no support plane, and the sparse points stop short of the
    /// object's foot: stereo must still reach down to it. It was cut at the lowest sparse points,
    /// and the vase lost its lowest 55–124 mm: F 0.794, recall 0.811. Stereo then looked down to the
    /// bottom of the region every photo frames, but the foot's depth there was taken for an object
    /// reaching beyond the photos: the surroundings were kept and stereo ran again on the whole
    /// photos (F 0.907, recall 0.863, twice the stereo time). Depth at the region's edge that every
    /// photo frames, and depth straight under the region, is the object's: it is isolated at once.
    func testAnObjectOnAPlainFloorKeepsItsFoot() throws {
        let run = try photosOnlyRun(frameFill: 0.8, studio: true)
        XCTAssertTrue(run.messages.contains { $0.hasPrefix("stereo keeps to the object") }, "\(run.messages)")
        XCTAssertFalse(run.messages.contains { $0.hasPrefix("kept the surroundings") }, "\(run.messages)")
        XCTAssertFalse(run.messages.contains { $0.hasPrefix("dense stereo again") }, "\(run.messages)")
        XCTAssertLessThan(run.accuracy.outsideCropFraction, 0.02, "the object alone")
        XCTAssertGreaterThan(run.accuracy.recall, 0.84, "\(run.accuracy)")
        XCTAssertGreaterThan(run.accuracy.fScore, 0.87, "\(run.accuracy)")
    }

    /// When the depth refuses an object that the sparse points accepted (here: the depth samples
    /// it needs set beyond reach), the surroundings kept are whole: stereo, first kept to the
    /// object, runs again on the whole photos.
    func testStereoRunsAgainOnTheWholePhotosWhenTheObjectIsNotIsolated() throws {
        var isolation = ObjectIsolation.Options()
        isolation.minimumObjectSamples = 100_000_000
        let run = try photosOnlyRun(frameFill: 0.8, isolation: isolation)
        for prefix in ["stereo keeps to the object", "kept the surroundings: too little depth", "dense stereo again on the whole photos"] {
            XCTAssertTrue(run.messages.contains { $0.hasPrefix(prefix) }, "\(prefix): \(run.messages)")
        }
        // Kept to the object, stereo saw 27 % of the photos' area; on the whole photos it finds
        // depth on 78 % of it (measured), and the room is in the surface.
        XCTAssertGreaterThan(run.depthCoverage, 0.5)
        XCTAssertGreaterThan(run.accuracy.outsideCropFraction, 0.5)
    }

    func testTheSessionBoundsOfPhotosWithoutMasksAreTheObjects() async throws {
        let (capture, images) = try roomCapture(views: 24, sidecars: false)
        func bounds(masking: Bool) async throws -> (box: BoundingBox, cameraDistance: Double) {
            var configuration = PhotogrammetrySession.Configuration()
            configuration.isObjectMaskingEnabled = masking
            let session = try PhotogrammetrySession(input: images, configuration: configuration)
            try session.process(requests: [.bounds, .poses])
            var box: BoundingBox?, poses: PhotogrammetrySession.Poses?
            for await output in session.outputs {
                switch output {
                case .requestComplete(_, .bounds(let b)): box = b
                case .requestComplete(_, .poses(let p)): poses = p
                case .requestError(let request, let error): XCTFail("\(request): \(error)")
                case .processingComplete: break
                default: continue
                }
                if case .processingComplete = output { break }
            }
            let found = try XCTUnwrap(box)
            let centres = try XCTUnwrap(poses).posesBySample.values.map(\.worldFromCamera.translation)
            let distances = centres.map { $0.distance(to: found.centre) }.sorted()
            return (found, distances[distances.count / 2])
        }
        // The vase's box diagonal is 0.66 times the cameras' distance from it.
        let truth = capture.objectBounds.diagonal / capture.meanCameraDistance
        let object = try await bounds(masking: true)
        XCTAssertEqual(object.box.diagonal / object.cameraDistance, truth, accuracy: 0.35 * truth,
                       "the box around the vase (an axis-aligned box of the reconstruction's frame, so somewhat larger)")
        let room = try await bounds(masking: false)
        XCTAssertGreaterThan(room.box.diagonal / room.cameraDistance, 3 * truth, "object masking off: the room's points")
    }
}
