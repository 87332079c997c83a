import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The session on a rendered 10-view scene: message order, results, invalid samples, unbuilt stages.
final class PhotogrammetrySessionTests: XCTestCase {
    static let capture = RenderedCapture(views: 10)
    typealias Session = PhotogrammetrySession

    static func samples(in folder: URL, capture: RenderedCapture = capture) -> [PhotogrammetrySample] {
        let k = capture.intrinsics
        return capture.images.indices.map { i in
            PhotogrammetrySample(id: 100 + i, image: .file(folder.appendingPathComponent(RenderedCapture.name(i))),
                                 intrinsics: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        }
    }

    func testMessagesComeInOrderAndPosesArriveBeforeTheModelRequestFails() async throws {
        let folder = try Self.capture.writePNGs(prefix: "session-order")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Session(input: Self.samples(in: folder))
        let modelURL = folder.appendingPathComponent("model", isDirectory: true)
        let model = Session.Request.modelFile(url: modelURL)
        try session.process(requests: [.poses, model, .pointCloud, .bounds, .poses])
        XCTAssertTrue(session.isProcessing)
        XCTAssertEqual(session.activeRequests, [.poses, model, .pointCloud, .bounds], "duplicates processed once")
        let outputs = await SessionRecording.collect(session)
        XCTAssertFalse(session.isProcessing)
        let kinds = outputs.map(\.kind)

        // Ingestion, then the three stages, then results, then the end.
        let inputComplete = try XCTUnwrap(kinds.firstIndex(of: "inputComplete"))
        XCTAssertEqual(kinds.filter { $0 == "inputComplete" }.count, 1)
        XCTAssertEqual(kinds.last, "processingComplete")
        XCTAssertEqual(kinds.filter { $0 == "processingComplete" }.count, 1)
        let stages = outputs.compactMap { if case .stageComplete(let r) = $0.output { return r.stage } else { return nil } }
        XCTAssertEqual(stages, [.features, .matching, .mapping])
        let featuresDone = try XCTUnwrap(outputs.firstIndex { if case .stageComplete(let r) = $0.output { return r.stage == .features } else { return false } })
        XCTAssertLessThan(featuresDone, inputComplete)
        let firstMatching = try XCTUnwrap(outputs.firstIndex {
            if case .requestProgressInfo(_, let info) = $0.output { return info.stage == .matching } else { return false }
        })
        XCTAssertLessThan(inputComplete, firstMatching, "samples are all read before matching starts")

        // Progress: per runnable request, never decreasing, ending at 1; the model request gets none.
        for request in [Session.Request.poses, .pointCloud, .bounds] {
            let fractions = outputs.compactMap { o -> Double? in
                if case .requestProgress(let r, let f) = o.output, r == request { return f } else { return nil }
            }
            XCTAssertFalse(fractions.isEmpty)
            XCTAssertEqual(fractions, fractions.sorted(), "\(request) progress never goes back")
            XCTAssertEqual(fractions.last ?? 0, 1, accuracy: 1e-9)
        }
        XCTAssertFalse(outputs.contains { if case .requestProgress(let r, _) = $0.output { return r == model } else { return false } })
        let estimates = outputs.compactMap { if case .requestProgressInfo(_, let info) = $0.output { return info.estimatedRemainingTime } else { return nil } }
        XCTAssertFalse(estimates.isEmpty, "an ETA is given")
        XCTAssertTrue(estimates.allSatisfy { $0 >= 0 })

        // Exactly one completion or error per request; poses before the model's verdict.
        let mappingDone = try XCTUnwrap(outputs.firstIndex { if case .stageComplete(let r) = $0.output { return r.stage == .mapping } else { return false } })
        var verdicts: [Session.Request: Int] = [:]
        for (index, o) in outputs.enumerated() {
            switch o.output {
            case .requestComplete(let r, _), .requestError(let r, _):
                XCTAssertNil(verdicts[r], "one verdict for \(r)")
                verdicts[r] = index
                XCTAssertGreaterThan(index, mappingDone)
            default: break
            }
        }
        XCTAssertEqual(Set(verdicts.keys), [.poses, .pointCloud, .bounds, model])
        XCTAssertLessThan(verdicts[.poses]!, verdicts[model]!, "poses are delivered before the model")
        let modelError = try XCTUnwrap(outputs.compactMap { o -> (any Error)? in
            if case .requestError(let r, let e) = o.output, r == model { return e } else { return nil }
        }.first)
        XCTAssertEqual(modelError as? Session.Error, .stageNotBuilt(.dense, request: model))
        XCTAssertEqual("\(modelError)", "model files are not available in this session: it has no dense stage (create it over a capture folder with PhotogrammetryKit's PhotogrammetrySession(input: URL), or, for samples "
                       + "that are photo files in one folder, pass modelStages: FolderModelStages() to its initialiser)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: modelURL.path), "no model is faked")

        // The results themselves.
        let poses = try XCTUnwrap(outputs.compactMap { if case .requestComplete(_, .poses(let p)) = $0.output { return p } else { return nil } }.first)
        XCTAssertEqual(Set(poses.posesBySample.keys), Set(100..<110))
        XCTAssertEqual(poses.sampleIDs, Array(100..<110))
        XCTAssertEqual(poses.urlsBySample[103], folder.appendingPathComponent("0003.png"))
        let estimated = poses.scene.namedPoses
        let accuracy = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: Self.capture.truth)
        XCTAssertEqual(accuracy.registeredCount, 10)
        XCTAssertLessThan(accuracy.medianPositionError, 0.01, "camera centres within 1 cm of the truth (scene ≈ 6 m)")
        for (id, pose) in poses.posesBySample {
            let image = poses.scene.images[id - 100]
            XCTAssertEqual(pose.worldFromCamera.translation.distance(to: image.cameraFromWorld!.cameraCentreInWorld), 0, accuracy: 1e-9)
        }
        let cloud = try XCTUnwrap(outputs.compactMap { if case .requestComplete(_, .pointCloud(let c)) = $0.output { return c } else { return nil } }.first)
        XCTAssertEqual(cloud.count, poses.scene.points.count)
        XCTAssertTrue(cloud.hasColors)
        let box = try XCTUnwrap(outputs.compactMap { if case .requestComplete(_, .bounds(let b)) = $0.output { return b } else { return nil } }.first)
        let inside = poses.scene.points.filter {
            let d = $0.position - box.centre
            return abs(d.x) <= box.halfExtents.x && abs(d.y) <= box.halfExtents.y && abs(d.z) <= box.halfExtents.z
        }.count
        XCTAssertGreaterThan(Double(inside), 0.9 * Double(poses.scene.points.count), "the box holds the bulk of the points")
        XCTAssertFalse(kinds.contains("skippedSample") || kinds.contains("stitchingIncomplete") || kinds.contains("invalidSample"))
        let fractions = outputs.compactMap { if case .requestProgress(_, let f) = $0.output { return f } else { return nil } }
        XCTAssertEqual(fractions.last, 1, "a finished run reports exactly 1 (the stages' shares add up to 1 only up to rounding)")
    }

    func testAModelAloneFailsAtOnceWithoutDoingAnyWork() async throws {
        let folder = try Self.capture.writePNGs(prefix: "session-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Session(input: Self.samples(in: folder))
        let model = Session.Request.modelFile(url: folder.appendingPathComponent("out.usdz"), detail: .medium)
        try session.process(requests: [model])
        let outputs = await SessionRecording.collect(session)
        XCTAssertEqual(outputs.map(\.kind), ["requestError", "processingComplete"])
        XCTAssertThrowsError(try session.process(requests: [.modelFile(url: folder.appendingPathComponent("model.stl"))])) {
            guard case Session.Error.invalidRequest = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try session.process(requests: [])) { XCTAssertEqual($0 as? Session.Error, .noRequests) }
    }

    func testUndecodableSamplesAreReportedAndTheRestReconstructed() async throws {
        let folder = try Self.capture.writePNGs(prefix: "session-invalid")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("broken.jpg"))
        var samples = Self.samples(in: folder)
        samples.insert(PhotogrammetrySample(id: 7, image: .file(folder.appendingPathComponent("broken.jpg"))), at: 3)
        samples.append(PhotogrammetrySample(id: 8, image: .file(folder.appendingPathComponent("missing.png"))))
        let session = try Session(input: samples)
        try session.process(requests: [.poses])
        let outputs = await SessionRecording.collect(session)
        let kinds = outputs.map(\.kind)
        let invalid = outputs.compactMap { if case .invalidSample(let id, let reason) = $0.output { return (id, reason) } else { return nil } }
        XCTAssertEqual(invalid.map(\.0), [7, 8])
        XCTAssertTrue(invalid[1].1.hasPrefix("missing.png: ") && invalid[1].1.contains("cannot read file"), invalid[1].1)
        XCTAssertLessThan(kinds.lastIndex(of: "invalidSample")!, kinds.firstIndex(of: "inputComplete")!)
        let poses = try XCTUnwrap(outputs.compactMap { if case .requestComplete(_, .poses(let p)) = $0.output { return p } else { return nil } }.first)
        XCTAssertEqual(poses.posesBySample.count, 10)
        XCTAssertTrue(poses.unregisteredReasonsBySample[7]?.hasPrefix("skipped: ") ?? false)
        XCTAssertEqual(poses.scene.images.map(\.name), samples.map(\.name), "input order kept")
        XCTAssertEqual(kinds.last, "processingComplete")
    }

    func testTooFewUsableSamplesFailsEveryRequestWithTheReason() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("session-few-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ImageCodec.encode(Self.capture.images[0]).write(to: folder.appendingPathComponent("one.png"))
        try Data().write(to: folder.appendingPathComponent("empty.jpg"))
        let session = try Session(input: [
            PhotogrammetrySample(id: 0, image: .file(folder.appendingPathComponent("one.png"))),
            PhotogrammetrySample(id: 1, image: .file(folder.appendingPathComponent("empty.jpg"))),
        ])
        try session.process(requests: [.poses, .bounds])
        let outputs = await SessionRecording.collect(session)
        let errors = outputs.compactMap { if case .requestError(let r, let e) = $0.output { return (r, "\(e)") } else { return nil } }
        XCTAssertEqual(errors.map(\.0), [.poses, .bounds])
        XCTAssertTrue(errors.allSatisfy { $0.1.contains("at least 2 usable images") && $0.1.contains("empty.jpg") })
        XCTAssertEqual(outputs.last?.kind, "processingComplete")
    }

    func testInvalidSessionsAreRejected() throws {
        XCTAssertThrowsError(try Session(input: [PhotogrammetrySample]())) { XCTAssertEqual($0 as? Session.Error, .noSamples) }
        let url = URL(fileURLWithPath: "/tmp/a.png")
        XCTAssertThrowsError(try Session(input: [PhotogrammetrySample(id: 1, image: .file(url)),
                                                 PhotogrammetrySample(id: 1, image: .file(URL(fileURLWithPath: "/tmp/b.png")))])) {
            XCTAssertEqual($0 as? Session.Error, .duplicateSampleID(1))
        }
        XCTAssertThrowsError(try Session(input: [PhotogrammetrySample(id: 1, image: .file(url)),
                                                 PhotogrammetrySample(id: 2, image: .file(URL(fileURLWithPath: "/elsewhere/a.png")))])) {
            XCTAssertEqual($0 as? Session.Error, .duplicateSampleName("a.png"))
        }
    }

    func testPixelSamplesAndObjectMasksAreUsed() async throws {
        // Pixels in memory; each view masked to its left half, so every feature lies there.
        let capture = Self.capture
        var mask = GrayImage(width: 64, height: 48, fill: 0)
        for y in 0..<48 { for x in 0..<32 { mask.pixels[y * 64 + x] = 255 } }
        let k = capture.intrinsics
        let samples = capture.images.enumerated().map { i, image in
            PhotogrammetrySample(id: i, image: .pixels(image), intrinsics: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy), objectMask: mask)
        }
        XCTAssertEqual(samples[2].name, "sample-2")
        let session = try Session(input: samples)
        try session.process(requests: [.poses])
        let outputs = await SessionRecording.collect(session)
        let poses = try XCTUnwrap(outputs.compactMap { if case .requestComplete(_, .poses(let p)) = $0.output { return p } else { return nil } }.first)
        let keypoints = poses.scene.images.flatMap(\.keypoints)
        XCTAssertFalse(keypoints.isEmpty)
        XCTAssertTrue(keypoints.allSatisfy { $0.x < Float(k.width) / 2 + 10 }, "features only inside the mask")
        XCTAssertGreaterThanOrEqual(poses.posesBySample.count, 3)
    }
}

/// Records a session's messages until its run ends, with the time each arrived.
enum SessionRecording {
    struct Entry: Sendable {
        var output: PhotogrammetrySession.Output
        /// Seconds on the monotonic clock.
        var time: Double
        var kind: String { Self.kind(output) }

        static func kind(_ output: PhotogrammetrySession.Output) -> String {
            switch output {
            case .inputComplete: return "inputComplete"
            case .requestProgress: return "requestProgress"
            case .requestProgressInfo: return "requestProgressInfo"
            case .invalidSample: return "invalidSample"
            case .inputWarning: return "inputWarning"
            case .skippedSample: return "skippedSample"
            case .automaticDownsampling: return "automaticDownsampling"
            case .stageComplete: return "stageComplete"
            case .requestComplete: return "requestComplete"
            case .requestError: return "requestError"
            case .stitchingIncomplete: return "stitchingIncomplete"
            case .processingCancelled: return "processingCancelled"
            case .processingComplete: return "processingComplete"
            }
        }
    }

    /// Messages up to and including `processingComplete` or `processingCancelled`; `react` sees
    /// each as it arrives (e.g. to cancel).
    static func collect(_ session: PhotogrammetrySession,
                        react: (PhotogrammetrySession.Output) -> Void = { _ in }) async -> [Entry] {
        var entries: [Entry] = []
        for await output in session.outputs {
            entries.append(Entry(output: output, time: ProcessInfo.processInfo.systemUptime))
            react(output)
            switch output {
            case .processingComplete, .processingCancelled: return entries
            default: continue
            }
        }
        return entries
    }
}
