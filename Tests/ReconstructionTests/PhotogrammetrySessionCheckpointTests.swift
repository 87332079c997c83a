import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Cancelling keeps what is finished; a new session on the same checkpoint directory skips it.
final class PhotogrammetrySessionCheckpointTests: XCTestCase {
    typealias Session = PhotogrammetrySession

    static func reports(_ outputs: [SessionRecording.Entry]) -> [ProcessingStage: Session.StageReport] {
        Dictionary(outputs.compactMap { if case .stageComplete(let r) = $0.output { return (r.stage, r) } else { return nil } },
                   uniquingKeysWith: { a, _ in a })
    }

    static func poses(_ outputs: [SessionRecording.Entry]) -> Session.Poses? {
        outputs.compactMap { if case .requestComplete(_, .poses(let p)) = $0.output { return p } else { return nil } }.first
    }

    /// Asserts the same samples are registered at the same poses, up to the rounding noise of
    /// multithreaded bundle adjustment (sums in a different order), 1e-9 m or rad.
    func assertSamePoses(_ a: Session.Poses?, _ b: Session.Poses?, _ message: String, line: UInt = #line) {
        guard let a, let b else { return XCTFail("missing poses: \(message)", line: line) }
        XCTAssertEqual(Set(a.posesBySample.keys), Set(b.posesBySample.keys), message, line: line)
        for (id, pose) in a.posesBySample {
            guard let other = b.posesBySample[id] else { continue }
            let d = pose.worldFromCamera.translation.distance(to: other.worldFromCamera.translation)
            let r = zip(pose.worldFromCamera.rotation.m, other.worldFromCamera.rotation.m).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThan(max(d, r), 1e-9, "sample \(id): \(message)", line: line)
        }
    }

    /// Runs `.poses` in a new session on `checkpoint`; returns the messages and the wall time.
    func run(_ samples: [PhotogrammetrySample], checkpoint: URL?,
             react: @escaping (Session, Session.Output) -> Void = { _, _ in }) async throws -> ([SessionRecording.Entry], Double) {
        var configuration = Session.Configuration()
        configuration.checkpointDirectory = checkpoint
        let session = try Session(input: samples, configuration: configuration)
        let start = ProcessInfo.processInfo.systemUptime
        try session.process(requests: [.poses])
        let outputs = await SessionRecording.collect(session) { react(session, $0) }
        return (outputs, ProcessInfo.processInfo.systemUptime - start)
    }

    func features(in checkpoint: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: checkpoint.appendingPathComponent("features").path)) ?? [])
            .filter { $0.hasSuffix(".ckpt") }
    }

    /// A checkpoint folder removed while the session runs (its task deleted) is not written back.
    func testARemovedCheckpointFolderStaysRemoved() async throws {
        let capture = PhotogrammetrySessionTests.capture
        let folder = try capture.writePNGs(prefix: "session-removed")
        let checkpoint = folder.appendingPathComponent("checkpoint", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outputs, _) = try await run(PhotogrammetrySessionTests.samples(in: folder), checkpoint: checkpoint) { _, output in
            if case .requestProgress = output { try? FileManager.default.removeItem(at: checkpoint) }
        }
        XCTAssertNotNil(Self.poses(outputs), "the run itself goes on")
        XCTAssertFalse(FileManager.default.fileExists(atPath: checkpoint.path), "nothing written back")
    }

    func testCancelKeepsFinishedWorkAndResumedRunsSkipIt() async throws {
        let capture = PhotogrammetrySessionTests.capture
        let folder = try capture.writePNGs(prefix: "session-resume")
        let checkpoint = folder.appendingPathComponent("checkpoint", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = PhotogrammetrySessionTests.samples(in: folder)
        let n = samples.count

        // A reference run without checkpoints.
        let (reference, referenceSeconds) = try await run(samples, checkpoint: nil)
        let truth = try XCTUnwrap(Self.poses(reference))

        // 1. Cancel as soon as the first image's features are done (the first progress above 0
        // comes after its checkpoint is written; the progress message at 0 precedes any work).
        let (cancelled, _) = try await run(samples, checkpoint: checkpoint) { session, output in
            if case .requestProgress(_, let fraction) = output, fraction > 0 { session.cancel() }
        }
        XCTAssertEqual(cancelled.last?.kind, "processingCancelled")
        XCTAssertFalse(cancelled.contains { $0.kind == "requestComplete" || $0.kind == "requestError" || $0.kind == "processingComplete" })
        let kept = features(in: checkpoint).count
        XCTAssertGreaterThanOrEqual(kept, 1, "the finished images' features are kept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: checkpoint.appendingPathComponent("mapping.ckpt").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: checkpoint.appendingPathComponent("features").path)
            .filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary files left behind")

        // 2. Resume: the kept images are loaded, the rest computed; same poses as the reference.
        let (resumed, resumedSeconds) = try await run(samples, checkpoint: checkpoint)
        let resumedReports = Self.reports(resumed)
        XCTAssertEqual(resumedReports[.features]?.restoredItems, kept)
        XCTAssertEqual(resumedReports[.features]?.totalItems, n)
        XCTAssertGreaterThan(resumedReports[.features]?.savedSeconds ?? 0, 0)
        XCTAssertEqual(resumed.last?.kind, "processingComplete")
        let resumedPoses = try XCTUnwrap(Self.poses(resumed))
        assertSamePoses(resumedPoses, truth, "resuming does not change the result")
        XCTAssertEqual(features(in: checkpoint).count, n)

        // 3. Again: every stage is loaded, nothing recomputed, same result.
        let (again, againSeconds) = try await run(samples, checkpoint: checkpoint)
        let againReports = Self.reports(again)
        XCTAssertEqual(againReports[.features]?.restoredItems, n)
        for stage in [ProcessingStage.features, .matching, .mapping] {
            XCTAssertTrue(againReports[stage]?.isRestored ?? false, "\(stage) loaded from the checkpoint")
        }
        assertSamePoses(Self.poses(again), truth, "a restored scene is the scene")
        XCTAssertEqual(Self.poses(again)?.scene.points.count, truth.scene.points.count)
        XCTAssertEqual(again.map(\.kind).filter { $0 == "inputComplete" }.count, 1)
        let saved = againReports.values.reduce(0) { $0 + $1.savedSeconds }
        print(String(format: "checkpoint: reference run %.2f s; cancelled after %d/%d images; resumed %.2f s (features saved %.2f s); "
                     + "fully restored %.2f s (saved %.2f s: features %.2f, matching %.2f, mapping %.2f)",
                     referenceSeconds, kept, n, resumedSeconds, resumedReports[.features]?.savedSeconds ?? 0, againSeconds, saved,
                     againReports[.features]?.savedSeconds ?? 0, againReports[.matching]?.savedSeconds ?? 0,
                     againReports[.mapping]?.savedSeconds ?? 0))

        // 4. A changed photo invalidates its features and everything after them, and nothing else.
        let changed = folder.appendingPathComponent(RenderedCapture.name(4))
        var pixels = capture.images[4]
        for i in stride(from: 0, to: pixels.pixels.count, by: 997) { pixels.pixels[i] ^= 0x20 }
        try ImageCodec.encode(pixels).write(to: changed)
        let (edited, _) = try await run(samples, checkpoint: checkpoint)
        let editedReports = Self.reports(edited)
        XCTAssertEqual(editedReports[.features]?.restoredItems, n - 1)
        XCTAssertEqual(editedReports[.matching]?.restoredItems, 0)
        XCTAssertEqual(editedReports[.mapping]?.restoredItems, 0)
        XCTAssertEqual(Self.poses(edited)?.posesBySample.count, n)
        XCTAssertEqual(features(in: checkpoint).count, n, "the stale entry is pruned")
        XCTAssertEqual(againReports.values.compactMap(\.setAside), [], "nothing set aside when all is loaded")
        XCTAssertNil(editedReports[.features]?.setAside, "a changed photo's old features are not worth a note")
        XCTAssertEqual(editedReports[.matching]?.setAside, "matching.ckpt: saved for other photos or options")
        XCTAssertEqual(editedReports[.mapping]?.setAside, "mapping.ckpt: saved for other photos or options")

        // 5. Damaged files (bytes changed on disk) are named as such and computed again.
        func damage(_ url: URL) throws {
            var bytes = try Data(contentsOf: url)
            bytes[bytes.count - 1] ^= 0xFF
            try bytes.write(to: url)
        }
        try damage(checkpoint.appendingPathComponent("matching.ckpt"))
        try damage(checkpoint.appendingPathComponent("features").appendingPathComponent(try XCTUnwrap(features(in: checkpoint).first)))
        let (damaged, _) = try await run(samples, checkpoint: checkpoint)
        let damagedReports = Self.reports(damaged)
        XCTAssertEqual(damagedReports[.features]?.restoredItems, n - 1)
        XCTAssertEqual(damagedReports[.features]?.setAside, "1 file: damaged")
        XCTAssertEqual(damagedReports[.matching]?.setAside, "matching.ckpt: damaged")
        XCTAssertEqual(damagedReports[.mapping]?.restoredItems, 1, "the same matches map to the saved scene")
        assertSamePoses(Self.poses(damaged), Self.poses(edited), "damaged files computed again give the same result")

        // 6. Other options: none of the saved features fit, and the note says why.
        var configuration = Session.Configuration()
        configuration.checkpointDirectory = checkpoint
        configuration.featureSensitivity = .high
        let session = try Session(input: samples, configuration: configuration)
        try session.process(requests: [.poses])
        let otherReports = Self.reports(await SessionRecording.collect(session) { _ in })
        XCTAssertEqual(otherReports[.features]?.restoredItems, 0)
        XCTAssertEqual(otherReports[.features]?.setAside, "\(n) files: saved for other photos or options")
    }

    /// Without a checkpoint directory, a second `process` call on the same session reuses the pose
    /// stages of the first (same messages, same poses); a photo changed on disk in between, or
    /// one missing before and there now, makes the next call compute them again.
    func testASecondProcessCallReusesThePoseStagesOfTheFirst() async throws {
        let capture = PhotogrammetrySessionTests.capture
        let folder = try capture.writePNGs(prefix: "session-reuse")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("broken.jpg"))
        var samples = PhotogrammetrySessionTests.samples(in: folder)
        samples.insert(PhotogrammetrySample(id: 7, image: .file(folder.appendingPathComponent("broken.jpg"))), at: 2)
        let late = folder.appendingPathComponent(RenderedCapture.name(9)), away = folder.appendingPathComponent("away.png")
        try FileManager.default.moveItem(at: late, to: away)
        let session = try Session(input: samples)
        func invalid(_ outputs: [SessionRecording.Entry]) -> [String] {
            outputs.compactMap { if case .invalidSample(_, let reason) = $0.output { return reason } else { return nil } }
        }

        try session.process(requests: [.poses])
        let first = await SessionRecording.collect(session)
        let firstReports = Self.reports(first)
        let truth = try XCTUnwrap(Self.poses(first))
        XCTAssertEqual(firstReports[.features]?.restoredItems, 0)

        try session.process(requests: [.pointCloud, .poses])
        let second = await SessionRecording.collect(session)
        let secondReports = Self.reports(second)
        for stage in [ProcessingStage.features, .matching, .mapping] {
            XCTAssertTrue(secondReports[stage]?.isRestored ?? false, "\(stage) reused")
            XCTAssertEqual(secondReports[stage]?.savedSeconds ?? -1, firstReports[stage]?.seconds ?? 0, accuracy: 1e-9)
        }
        XCTAssertEqual(secondReports[.features]?.totalItems, samples.count)
        XCTAssertEqual(invalid(second), invalid(first), "the broken photo is reported again")
        XCTAssertEqual(invalid(second).count, 2, "the broken photo and the missing one")
        XCTAssertEqual(second.map(\.kind).filter { $0 == "inputComplete" }.count, 1)
        assertSamePoses(Self.poses(second), truth, "the reused scene is the scene")
        XCTAssertEqual(Self.poses(second)?.scene.points.count, truth.scene.points.count)
        XCTAssertTrue(second.contains { if case .requestComplete(.pointCloud, _) = $0.output { return true } else { return false } })
        XCTAssertEqual(second.last?.kind, "processingComplete")

        // Rewritten with the same size and its modification time put back (as `cp -p` does): seen.
        let broken = folder.appendingPathComponent("broken.jpg")
        let modified = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: broken.path)[.modificationDate] as? Date)
        try Data("not an IMAGE".utf8).write(to: broken)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: broken.path)
        try session.process(requests: [.poses])
        let rewritten = Self.reports(await SessionRecording.collect(session))
        XCTAssertEqual(rewritten[.features]?.restoredItems, 0, "a rewritten photo: the stages run again")

        let changed = folder.appendingPathComponent(RenderedCapture.name(4))
        var pixels = capture.images[4]
        for i in stride(from: 0, to: pixels.pixels.count, by: 997) { pixels.pixels[i] ^= 0x20 }
        try ImageCodec.encode(pixels).write(to: changed)
        try FileManager.default.moveItem(at: away, to: late)
        try session.process(requests: [.poses])
        let third = await SessionRecording.collect(session)
        let thirdReports = Self.reports(third)
        XCTAssertEqual(thirdReports[.features]?.restoredItems, 0, "a changed photo: the stages run again")
        XCTAssertEqual(thirdReports[.mapping]?.restoredItems, 0)
        XCTAssertEqual(invalid(third).count, 1, "the photo that is back is read")
        XCTAssertEqual(Self.poses(third)?.posesBySample.count, samples.count - 1)
    }

    func testCancellingDuringMappingKeepsFeaturesAndMatches() async throws {
        let folder = try PhotogrammetrySessionTests.capture.writePNGs(prefix: "session-cancel-mapping")
        let checkpoint = folder.appendingPathComponent("checkpoint", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = PhotogrammetrySessionTests.samples(in: folder)
        let (cancelled, _) = try await run(samples, checkpoint: checkpoint) { session, output in
            if case .requestProgressInfo(_, let info) = output, info.stage == .mapping { session.cancel() }
        }
        XCTAssertEqual(cancelled.last?.kind, "processingCancelled")
        let stages = Self.reports(cancelled)
        XCTAssertNotNil(stages[.features])
        XCTAssertNotNil(stages[.matching])
        XCTAssertNil(stages[.mapping], "mapping was stopped")
        let (resumed, _) = try await run(samples, checkpoint: checkpoint)
        let reports = Self.reports(resumed)
        XCTAssertTrue(reports[.features]?.isRestored ?? false)
        XCTAssertTrue(reports[.matching]?.isRestored ?? false)
        XCTAssertEqual(reports[.matching]?.savedSeconds ?? 0, stages[.matching]?.seconds ?? -1, accuracy: 1e-9,
                       "the time the matching took is what resuming saves")
        XCTAssertEqual(reports[.mapping]?.restoredItems, 0)
        XCTAssertEqual(Self.poses(resumed)?.posesBySample.count, samples.count)
    }

    func testACorruptCheckpointIsRecomputedNotTrusted() async throws {
        let folder = try PhotogrammetrySessionTests.capture.writePNGs(prefix: "session-corrupt")
        let checkpoint = folder.appendingPathComponent("checkpoint", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = Array(PhotogrammetrySessionTests.samples(in: folder).prefix(6))
        let (first, _) = try await run(samples, checkpoint: checkpoint)
        let truth = try XCTUnwrap(Self.poses(first))
        // Truncate the mapping checkpoint and change bytes in one image's features.
        let mapping = checkpoint.appendingPathComponent("mapping.ckpt")
        let data = try Data(contentsOf: mapping)
        try data.prefix(data.count / 2).write(to: mapping)
        let featureFile = checkpoint.appendingPathComponent("features").appendingPathComponent(features(in: checkpoint).sorted()[0])
        var bytes = try Data(contentsOf: featureFile)
        bytes.replaceSubrange(8..<16, with: Data(repeating: 0x55, count: 8))
        try bytes.write(to: featureFile)
        // Bytes changed inside the matching checkpoint's payload, its size kept (a disk's error):
        // they decoded, and the mapping went on from wrong matches.
        let matching = checkpoint.appendingPathComponent("matching.ckpt")
        var matches = try Data(contentsOf: matching)
        let middle = matches.count / 2
        matches.replaceSubrange(middle..<(middle + 64), with: Data(matches[middle..<(middle + 64)].map { $0 ^ 0x5A }))
        try matches.write(to: matching)

        let (second, _) = try await run(samples, checkpoint: checkpoint)
        let reports = Self.reports(second)
        XCTAssertEqual(reports[.features]?.restoredItems, samples.count - 1)
        XCTAssertEqual(reports[.matching]?.restoredItems, 0)
        XCTAssertEqual(reports[.mapping]?.restoredItems, 0)
        assertSamePoses(Self.poses(second), truth, "recomputed after a corrupt checkpoint")
    }
}
