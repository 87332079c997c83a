import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// A model request resumed on the same checkpoint directory loads the dense surface instead of
/// running stereo again, and still writes its model.
final class ModelCheckpointTests: XCTestCase {
    typealias Session = PhotogrammetrySession

    func run(_ session: Session, _ requests: [Session.Request]) async throws -> [Session.Output] {
        try session.process(requests: requests)
        var outputs: [Session.Output] = []
        for await output in session.outputs {
            outputs.append(output)
            if case .processingComplete = output { break }
        }
        return outputs
    }

    /// A synthetic vase of `views` photos in a new temporary folder (removed after the test), and
    /// a session configuration checkpointing into it.
    func capture(views: Int, name: String) throws -> (folder: URL, images: URL, configuration: Session.Configuration) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let capture = SyntheticCapture(scene: .texturedVase, views: views, seed: 5, imageWidth: 480, imageHeight: 360)
        let images = try SyntheticCaptureWriter.write(capture, to: folder.appendingPathComponent("capture"))
        var configuration = Session.Configuration()
        configuration.checkpointDirectory = folder.appendingPathComponent("checkpoint")
        return (folder, images, configuration)
    }

    func testAResumedModelRequestLoadsTheSurfaceFromTheCheckpoint() async throws {
        let (folder, images, configuration) = try capture(views: 12, name: "model-checkpoint")
        // One file name in two folders: the name goes into the glTF (mesh and node names).
        let first = folder.appendingPathComponent("first/model.glb"), second = folder.appendingPathComponent("second/model.glb")
        for url in [first, second] {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }

        func denseReport(_ outputs: [Session.Output]) -> Session.StageReport? {
            outputs.lazy.compactMap { if case .stageComplete(let r) = $0, r.stage == .dense { return r } else { return nil } }.first
        }
        let computed = try await run(try Session(input: images, configuration: configuration), [.modelFile(url: first, detail: .preview)])
        for case .requestError(let request, let error) in computed { XCTFail("\(request): \(error)") }
        XCTAssertEqual(denseReport(computed)?.restoredItems, 0, "the first run computes the surface")
        XCTAssertTrue(FileManager.default.fileExists(atPath: configuration.checkpointDirectory!.appendingPathComponent("surface.ckpt").path))

        let resumed = try await run(try Session(input: images, configuration: configuration), [.modelFile(url: second, detail: .preview)])
        for case .requestError(let request, let error) in resumed { XCTFail("\(request): \(error)") }
        let restored = try XCTUnwrap(denseReport(resumed))
        XCTAssertEqual(restored.restoredItems, 1, "the resumed run loads the surface")
        XCTAssertGreaterThan(restored.savedSeconds, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: second.path))
        XCTAssertEqual(try Data(contentsOf: first), try Data(contentsOf: second), "the same surface gives the same model")
    }

    /// Without a checkpoint directory, one session keeps its pose stages and its last surface
    /// between `process` calls: a model request cancelled during stereo, asked again, runs only
    /// stereo onwards, and a third call for another format of the same detail runs neither.
    func testASessionReusesItsPosesAndSurfaceBetweenProcessCalls() async throws {
        let (folder, images, _) = try capture(views: 12, name: "model-reuse")
        let session = try Session(input: images)
        func reports(_ outputs: [Session.Output]) -> [ProcessingStage: Session.StageReport] {
            Dictionary(outputs.compactMap { if case .stageComplete(let r) = $0 { return (r.stage, r) } else { return nil } },
                       uniquingKeysWith: { a, _ in a })
        }
        let glb = folder.appendingPathComponent("model.glb"), obj = folder.appendingPathComponent("obj", isDirectory: true)

        try session.process(requests: [.modelFile(url: glb, detail: .preview)])
        var first: [Session.Output] = []
        for await output in session.outputs {
            first.append(output)
            if case .requestProgressInfo(_, let info) = output, info.stage == .dense, info.stageFraction > 0.03 { session.cancel() }
            if case .processingCancelled = output { break }
            if case .processingComplete = output { break }
        }
        guard case .processingCancelled = first.last else { return XCTFail("the first run was to be cancelled during stereo") }
        let firstReports = reports(first)
        for stage in [ProcessingStage.features, .matching, .mapping] {
            XCTAssertEqual(firstReports[stage]?.restoredItems, 0, "\(stage) computed by the first run")
        }

        let second = try await run(session, [.modelFile(url: glb, detail: .preview)])
        for case .requestError(let request, let error) in second { XCTFail("\(request): \(error)") }
        let secondReports = reports(second)
        for stage in [ProcessingStage.features, .matching, .mapping] {
            XCTAssertTrue(secondReports[stage]?.isRestored ?? false, "\(stage) reused from the first call")
            XCTAssertEqual(secondReports[stage]?.savedSeconds ?? -1, firstReports[stage]?.seconds ?? 0, accuracy: 1e-9)
        }
        XCTAssertEqual(secondReports[.dense]?.restoredItems, 0, "stereo was cancelled, so it runs now")
        XCTAssertEqual(second.filter { if case .inputComplete = $0 { return true } else { return false } }.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: glb.path))

        let third = try await run(session, [.modelFile(url: obj, detail: .preview)])
        for case .requestError(let request, let error) in third { XCTFail("\(request): \(error)") }
        let thirdReports = reports(third)
        XCTAssertTrue(thirdReports[.dense]?.isRestored ?? false, "the same detail's surface is reused")
        XCTAssertEqual(thirdReports[.dense]?.savedSeconds ?? -1, secondReports[.dense]?.seconds ?? 0, accuracy: 1e-9)
        XCTAssertTrue(thirdReports[.mapping]?.isRestored ?? false)
        let objFiles = try FileManager.default.contentsOfDirectory(atPath: obj.path)
        XCTAssertTrue(objFiles.contains { $0.hasSuffix(".obj") }, "\(objFiles)")
    }

    /// A cancel during dense stereo stops it between views: the session ends cancelled long
    /// before stereo would have finished, and no surface checkpoint is written.
    func testACancelDuringDenseStereoStopsItBetweenViews() async throws {
        let (folder, images, configuration) = try capture(views: 16, name: "model-cancel")
        let session = try Session(input: images, configuration: configuration)
        try session.process(requests: [.modelFile(url: folder.appendingPathComponent("model.glb"), detail: .preview)])
        var denseFractions: [Double] = []
        var cancelled = false
        for await output in session.outputs {
            if case .requestProgressInfo(_, let info) = output, info.stage == .dense {
                denseFractions.append(info.stageFraction)
                // Cancelled once the coarse pass is under way (past loading, 2 % of stereo).
                if info.stageFraction > 0.03 && info.stageFraction < 0.5 { session.cancel() }
            }
            if case .processingCancelled = output { cancelled = true; break }
            if case .processingComplete = output { break }
        }
        XCTAssertTrue(cancelled)
        XCTAssertLessThan(denseFractions.max() ?? 1, 0.5, "stereo stopped soon after the cancel: \(denseFractions)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: configuration.checkpointDirectory!.appendingPathComponent("surface.ckpt").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("model.glb").path))
    }
}
