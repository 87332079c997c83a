import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import SyntheticCapture
import XCTest

/// RGB-D keyframe folders: frames converted from a synthetic capture read back with their true
/// poses; each kind of bad frame is reported by file name and skipped.
final class RGBDKeyframesTests: XCTestCase {
    private var folder: URL!
    private static let capture = SyntheticCapture(scene: .plainBox, views: 12, seed: 3, imageWidth: 512, imageHeight: 384)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rgbd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Writes view `index` of the capture as frame `number`: PNG photo, 16-bit millimetre depth, and
    /// metadata with the pose in ARKit's camera axes (or ours with `axes: "opencv"`).
    /// The mistakes users make: `depthScale` writes depth in other units, `untaggedOpenCVAxes`
    /// writes the pose in OpenCV's axes without saying so, `intrinsicsAtDepthSize` gives the
    /// intrinsics for the depth map's size, `shift` moves the camera up (metres, world z).
    private func writeFrame(_ index: Int, as number: Int, opencvAxes: Bool = false, flat: Bool = false, depthScale: Float = 1,
                            untaggedOpenCVAxes: Bool = false, intrinsicsAtDepthSize: Bool = false, shift: Double = 0) throws {
        let view = Self.capture.view(at: index)
        try ImageCodec.encode(view.image, as: .png).write(to: folder.appendingPathComponent("color_\(number).png"))
        let millimetres = view.depth.metres.map { UInt16(clamping: Int(($0 * 1000 * depthScale).rounded())) }
        try ImageCodec.encode16(millimetres, width: view.depth.width, height: view.depth.height)
            .write(to: folder.appendingPathComponent("depth_\(number).png"))
        let k = intrinsicsAtDepthSize ? Self.capture.depthIntrinsics : Self.capture.intrinsics
        var r = view.worldFromCamera.rotation.m
        if !opencvAxes && !untaggedOpenCVAxes { for row in 0..<3 { r[row * 3 + 1] = -r[row * 3 + 1]; r[row * 3 + 2] = -r[row * 3 + 2] } }
        let t = view.worldFromCamera.translation + Vector3(0, 0, shift)
        let pose: [[Double]] = [[r[0], r[1], r[2], t.x], [r[3], r[4], r[5], t.y], [r[6], r[7], r[8], t.z], [0, 0, 0, 1]]
        let intrinsics: [[Double]] = [[k.fx, 0, k.cx], [0, k.fy, k.cy], [0, 0, 1]]
        var json: [String: Any] = flat ? ["intrinsics": intrinsics.flatMap { $0 }, "cameraToWorld": pose.flatMap { $0 }]
                                       : ["intrinsics": intrinsics, "cameraToWorld": pose]
        if opencvAxes { json["axes"] = "opencv" }
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("metadata_\(number).json"))
    }

    private func assertPose(_ a: RigidTransform, _ b: RigidTransform, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.rotation.m, b.rotation.m) { XCTAssertEqual(x, y, accuracy: 1e-9, file: file, line: line) }
        XCTAssertEqual((a.translation - b.translation).length, 0, accuracy: 1e-9, file: file, line: line)
    }

    func testGoodFramesGiveTheTruePosesIntrinsicsAndDepth() throws {
        try writeFrame(0, as: 0)
        try writeFrame(1, as: 1, opencvAxes: true)
        try writeFrame(2, as: 12, flat: true)
        XCTAssertTrue(RGBDKeyframes.isKeyframeFolder(folder))
        let keyframes = try RGBDKeyframes.load(folder)
        XCTAssertEqual(keyframes.problems, [])
        XCTAssertEqual(keyframes.frames.map(\.number), [0, 1, 12])
        XCTAssertEqual(keyframes.frames.map(\.photoName), ["color_0.png", "color_1.png", "color_12.png"])
        for (frame, view) in zip(keyframes.frames, [0, 1, 2]) {
            assertPose(frame.worldFromCamera, Self.capture.view(at: view).worldFromCamera)
            XCTAssertEqual(frame.intrinsics, Self.capture.intrinsics)
            XCTAssertEqual(frame.depth.depth.width, Self.capture.depthIntrinsics.width)
            let truth = Self.capture.view(at: view).depth.metres
            XCTAssertEqual(zip(frame.depth.depth.metres, truth).map { abs($0 - $1) }.max() ?? 1, 0, accuracy: 0.0006)
        }
        let scene = keyframes.scene
        XCTAssertEqual(scene.registeredCount, 3)
        XCTAssertEqual(Set(keyframes.depthByPhotoName.keys), ["color_0.png", "color_1.png", "color_12.png"])
        XCTAssertFalse(RGBDKeyframes.isKeyframeFolder(folder.appendingPathComponent("missing")))
    }

    /// `confidence_N.png` weights frame N's depth (ARKit's levels); one that cannot be used is
    /// named and the depth is kept with equal weight; one without a frame is named and ignored.
    func testConfidenceMapsWeightTheirFramesDepth() throws {
        for n in 0..<4 { try writeFrame(n, as: n) }
        let (w, h) = (Self.capture.depthIntrinsics.width, Self.capture.depthIntrinsics.height)
        var levels = [UInt8](repeating: 2, count: w * h)
        for i in 0..<(w * h / 2) { levels[i] = 0 }  // top half: low confidence
        levels[w * h - 1] = 1
        try ImageCodec.encode(GrayImage(width: w, height: h, pixels: levels), as: .png).write(to: folder.appendingPathComponent("confidence_0.png"))
        try ImageCodec.encode(GrayImage(width: w / 2, height: h / 2, pixels: [UInt8](repeating: 2, count: w / 2 * (h / 2))), as: .png)
            .write(to: folder.appendingPathComponent("confidence_1.png"))  // wrong size
        try ImageCodec.encode(GrayImage(width: w, height: h, pixels: [UInt8](repeating: 255, count: w * h)), as: .png)
            .write(to: folder.appendingPathComponent("confidence_2.png"))  // 0–255, not levels
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("confidence_7.png"))  // no frame 7

        let keyframes = try RGBDKeyframes.load(folder)
        XCTAssertEqual(keyframes.frames.map(\.number), [0, 1, 2, 3], "a bad confidence map never costs its frame")
        let frames = Dictionary(uniqueKeysWithValues: keyframes.frames.map { ($0.number, $0) })
        XCTAssertEqual(frames[0]?.depth.confidence?.pixels, levels)
        let weights = try XCTUnwrap(frames[0]?.depth.weights)
        XCTAssertEqual(weights[0], 0)
        XCTAssertEqual(weights[w * h - 2], 1)
        XCTAssertEqual(weights[w * h - 1], 0.5)
        for n in [1, 2, 3] {
            XCTAssertNil(frames[n]?.depth.confidence)
            XCTAssertEqual(frames[n]?.depth.weights.max(), 1, "frame \(n)'s depth weighs the same everywhere")
        }
        let text = keyframes.problems.map(\.description)
        XCTAssertEqual(text.count, 3, "\(text)")
        for (file, fragment) in [("confidence_1.png", "is \(w / 2)×\(h / 2) but its depth map is \(w)×\(h)"),
                                 ("confidence_2.png", "has values above 2"), ("confidence_7.png", "has no frame 7")] {
            XCTAssertTrue(text.contains { $0.contains(folder.appendingPathComponent(file).path) && $0.contains(fragment) }, "\(file): \(fragment) not in \(text)")
        }
        XCTAssertEqual(text.filter { $0.contains("depth is used with equal weight") }.count, 2)
    }

    func testBadFramesAreReportedByFileAndSkipped() throws {
        for n in 0..<9 { try writeFrame(n, as: n) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("depth_1.png"))  // missing depth
        try Data("{\"intrinsics\": [[1, 0".utf8).write(to: folder.appendingPathComponent("metadata_2.json"))  // unreadable JSON
        try Data("""
            {"intrinsics": [[500, 0, 256], [0, 500, 192], [0, 0, 1]], "cameraToWorld": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]}
            """.utf8).write(to: folder.appendingPathComponent("metadata_3.json"))  // 3×4: wrong shape
        try Data("""
            {"intrinsics": [[NaN, 0, 256], [0, 500, 192], [0, 0, 1]], "cameraToWorld": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}
            """.utf8).write(to: folder.appendingPathComponent("metadata_4.json"))  // NaN (not JSON)
        var negativeDepth = [Float](repeating: 0.8, count: 128 * 96)
        negativeDepth[5] = -1
        try FileManager.default.removeItem(at: folder.appendingPathComponent("depth_5.png"))
        try ImageCodec.encodeFloatTIFF(negativeDepth, width: 128, height: 96).write(to: folder.appendingPathComponent("depth_5.tif"))
        try Data("""
            {"intrinsics": [[500, 0, 256], [0, 500, 192], [0, 0, 1]], "cameraToWorld": [[2,0,0,0], [0,1,0,0], [0,0,1,0], [0,0,0,1]]}
            """.utf8).write(to: folder.appendingPathComponent("metadata_6.json"))  // not a rotation
        try FileManager.default.removeItem(at: folder.appendingPathComponent("metadata_7.json"))  // no metadata
        try Data("""
            {"intrinsics": [[500, 0, 256], [0, 500, 192], [0, 0, 1]], "cameraToWorld": [[1,0,0,0], [0,1,0,0], [0,0,1,0], [0.1,0.2,0.3,1]]}
            """.utf8).write(to: folder.appendingPathComponent("metadata_8.json"))  // written column by column
        try FileManager.default.copyItem(at: folder.appendingPathComponent("color_0.png"),
                                         to: folder.appendingPathComponent("color_99999999999999999999.png"))  // beyond Int

        let keyframes = try RGBDKeyframes.load(folder)
        XCTAssertEqual(keyframes.frames.map(\.number), [0])
        let text = keyframes.problems.map(\.description)
        func expect(_ file: String, _ fragment: String, line: UInt = #line) {
            XCTAssertTrue(text.contains { $0.contains(folder.appendingPathComponent(file).path) && $0.contains(fragment) },
                          "\(file): \(fragment) not in \(text)", line: line)
        }
        expect("metadata_1.json", "has no depth image depth_1")
        expect("metadata_2.json", "is not valid JSON")
        expect("metadata_3.json", "\"cameraToWorld\" must be 4×4")
        expect("metadata_4.json", "is not valid JSON")
        expect("depth_5.tif", "has a negative value (-1.0)")
        expect("metadata_6.json", "is not a rigid transform")
        expect("color_7.png", "has no metadata_7.json")
        expect("color_99999999999999999999.png", "has a frame number too large to read")
        expect("metadata_8.json", "seems to be written column by column")
        XCTAssertEqual(keyframes.problems.count, 9)
        XCTAssertTrue(text.allSatisfy { $0.contains("is skipped") })
    }

    func testKeyframesFuseIntoTheObjectSurface() throws {
        for n in 0..<Self.capture.viewCount { try writeFrame(n, as: n) }
        let keyframes = try RGBDKeyframes.load(folder)
        XCTAssertEqual(keyframes.frames.count, Self.capture.viewCount)
        var options = DenseRun.Options()
        options.useStereo = false
        options.posesAreMetric = true
        let dense = try DenseRun.run(scene: keyframes.scene, imagesDirectory: folder, options: options,
                                     frameDepth: keyframes.depthByPhotoName)
        XCTAssertEqual(dense.lidarViews, Self.capture.viewCount)
        // No masks, but frames all round the box: it is isolated on the floor it stands on, and the
        // floor is left out.
        let floor = try XCTUnwrap(dense.surface.supportPlane)
        XCTAssertGreaterThan(floor.normal.z, 0.999)
        XCTAssertEqual(floor.offset, 0, accuracy: 0.003)
        var accuracyOptions = SurfaceAccuracy.Options()
        accuracyOptions.maxSampleCount = 20000
        accuracyOptions.cropMarginFraction = 0.05
        let accuracy = try SurfaceAccuracy.evaluate(reconstruction: dense.surface.mesh, groundTruth: Self.capture.objectMesh,
                                                    options: accuracyOptions)
        XCTAssertLessThan(accuracy.outsideCropFraction, 0.02, "the floor around the box is not in its surface")
        XCTAssertGreaterThan(accuracy.precision, 0.95)
        XCTAssertGreaterThan(accuracy.recall, 0.6)
    }

    private func dense() throws -> DenseRun {
        let keyframes = try RGBDKeyframes.load(folder)
        var options = DenseRun.Options()
        options.useStereo = false
        options.posesAreMetric = true
        return try DenseRun.run(scene: keyframes.scene, imagesDirectory: folder, options: options, frameDepth: keyframes.depthByPhotoName)
    }

    /// Poses in the other axes, depth in other units, intrinsics for the depth's size: each
    /// makes the depth maps disagree, and the run is refused naming the mistake instead of
    /// fusing a surface that matches nothing.
    func testCommonMistakesAreRefusedAndNamed() throws {
        let cases: [(String, (Int) throws -> Void, DepthAgreement.Mistake)] = [
            ("untagged OpenCV axes", { try self.writeFrame($0, as: $0, untaggedOpenCVAxes: true) }, .otherAxes),
            ("depth at 5000 per metre", { try self.writeFrame($0, as: $0, depthScale: 5) }, .depthScaled(factor: 5)),
            ("intrinsics for the depth map", { try self.writeFrame($0, as: $0, intrinsicsAtDepthSize: true) }, .intrinsicsAtDepthSize),
        ]
        for (name, write, mistake) in cases {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for n in 0..<Self.capture.viewCount { try write(n) }
            XCTAssertThrowsError(try dense(), name) { error in
                let disagreement = error as? DepthDisagreement
                XCTAssertEqual(disagreement?.mistake, mistake, "\(name): \(error)")
                XCTAssertTrue("\(error)".hasPrefix(folder.path), "\(error)")
            }
        }
    }

    /// One frame whose pose is 10 cm too high (a tracking jump): its depth is named and left out,
    /// the others fused.
    func testAFrameWhoseDepthAgreesWithNoOtherIsLeftOut() throws {
        for n in 0..<Self.capture.viewCount { try writeFrame(n, as: n, shift: n == 4 ? 0.1 : 0) }
        let run = try dense()
        XCTAssertEqual(run.lidarViews, Self.capture.viewCount - 1)
        XCTAssertTrue(run.warnings.contains { $0.contains("color_4.png: its depth agrees with no other frame's") }, "\(run.warnings)")
    }

    func testAPrincipalPointOutsideThePhotoSkipsTheFrame() throws {
        try writeFrame(0, as: 0)
        try writeFrame(1, as: 1)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("metadata_1.json"))) as? [String: Any])
        json["intrinsics"] = [[500.0, 0, 900], [0, 500, 192], [0, 0, 1]]
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("metadata_1.json"))
        let keyframes = try RGBDKeyframes.load(folder)
        XCTAssertEqual(keyframes.frames.map(\.number), [0])
        XCTAssertTrue(keyframes.problems.first?.description.contains("principal point (900.0, 192.0) outside its 512×384 photo") == true,
                      "\(keyframes.problems)")
    }

    private func dense(points: [SIMD3<Float>], name: String = "scan.ply") throws -> DenseRun {
        let keyframes = try RGBDKeyframes.load(folder)
        var options = DenseRun.Options()
        options.useStereo = false
        options.posesAreMetric = true
        return try DenseRun.run(scene: keyframes.scene, imagesDirectory: folder, options: options, frameDepth: keyframes.depthByPhotoName,
                                points: [.init(cloud: PointCloud(positions: points), name: name)])
    }

    /// A point cloud in millimetres or with its axes turned is refused naming the mistake; one
    /// that fits is fused; points that are not numbers are left out, and an empty cloud is named.
    func testPointCloudsInOtherUnitsOrAxesAreRefusedAndNamed() throws {
        for n in 0..<Self.capture.viewCount { try writeFrame(n, as: n) }
        let scan = Self.capture.objectMesh.sampledPoints(count: 5000, seed: 1)
        XCTAssertEqual(try dense(points: scan).fusedPoints, 5000)

        // A larger scan whose extra points are hidden from every frame (here under the floor) fits.
        let hidden = scan.map { SIMD3($0.x, $0.y, -0.05 - $0.z) }
        XCTAssertEqual(try dense(points: scan + hidden).fusedPoints, 10000)

        let cases: [([SIMD3<Float>], DepthAgreement.CloudMistake)] = [
            (scan.map { $0 * 1000 }, .scaled(factor: 1000)),
            (scan.map { $0 / 1000 }, .scaled(factor: 0.001)),
            (scan.map { SIMD3($0.x, $0.z, -$0.y) }, .quarterTurnAboutX),
        ]
        for (points, mistake) in cases {
            XCTAssertThrowsError(try dense(points: points)) { error in
                XCTAssertTrue("\(error)".hasPrefix("scan.ply: its points do not agree with the frames' depth: \(mistake)"), "\(error)")
            }
        }

        var spoiled = scan
        for i in stride(from: 0, to: spoiled.count, by: 10) { spoiled[i].x = .nan }
        let run = try dense(points: spoiled)
        XCTAssertEqual(run.fusedPoints, 4500)
        XCTAssertTrue(run.warnings.contains("scan.ply: 500 of its 5000 points are not finite numbers and are left out"), "\(run.warnings)")
        let empty = try dense(points: [])
        XCTAssertEqual(empty.fusedPoints, 0)
        XCTAssertTrue(empty.warnings.contains("scan.ply: has no points; it is not used"), "\(empty.warnings)")
    }
}
