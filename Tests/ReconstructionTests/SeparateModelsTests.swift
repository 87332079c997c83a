import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Photos of two different scenes in one folder: the mapper reconstructs the larger one, and the
/// other group, which no verified pair joins to it, becomes a separate model in its own frame.
final class SeparateModelsTests: XCTestCase {
    /// Scene A (8 views) and scene B (5 views of a differently textured copy), rendered once.
    static let sceneA = RenderedCapture(views: 8, seed: 7)
    static let sceneB = RenderedCapture(views: 5, seed: 23)

    /// Both scenes' photos in one new folder, named `a0000.png`… and `b0000.png`…
    func writeMixedFolder() throws -> (URL, [ImageSource]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("separate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var sources: [ImageSource] = []
        for (prefix, capture) in [("a", Self.sceneA), ("b", Self.sceneB)] {
            let k = capture.intrinsics
            for (i, image) in capture.images.enumerated() {
                let name = prefix + RenderedCapture.name(i)
                let url = folder.appendingPathComponent(name)
                try ImageCodec.encode(image, as: .png).write(to: url)
                sources.append(ImageSource(name: name, url: url, prior: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)))
            }
        }
        return (folder, sources)
    }

    func truth(_ capture: RenderedCapture, prefix: String) -> [NamedPose] {
        capture.truth.map { NamedPose(name: prefix + $0.name, worldFromCamera: $0.worldFromCamera) }
    }

    func testTheSmallerSceneIsReconstructedAsASeparateModel() throws {
        let (folder, sources) = try writeMixedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try PoseEstimation().run(sources)

        let main = report.scene
        XCTAssertEqual(main.images.count, 13, "the main model lists every photo")
        XCTAssertEqual(Set(main.images.filter(\.isRegistered).map(\.name)), Set(truth(Self.sceneA, prefix: "a").map(\.name)),
                       "the main model is the larger scene, all of it")
        for image in main.images where image.name.hasPrefix("b") {
            XCTAssertTrue(image.unregisteredReason?.contains("separate model 1") ?? false,
                          "\(image.name) names the model it is in: \(image.unregisteredReason ?? "no reason")")
        }

        XCTAssertEqual(report.separateModels.count, 1)
        let separate = try XCTUnwrap(report.separateModels.first)
        XCTAssertEqual(separate.images.map(\.name), truth(Self.sceneB, prefix: "b").map(\.name),
                       "the separate model holds the other scene's photos only")
        XCTAssertEqual(separate.registeredCount, 5)
        for point in separate.points {
            for o in point.track { XCTAssertLessThan(o.imageIndex, separate.images.count) }
        }
        let a = try PoseAccuracyReport.evaluate(estimated: main.namedPoses, groundTruth: truth(Self.sceneA, prefix: "a"))
        let b = try PoseAccuracyReport.evaluate(estimated: separate.namedPoses, groundTruth: truth(Self.sceneB, prefix: "b"))
        // Each scene spans about 5 m; a wrong model is off by decimetres.
        XCTAssertLessThan(a.maxPositionError, 0.02, "main model within 2 cm")
        XCTAssertLessThan(b.maxPositionError, 0.02, "separate model within 2 cm")
        XCTAssertLessThan(b.maxRotationErrorDegrees, 0.5)
    }

    /// Both scenes' photos mapped with `minSeparateModelImages` set to `minImages`.
    func runMixed(minImages: Int) throws -> PoseEstimation.Report {
        let (folder, sources) = try writeMixedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = PoseEstimation.Options()
        options.minSeparateModelImages = minImages
        return try PoseEstimation(options: options).run(sources)
    }

    func testSeparateModelsCanBeTurnedOff() throws {
        let report = try runMixed(minImages: 0)
        XCTAssertTrue(report.separateModels.isEmpty)
        XCTAssertEqual(report.scene.registeredCount, 8)
        for image in report.scene.images where image.name.hasPrefix("b") {
            XCTAssertTrue(image.unregisteredReason?.contains("share no verified pair") ?? false,
                          "\(image.name): \(image.unregisteredReason ?? "no reason")")
        }
    }

    /// A group smaller than the minimum stays unregistered in the main model, with the reason the
    /// view graph gives.
    func testAGroupBelowTheMinimumIsNotReconstructed() throws {
        let report = try runMixed(minImages: 6)
        XCTAssertTrue(report.separateModels.isEmpty, "scene B has 5 photos, fewer than 6")
        XCTAssertEqual(report.scene.registeredCount, 8)
    }

    /// Through the session: the separate model arrives with the poses, and a run restored from the
    /// mapping checkpoint gives it back unchanged.
    func testTheSessionDeliversSeparateModelsAndTheirCheckpoint() async throws {
        let (folder, sources) = try writeMixedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = sources.enumerated().map { i, source in
            PhotogrammetrySample(id: 200 + i, image: .file(source.url!), intrinsics: source.prior)
        }
        var configuration = PhotogrammetrySession.Configuration()
        configuration.checkpointDirectory = folder.appendingPathComponent("checkpoint", isDirectory: true)
        func run() async throws -> ([SessionRecording.Entry], PhotogrammetrySession.Poses) {
            let session = try PhotogrammetrySession(input: samples, configuration: configuration)
            try session.process(requests: [.poses])
            let outputs = await SessionRecording.collect(session)
            return (outputs, try XCTUnwrap(PhotogrammetrySessionCheckpointTests.poses(outputs)))
        }
        let (_, first) = try await run()
        XCTAssertEqual(first.posesBySample.count, 8)
        XCTAssertEqual(first.separateModels.map(\.registeredCount), [5])
        for id in 208..<213 {
            XCTAssertTrue(first.unregisteredReasonsBySample[id]?.contains("separate model 1") ?? false, "sample \(id)")
        }
        let (outputs, again) = try await run()
        XCTAssertTrue(PhotogrammetrySessionCheckpointTests.reports(outputs)[.mapping]?.isRestored ?? false)
        let model = try XCTUnwrap(again.separateModels.first)
        let original = try XCTUnwrap(first.separateModels.first)
        XCTAssertEqual(model.images.map(\.name), original.images.map(\.name))
        XCTAssertEqual(model.points.count, original.points.count)
        for (a, b) in zip(model.images, original.images) {
            XCTAssertEqual(a.cameraFromWorld?.translation.x, b.cameraFromWorld?.translation.x, a.name)
        }
    }
}
