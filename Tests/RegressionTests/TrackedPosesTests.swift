import Foundation
import ModelExport
import PhotogrammetryKit
import ReconstructionCore
import TestSupport
import XCTest

/// The metric scale from a device's tracked poses: the similarity between the estimated and the
/// tracked camera centres, robust to one tracking jump, refused for poses of other photos.
final class TrackedPosesTests: XCTestCase {
    static let metresPerUnit = 0.137

    /// `count` tracked cameras on a 0.5 m circle (world metres, z up), and the scene that structure
    /// from motion would give: the same cameras in another frame (rotated, shifted, 1/0.137 the size).
    static func layout(count: Int = 12, noiseMetres: Double = 0, seed: UInt64 = 1) -> (scene: SparseScene, tracked: [String: RigidTransform]) {
        var generator = SeededGenerator(seed: seed)
        let sceneFromWorld = SimilarityTransform(scale: 1 / metresPerUnit,
                                                 rotation: UnitQuaternion(axis: Vector3(0.3, -1, 0.5), angleRadians: 1.1).matrix,
                                                 translation: Vector3(2, -1, 4))
        var tracked: [String: RigidTransform] = [:]
        var images: [SparseScene.Image] = []
        let k = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
        for i in 0..<count {
            let angle = 2 * Double.pi * Double(i) / Double(count)
            let centre = Vector3(0.5 * cos(angle), 0.5 * sin(angle), 0.3)
            let name = String(format: "%04d.jpg", i + 1)
            let noisy = centre + Vector3(Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator),
                                         Double.random(in: -1...1, using: &generator)) * noiseMetres
            tracked[name] = RigidTransform(rotation: .identity, translation: noisy)
            let cameraFromScene = RigidTransform(rotation: .identity, translation: sceneFromWorld.apply(centre)).inverse
            images.append(SparseScene.Image(name: name, intrinsics: k, intrinsicsSource: .given, cameraFromWorld: cameraFromScene,
                                            unregisteredReason: nil, keypoints: [], pointIndexOfKeypoint: []))
        }
        return (SparseScene(images: images, points: []), tracked)
    }

    static func named(_ poses: [String: RigidTransform]) -> [NamedPose] {
        poses.keys.sorted().map { NamedPose(name: $0, worldFromCamera: poses[$0]) }
    }

    func testTheScaleIsTheTrackedCentresOverTheEstimatedOnes() {
        // 1 cm of tracking noise on a 0.5 m circle.
        let (scene, tracked) = Self.layout(noiseMetres: 0.01)
        guard case let .metresPerUnit(scale, cameras, residual) = TrackedPoses.scale(scene: scene, tracked: Self.named(tracked)) else {
            return XCTFail("expected a scale")
        }
        XCTAssertEqual(scale, Self.metresPerUnit, accuracy: 0.01 * Self.metresPerUnit)
        XCTAssertEqual(cameras, 12)
        XCTAssertLessThan(residual, 0.03)
    }

    func testATrackingJumpIsLeftOutOfTheFit() {
        var (scene, tracked) = Self.layout()
        tracked["0004.jpg"]!.translation = tracked["0004.jpg"]!.translation + Vector3(0.4, 0, 0)
        guard case let .metresPerUnit(scale, cameras, _) = TrackedPoses.scale(scene: scene, tracked: Self.named(tracked)) else {
            return XCTFail("expected a scale")
        }
        XCTAssertEqual(scale, Self.metresPerUnit, accuracy: 1e-9)
        XCTAssertEqual(cameras, 11)
        // An unregistered photo and one without a tracked pose take no part.
        scene.images[0].cameraFromWorld = nil
        tracked["0002.jpg"] = nil
        guard case .metresPerUnit(_, let fewer, _) = TrackedPoses.scale(scene: scene, tracked: Self.named(tracked)) else { return XCTFail("expected a scale") }
        XCTAssertEqual(fewer, 9)
    }

    func testPhotosMatchByNameWithoutExtensionWhenThatIsUnambiguous() {
        let (scene, tracked) = Self.layout()
        let renamed = tracked.keys.sorted().map { NamedPose(name: $0.replacingOccurrences(of: ".jpg", with: ".heic"), worldFromCamera: tracked[$0]) }
        guard case .metresPerUnit(let scale, let cameras, _) = TrackedPoses.scale(scene: scene, tracked: renamed) else {
            return XCTFail("expected a scale")
        }
        XCTAssertEqual(scale, Self.metresPerUnit, accuracy: 1e-9)
        XCTAssertEqual(cameras, 12)
    }

    func testPosesOfOtherPhotosOrTooFewAreRefused() {
        let (scene, tracked) = Self.layout()
        var permuted: [String: RigidTransform] = [:]
        let names = tracked.keys.sorted()
        for (k, name) in names.enumerated() { permuted[name] = tracked[names[(k * 5) % names.count]] }
        guard case .refused(let reason) = TrackedPoses.scale(scene: scene, tracked: Self.named(permuted)) else { return XCTFail("expected a refusal") }
        XCTAssertTrue(reason.contains("the tracked poses do not describe these photos"), reason)

        let two = tracked.filter { ["0001.jpg", "0002.jpg"].contains($0.key) }
        XCTAssertEqual(TrackedPoses.scale(scene: scene, tracked: Self.named(two)), .refused("only 2 registered photos have a tracked pose (3 needed)"))
    }

    func testTheFileIsReadBesideThePhotosAndAMalformedOneNamesItself() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertNil(try TrackedPoses.load(besides: folder))
        try Data("{\"images\": 3}".utf8).write(to: folder.appendingPathComponent(TrackedPoses.fileName))
        XCTAssertThrowsError(try TrackedPoses.load(besides: folder)) { error in
            XCTAssertTrue("\(error)".contains(TrackedPoses.fileName), "\(error)")
        }
    }

    /// `poses` (and sessions' poses requests) write metric poses when the tracked poses fit, and
    /// say why not when they do not; nothing changes without the file.
    func testExportedPosesAreMetricWhenTheTrackedPosesFit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (scene, tracked) = Self.layout(noiseMetres: 0.005)
        var warnings: [String] = [], notes: [String] = []
        let bare = TrackedPoses.exportedPoses(scene, imagesDirectory: folder, warnings: &warnings) { notes.append($0) }
        XCTAssertFalse(bare.world.isMetric)
        XCTAssertTrue(warnings.isEmpty && notes.isEmpty)

        let trackedScene = SparseScene(images: scene.images.map { image in
            SparseScene.Image(name: image.name, intrinsics: image.intrinsics, intrinsicsSource: .given,
                              cameraFromWorld: tracked[image.name]!.inverse, unregisteredReason: nil, keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
        try PosesJSONWriter.write(scene: trackedScene, to: folder.appendingPathComponent(TrackedPoses.fileName))
        let metric = TrackedPoses.exportedPoses(scene, imagesDirectory: folder, warnings: &warnings) { notes.append($0) }
        XCTAssertTrue(metric.world.isMetric)
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        XCTAssertTrue(notes.first?.hasPrefix("metric scale from the tracked poses") == true, "\(notes)")
        let centres = metric.scene.images.compactMap { $0.cameraFromWorld?.cameraCentreInWorld }
        XCTAssertEqual(centres.rmsSpread ?? 0, 0.5, accuracy: 0.01, "the 0.5 m circle, in metres")

        try Data("{\"bogus\": 1}".utf8).write(to: folder.appendingPathComponent(TrackedPoses.fileName))
        warnings = []
        let refused = TrackedPoses.exportedPoses(scene, imagesDirectory: folder, warnings: &warnings) { notes.append($0) }
        XCTAssertFalse(refused.world.isMetric)
        XCTAssertTrue(warnings.first?.contains(TrackedPoses.fileName) == true, "\(warnings)")
    }
}
