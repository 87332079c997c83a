import CaptureIO
import CaptureReplay
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// Issue 5's acceptance: replay on a synthetic frame stream with injected dark, blurred and
/// off-frame frames rejects exactly those, with the right feedback; one orbit completes the
/// coverage dial; and the curated folder reconstructs with every image registered.
final class CaptureReplayAcceptanceTests: XCTestCase {
    func testReplayRejectsSpoiledFramesCompletesTheDialAndTheCuratedFolderReconstructs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("capture-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = SyntheticFrameStream.Settings(scene: .texturedVase, frames: 48, seed: 3, imageWidth: 480, imageHeight: 360)
        settings.injectDefaultFrames()
        let stream = SyntheticFrameStream(settings: settings)
        let framesFolder = root.appendingPathComponent("frames"), captureFolder = root.appendingPathComponent("capture")
        var clock = Date()
        try SyntheticFrameStreamWriter.write(stream, to: framesFolder, workers: 2)
        let renderSeconds = Date().timeIntervalSince(clock)

        clock = Date()
        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: framesFolder), to: captureFolder) { reports.append($0) }
        let replaySeconds = Date().timeIntervalSince(clock)
        XCTAssertEqual(reports.count, 48)

        // The first frame confirms the box; every spoiled frame is rejected with its feedback alone.
        XCTAssertEqual(reports[0].outcome, .boxConfirmed)
        let expected: [(frames: [Int], feedback: CaptureFeedback)] = [
            (settings.darkFrames, .environmentTooDark), (settings.blurredFrames, .movingTooFast),
            (settings.offFrameFrames, .outOfFieldOfView),
        ]
        for (frames, feedback) in expected {
            for index in frames {
                XCTAssertEqual(reports[index].outcome, .rejected, "frame \(index)")
                XCTAssertEqual(reports[index].feedback, [feedback], "frame \(index): \(reports[index])")
            }
        }
        // Every other frame becomes a shot.
        let spoiled = Set(expected.flatMap(\.frames))
        XCTAssertEqual(reports.filter { $0.outcome == .rejected }.map(\.index), spoiled.sorted())
        XCTAssertEqual(summary.savedShots, 48 - 1 - spoiled.count)
        XCTAssertEqual(summary.rejectedByFeedback, ["environmentTooDark": 2, "movingTooFast": 2, "outOfFieldOfView": 2])

        // One orbit fills the dial and completes the scan pass; the vase is textured enough to flip.
        XCTAssertEqual(summary.dialFilledBins, 24)
        XCTAssertEqual(summary.completedPasses, [0])
        XCTAssertEqual(summary.flipRecommended, true)
        XCTAssertEqual(summary.finalState, "completed")

        // The curated folder: photos with their sidecars and K.txt.
        let photos = try ImageFolder.listImages(in: captureFolder)
        XCTAssertEqual(photos.count, summary.savedShots)
        XCTAssertEqual(photos.first?.lastPathComponent, "0001.jpg")
        for suffix in ["_depth.png", "_depthConfidence.png", "_mask.png", "_gravity.txt"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: captureFolder.appendingPathComponent("0001\(suffix)").path), suffix)
        }
        let k = try PinholeIntrinsics.load(kFile: captureFolder.appendingPathComponent("K.txt"))
        XCTAssertEqual(k.fx, stream.intrinsics.fx, accuracy: 1e-6)
        // And each shot's pose as the device tracked it: its frame's.
        let tracked = try XCTUnwrap(try TrackedPoses.load(besides: captureFolder))
        XCTAssertEqual(tracked.count, summary.savedShots)
        let trackedByName = Dictionary(tracked.map { ($0.name, $0.worldFromCamera) }, uniquingKeysWith: { a, _ in a })
        let frames = try FrameStream.load(directory: framesFolder).frames
        for line in reports where line.outcome == .saved {
            let pose = try XCTUnwrap(trackedByName[try XCTUnwrap(line.shot)] ?? nil), frame = try XCTUnwrap(frames.first { $0.index == line.index })
            XCTAssertLessThan((pose.translation - frame.worldFromCamera.translation).length, 1e-9)
        }

        // It reconstructs: the pose pipeline registers every curated image.
        clock = Date()
        let report = try PoseEstimation().run(CaptureSources.load(imagesDirectory: captureFolder, given: k))
        let posesSeconds = Date().timeIntervalSince(clock)
        XCTAssertEqual(report.scene.registeredCount, summary.savedShots)
        // The tracked poses give the estimated model its metric scale.
        guard case let .metresPerUnit(_, cameras, residual) = TrackedPoses.scale(scene: report.scene, tracked: tracked) else {
            return XCTFail("the tracked poses should fit the estimated ones")
        }
        XCTAssertEqual(cameras, summary.savedShots)
        XCTAssertLessThan(residual, 0.01)
        print(String(format: "capture replay: %d frames, %d saved, rejected %@, dial %d/%d, registered %d/%d; render %.1f s, replay %.1f s, poses %.1f s",
                     summary.frames, summary.savedShots, "\(summary.rejectedByFeedback)", summary.dialFilledBins, summary.dialTotalBins,
                     report.scene.registeredCount, report.scene.images.count, renderSeconds, replaySeconds, posesSeconds))
    }

    /// A plain box measures 50–100 sharp where the vase measures about 2000: blur is judged against
    /// the stream's own recent frames, so the clean frames become shots and only the spoiled ones
    /// are rejected, as on the vase.
    func testAPlainObjectsStreamLosesOnlyItsSpoiledFrames() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("capture-replay-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = SyntheticFrameStream.Settings(scene: .plainBox, frames: 48, seed: 1, imageWidth: 480, imageHeight: 360)
        settings.injectDefaultFrames()
        let framesFolder = root.appendingPathComponent("frames")
        try SyntheticFrameStreamWriter.write(SyntheticFrameStream(settings: settings), to: framesFolder, workers: 2)
        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: framesFolder), to: root.appendingPathComponent("capture")) {
            reports.append($0)
        }
        XCTAssertEqual(reports.first?.outcome, .boxConfirmed)
        let spoiled = Set(settings.darkFrames + settings.blurredFrames + settings.offFrameFrames)
        XCTAssertEqual(reports.filter { $0.outcome == .rejected }.map(\.index), spoiled.sorted())
        for index in settings.blurredFrames { XCTAssertEqual(reports[index].feedback, [.movingTooFast], "frame \(index)") }
        XCTAssertEqual(summary.savedShots, 48 - 1 - spoiled.count)
        XCTAssertEqual(summary.dialFilledBins, 24)
        XCTAssertEqual(summary.flipRecommended, false, "a plain box has too little texture to flip")
    }

    /// Depth that cannot be used is not copied into the curated folder: the photo is saved, its
    /// line says what was left out, naming the stream's file (the reconstruction would otherwise
    /// name it later under the shot's new name). A confidence map alone that cannot be used is
    /// left out and the depth kept.
    func testDepthThatCannotBeUsedIsLeftOutOfTheShotAndNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("capture-replay-depth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = SyntheticFrameStream.Settings(scene: .plainBox, frames: 48, seed: 1, imageWidth: 480, imageHeight: 360)
        settings.injectDefaultFrames()
        let framesFolder = root.appendingPathComponent("frames"), captureFolder = root.appendingPathComponent("capture")
        try SyntheticFrameStreamWriter.write(SyntheticFrameStream(settings: settings), to: framesFolder, workers: 2)
        let spoiled = Set(settings.darkFrames + settings.blurredFrames + settings.offFrameFrames)
        let frames = try FrameStream.load(directory: framesFolder).frames
        let chosen = frames.filter { $0.index > 0 && !spoiled.contains($0.index) }.prefix(3)
        XCTAssertEqual(chosen.count, 3)
        let (aspect, metres, confidence) = (chosen[chosen.startIndex], chosen[chosen.startIndex + 1], chosen[chosen.startIndex + 2])
        let depthSize = try ImageCodec.decodeUnchanged(Data(contentsOf: try XCTUnwrap(metres.depth)))
        try ImageCodec.encode16([UInt16](repeating: 800, count: 100 * 100), width: 100, height: 100).write(to: try XCTUnwrap(aspect.depth))
        // Metres written where millimetres belong: 1 mm everywhere.
        try ImageCodec.encode16([UInt16](repeating: 1, count: depthSize.width * depthSize.height), width: depthSize.width, height: depthSize.height)
            .write(to: try XCTUnwrap(metres.depth))
        try ImageCodec.encode(GrayImage(width: depthSize.width, height: depthSize.height, fill: 255)).write(to: try XCTUnwrap(confidence.depthConfidence))

        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: framesFolder), to: captureFolder) { reports.append($0) }
        XCTAssertEqual(summary.savedShots, 48 - 1 - spoiled.count, "no photo is lost")
        XCTAssertEqual(summary.shotsWithoutDepth, 2, "the third keeps its depth")
        let expected: [(FrameStream.Frame, String, keepsDepth: Bool)] = [
            (aspect, "\(aspect.depth!.lastPathComponent) is 100×100", false),
            (metres, "\(metres.depth!.lastPathComponent) has a median depth of 0.001 m", false),
            (confidence, "\(confidence.depthConfidence!.lastPathComponent) has values above 2", true),
        ]
        for (frame, fragment, keepsDepth) in expected {
            let line = try XCTUnwrap(reports.first { $0.index == frame.index })
            XCTAssertEqual(line.outcome, .saved)
            XCTAssertTrue(line.note?.hasPrefix(fragment) ?? false, "\(line)")
            let stem = (try XCTUnwrap(line.shot) as NSString).deletingPathExtension
            XCTAssertEqual(FileManager.default.fileExists(atPath: captureFolder.appendingPathComponent("\(stem)_depth.png").path), keepsDepth, fragment)
            XCTAssertFalse(FileManager.default.fileExists(atPath: captureFolder.appendingPathComponent("\(stem)_depthConfidence.png").path), fragment)
        }
        XCTAssertEqual(reports.filter { $0.note != nil }.count, 3)
    }
}
