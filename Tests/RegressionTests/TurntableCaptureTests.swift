import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// A turntable capture: the object turns in front of a textured backdrop, so the backdrop keeps
/// its place in every photo while the object (and the turntable's disc) moves. Rendered from the
/// synthetic vase capture by painting one fixed backdrop, pixel for pixel the same in every
/// photo, wherever neither the object nor the disc is. No masks go with the photos, as from a
/// phone.
final class TurntableCaptureTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("turntable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testPosesOfAnObjectTurningInFrontOfAStillBackdrop() throws {
        let capture = SyntheticCapture(settings: SyntheticCapture.Settings(scene: .texturedVase, views: 20, seed: 5, imageWidth: 640, imageHeight: 480))
        let (sources, truth) = try writeTurntablePhotos(capture, discRadius: nil)
        let report = try PoseEstimation().run(sources)
        XCTAssertEqual(report.scene.registeredCount, capture.viewCount)
        let accuracy = try PoseAccuracyReport.evaluate(estimated: report.scene.namedPoses, groundTruth: truth)
        print(String(format: "turntable: %d/%d registered, %d of %d pairs verified, position median %.2f mm max %.2f mm, rotation median %.3f° max %.3f°",
                     accuracy.registeredCount, accuracy.cameraCount, report.verifiedPairCount, report.matchedPairCount,
                     accuracy.medianPositionError * 1000, accuracy.maxPositionError * 1000, accuracy.medianRotationErrorDegrees,
                     accuracy.maxRotationErrorDegrees))
        // Measured: 20/20, 85 of 190 pairs verified, 1.11 mm median, 4.96 mm max. The same photos
        // without the backdrop (the plain studio): 1.32 and 3.97 mm. With the still matches kept
        // (`PairVerifier.Options.minStillMatches` out of reach), 2 of 20 registered: the
        // backdrop's matches outvote the vase's in every pair.
        XCTAssertLessThan(accuracy.medianPositionError, 0.0025, "median camera centre within 2.5 mm")
        XCTAssertLessThan(accuracy.maxPositionError, 0.01, "every camera centre within 1 cm")
        XCTAssertLessThan(accuracy.maxRotationErrorDegrees, 0.5, "every rotation within 0.5°")
    }

    /// The vase on a textured disc 25 cm in radius that turns with it (the room capture's rug,
    /// cut to the disc), the backdrop everywhere else. Stereo leaves the backdrop out
    /// (`StillPixels`), so the object is found standing on the disc and kept alone, as in a
    /// capture without a backdrop. With the backdrop in stereo, its depths (where neighbouring
    /// rays happen to cross) reach the edge of where every photo looks; the whole scene was kept
    /// then (22 % of the surface outside the vase's box). Those depths lie where every photo
    /// looks, which the edge test no longer counts (an object overflowing the photos reaches
    /// where they do not all look), so the vase is isolated with the backdrop in stereo too.
    func testTheDenseSurfaceOfATurntableCaptureIsTheObjectAlone() throws {
        var settings = SyntheticCapture.Settings(scene: .texturedVase, views: 24, seed: 3, imageWidth: 512, imageHeight: 384)
        settings.surroundings = .room
        let capture = SyntheticCapture(settings: settings)
        let (sources, truth) = try writeTurntablePhotos(capture, discRadius: 0.25)
        let scene = try PoseEstimation().run(sources).scene
        XCTAssertEqual(scene.registeredCount, capture.viewCount)
        let similarity = try XCTUnwrap(SurfaceEvaluation.alignment(estimated: scene.namedPoses, groundTruth: truth))

        let object = try dense(scene, of: capture, alignedBy: similarity, leavingStillPixelsOut: true)
        XCTAssertTrue(object.messages.contains { $0.hasPrefix("stereo left out") }, "\(object.messages)")
        XCTAssertTrue(object.messages.contains { $0.hasPrefix("kept") && $0.hasSuffix("above the plane it stands on") }, "\(object.messages)")
        // The underside is closed on the disc, the skirt drawn in under the vase's belly where
        // the depth of the disc shows the space there empty (`OpeningClosure`'s `showsEmpty`).
        XCTAssertTrue(object.messages.contains { $0.hasPrefix("closed 1 unseen opening") && $0.contains("on the support plane") },
                      "\(object.messages)")
        // Measured at stereo's 256 px: precision 0.952, recall 0.983, nothing outside the vase's
        // box (0.938 and 0.758 with the underside left open; 0.688 and 0.750 before views with
        // few sources took more, `minSourceViews`). With the backdrop in stereo: 0.681 and 0.780,
        // and 22 % of the surface outside it.
        XCTAssertLessThan(object.accuracy.outsideCropFraction, 0.02, "no backdrop or disc in the object's model")
        XCTAssertGreaterThan(object.accuracy.precision, 0.9)
        XCTAssertGreaterThan(object.accuracy.recall, 0.95)

        let backdrop = try dense(scene, of: capture, alignedBy: similarity, leavingStillPixelsOut: false)
        XCTAssertFalse(backdrop.messages.contains { $0.hasPrefix("kept the surroundings") }, "\(backdrop.messages)")
        XCTAssertTrue(backdrop.messages.contains { $0.hasPrefix("kept") && $0.hasSuffix("above the plane it stands on") },
                      "\(backdrop.messages)")
        // Measured: precision 0.950, recall 0.983, as with the still pixels left out (it was
        // 0.681 and 0.780 with the backdrop kept).
        XCTAssertLessThan(backdrop.accuracy.outsideCropFraction, 0.02, "no backdrop in the object's model")
        XCTAssertGreaterThan(backdrop.accuracy.precision, 0.9)
        XCTAssertGreaterThan(backdrop.accuracy.recall, 0.95)
    }

    /// Framed tight, the vase fills most of each photo and runs past its top and bottom edges,
    /// so little of the backdrop is left (stereo at 256 px leaves out 35 % of the photos' pixels
    /// as still) and no support is in view. Whatever stereo makes of the backdrop, the seen
    /// surface is the vase alone: measured, precision 1.000 with the still pixels left out and
    /// 1.000 with them kept (their depths agree with no other view). The surface is scored
    /// before the cut-off bottom is capped, since the cap is a plane where the frame cut the vase.
    func testATightlyFramedTurntableCaptureStillGivesTheObjectAlone() throws {
        var settings = SyntheticCapture.Settings(scene: .texturedVase, views: 20, seed: 5, imageWidth: 512, imageHeight: 384)
        settings.surroundings = .room
        settings.frameFill = 2.7
        let capture = SyntheticCapture(settings: settings)
        let (sources, truth) = try writeTurntablePhotos(capture, discRadius: 0.25)
        let report = try PoseEstimation().run(sources)
        XCTAssertEqual(report.scene.registeredCount, capture.viewCount)
        let accuracy = try PoseAccuracyReport.evaluate(estimated: report.scene.namedPoses, groundTruth: truth)
        print(String(format: "tight turntable: %d/%d registered, position median %.2f mm max %.2f mm",
                     accuracy.registeredCount, accuracy.cameraCount, accuracy.medianPositionError * 1000,
                     accuracy.maxPositionError * 1000))
        XCTAssertLessThan(accuracy.medianPositionError, 0.0025, "median camera centre within 2.5 mm")

        let similarity = try XCTUnwrap(SurfaceEvaluation.alignment(estimated: report.scene.namedPoses, groundTruth: truth))
        let object = try dense(report.scene, of: capture, alignedBy: similarity, leavingStillPixelsOut: true, closing: .never)
        XCTAssertLessThan(object.accuracy.outsideCropFraction, 0.02, "no backdrop in the object's model")
        XCTAssertGreaterThan(object.accuracy.precision, 0.9)
    }

    /// Dense stereo and fusion of the photos in `folder` at 256 px, with or without still
    /// pixels left out; the run's messages and its surface scored against the capture's object.
    private func dense(_ scene: SparseScene, of capture: SyntheticCapture, alignedBy similarity: SimilarityTransform,
                       leavingStillPixelsOut: Bool, closing: SurfaceReconstruction.ClosureMode = .whenObjectMasked)
        throws -> (messages: [String], accuracy: SurfaceAccuracy) {
        var options = DenseRun.Options()
        options.surface.closesOpenings = closing
        options.stereo.maxImageDimension = 256
        options.stereo.stillPixels.enabled = leavingStillPixelsOut
        let messages = Messages()
        let run = try DenseRun.run(scene: scene, imagesDirectory: folder, options: options, log: messages.append)
        var accuracyOptions = SurfaceAccuracy.Options()
        accuracyOptions.maxSampleCount = 50000
        accuracyOptions.cropMarginFraction = 0.05
        let accuracy = try SurfaceAccuracy.evaluate(reconstruction: SurfaceEvaluation.transformed(run.surface.mesh, by: similarity),
                                                    groundTruth: capture.objectMesh, options: accuracyOptions)
        print(String(format: "turntable dense, still pixels %@: precision %.3f recall %.3f F %.3f, outside %.3f",
                     leavingStillPixelsOut ? "left out" : "kept", accuracy.precision, accuracy.recall, accuracy.fScore,
                     accuracy.outsideCropFraction))
        return (messages.lines, accuracy)
    }

    /// Writes the capture's photos with the backdrop painted where neither the object nor (with
    /// a radius) a disc on the floor around its axis is: the photo sources with the given K, and
    /// the true poses named like them.
    private func writeTurntablePhotos(_ capture: SyntheticCapture, discRadius: Double?) throws -> (sources: [ImageSource], truth: [NamedPose]) {
        let k = capture.intrinsics
        let backdrop = Self.backdrop(width: k.width, height: k.height, seed: 11)
        var sources: [ImageSource] = [], truth: [NamedPose] = []
        for index in 0..<capture.viewCount {
            let view = capture.view(at: index)
            var keep = view.mask
            if let discRadius { keep = Self.addingDisc(to: keep, radius: discRadius, intrinsics: k, worldFromCamera: view.worldFromCamera) }
            let url = folder.appendingPathComponent("\(view.name).png")
            try ImageCodec.encode(Self.composite(view.image, over: backdrop, mask: keep), as: .png).write(to: url)
            sources.append(ImageSource(name: url.lastPathComponent, url: url, prior: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)))
            truth.append(NamedPose(name: url.lastPathComponent, worldFromCamera: view.worldFromCamera))
        }
        return (sources, truth)
    }

    /// `mask` with the pixels whose ray meets the floor (z = 0 in the capture's frame) within
    /// `radius` of the vertical axis set.
    static func addingDisc(to mask: GrayImage, radius: Double, intrinsics k: CameraIntrinsics, worldFromCamera: RigidTransform) -> GrayImage {
        var out = mask
        let centre = worldFromCamera.translation
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let ray = worldFromCamera.rotation * Vector3((Double(x) + 0.5 - k.cx) / k.fx, (Double(y) + 0.5 - k.cy) / k.fy, 1)
                guard ray.z < 0 else { continue }
                let t = -centre.z / ray.z
                let hit = centre + t * ray
                if hit.x * hit.x + hit.y * hit.y < radius * radius { out.pixels[y * mask.width + x] = 255 }
            }
        }
        return out
    }

    /// `photo` where `mask` is set, `backdrop` elsewhere.
    static func composite(_ photo: RGBImage, over backdrop: RGBImage, mask: GrayImage) -> RGBImage {
        var out = backdrop
        for i in 0..<(photo.width * photo.height) where mask.pixels[i] != 0 {
            for c in 0..<3 { out.pixels[3 * i + c] = photo.pixels[3 * i + c] }
        }
        return out
    }

    /// Coloured value noise at three scales (48, 16 and 6 px cells): texture SIFT finds features in.
    static func backdrop(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var rng = SeededGenerator(seed: seed)
        var sum = [Float](repeating: 0, count: width * height * 3)
        for cell in [48, 16, 6] {
            let gw = width / cell + 2, gh = height / cell + 2
            let grid = (0..<(gw * gh * 3)).map { _ in Float.random(in: 0..<1, using: &rng) }
            for y in 0..<height {
                let fy = Float(y) / Float(cell), y0 = Int(fy), ty = fy - Float(y0)
                for x in 0..<width {
                    let fx = Float(x) / Float(cell), x0 = Int(fx), tx = fx - Float(x0)
                    for c in 0..<3 {
                        func g(_ i: Int, _ j: Int) -> Float { grid[(j * gw + i) * 3 + c] }
                        let top = g(x0, y0) * (1 - tx) + g(x0 + 1, y0) * tx
                        let bottom = g(x0, y0 + 1) * (1 - tx) + g(x0 + 1, y0 + 1) * tx
                        sum[(y * width + x) * 3 + c] += 85 * (top * (1 - ty) + bottom * ty)
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: sum.map { UInt8(min(255, $0)) })
    }
}
