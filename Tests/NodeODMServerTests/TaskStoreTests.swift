import BatchRunner
import Foundation
import NodeODMServer
import XCTest

final class TaskStoreTests: XCTestCase {
    private func store(maxImages: Int = 10) throws -> TaskStore {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        var limits = TaskStore.Limits()
        limits.maxImages = maxImages
        return try TaskStore(dataDirectory: url, limits: limits)
    }

    private func upload(_ store: TaskStore, _ names: [String]) throws -> [UploadedFile] {
        let incoming = try store.newIncomingDirectory()
        return try names.map { name in
            let url = incoming.appendingPathComponent(UUID().uuidString)
            try (name == "K.txt" ? Data("500 0 160\n0 500 120\n0 0 1\n".utf8) : Data([0xFF, 0xD8, 0xFF, 0xD9])).write(to: url)
            return UploadedFile(storedName: name, location: url, bytes: 4)
        }
    }

    func testATaskIsListedOnceCommittedAndQueuesItsJob() async throws {
        let store = try store()
        let task = try await store.create(name: " vase ", options: TaskOptions(), requestedUUID: nil)
        XCTAssertEqual(task.name, "vase")
        let list = await store.list()
        XCTAssertTrue(list.isEmpty, "uncommitted tasks are not listed")
        try await store.addUploads(task.uuid, files: try upload(store, ["1.jpg", "2.jpg", "3.jpg", "K.txt"]))
        try await store.addUploads(task.uuid, files: try upload(store, ["2.jpg"]))  // a retried upload replaces
        let committed = try await store.commit(task.uuid)
        XCTAssertEqual(committed.jobIDs, [task.uuid])
        let listed = await store.list()
        XCTAssertEqual(listed.map(\.uuid), [task.uuid])
        let info = try await store.info(task.uuid)
        XCTAssertEqual(info.status.code, .queued)
        XCTAssertEqual(info.imagesCount, 3)
        XCTAssertEqual(info.processingTime, -1)
        // Any line number is a request, the most negative too (it once trapped and ended the server).
        let all = try await store.output(task.uuid, from: 0)
        XCTAssertFalse(all.isEmpty)
        for line in [Int.min, -all.count - 1, Int.max] {
            let lines = try await store.output(task.uuid, from: line)
            XCTAssertEqual(lines, line == .max ? [] : all, "line \(line)")
        }
        let job = try XCTUnwrap(try store.ledger.job(task.uuid))
        XCTAssertEqual(job.decodedSpec?.intrinsicsFile?.hasSuffix("images/K.txt"), true, "an uploaded K.txt holds the intrinsics")
        XCTAssertEqual(job.decodedSpec?.output, store.outputDirectory(task.uuid).path)
        do {
            try await store.addUploads(task.uuid, files: try upload(store, ["4.jpg"]))
            XCTFail("added photos to a committed task")
        } catch let error as NodeODMError { XCTAssertTrue(error.message.contains("already committed"), error.message) }
    }

    func testLimitsUUIDsAndStatesAreEnforced() async throws {
        let store = try store(maxImages: 3)
        let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        XCTAssertEqual(task.uuid, "6f9619ff-8b86-d011-b42d-00c04fc964ff")
        await assertRefused("already exists") { _ = try await store.create(name: nil, options: TaskOptions(), requestedUUID: task.uuid) }
        await assertRefused("not a UUID") { _ = try await store.create(name: nil, options: TaskOptions(), requestedUUID: "../x") }
        await assertRefused("at least 2 are needed") { _ = try await store.commit(task.uuid) }
        await assertRefused("two uploaded files are named a.jpg") { try await store.addUploads(task.uuid, files: try self.upload(store, ["a.jpg", "a.jpg"])) }
        await assertRefused("at most 3 per task") { try await store.addUploads(task.uuid, files: try self.upload(store, ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])) }
        await assertRefused("not a task UUID", status: 404) { _ = try await store.info("../../etc") }
        await assertRefused("not found", status: 404) { _ = try await store.info(task.uuid) }  // not committed yet
        await assertRefused("assets are ready when it completes") {
            try await store.addUploads(task.uuid, files: try self.upload(store, ["a.jpg", "b.jpg", "c.jpg"]))
            _ = try await store.commit(task.uuid)
            _ = try await store.asset(task.uuid, named: "all.zip")
        }
        await assertRefused("only cancelled, failed or completed") { try await store.restart(task.uuid, options: nil) }
    }

    /// Two photos make poses but no model: a task asking one is refused at commit (it had been
    /// queued, run its pose stage and failed); with detail none it is queued.
    func testATaskOfTwoPhotosIsRefusedAModelAtCommit() async throws {
        let store = try store()
        let model = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
        try await store.addUploads(model.uuid, files: try upload(store, ["a.jpg", "b.jpg"]))
        await assertRefused("has 2 photos: a model needs at least 3") { _ = try await store.commit(model.uuid) }
        var posesOnly = TaskOptions()
        posesOnly.detail = "none"
        let poses = try await store.create(name: nil, options: posesOnly, requestedUUID: nil)
        try await store.addUploads(poses.uuid, files: try upload(store, ["a.jpg", "b.jpg"]))
        let committed = try await store.commit(poses.uuid)
        XCTAssertEqual(committed.jobIDs, [poses.uuid])
    }

    /// A completed task runs again as a new job, which replaces the finished job's outputs.
    func testACompletedTaskCanBeRestarted() async throws {
        let store = try store()
        let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
        try await store.addUploads(task.uuid, files: try upload(store, ["a.jpg", "b.jpg", "c.jpg"]))
        _ = try await store.commit(task.uuid)
        // The job runs and completes: its outputs, with their manifest, in the task's output folder.
        let job = try XCTUnwrap(try store.ledger.claim(task.uuid, runnerID: "r"))
        let outputs = JobOutputs(finalDirectory: store.outputDirectory(task.uuid), attempt: 1)
        try outputs.prepare()
        try Data("{}".utf8).write(to: outputs.stagingDirectory.appendingPathComponent("poses.json"))
        _ = try outputs.commit(jobID: task.uuid, specDigest: job.specDigest)
        try store.ledger.complete(task.uuid, runnerID: "r", outputDirectory: store.outputDirectory(task.uuid), outputs: ["poses.json"])

        try await store.restart(task.uuid, options: nil)
        let info = try await store.info(task.uuid)
        XCTAssertEqual(info.status.code, .queued)
        XCTAssertEqual(try store.ledger.job("\(task.uuid).2")?.state, .queued)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.outputDirectory(task.uuid).appendingPathComponent("poses.json").path),
                       "the finished job's outputs gave way")
    }

    /// A cancelled task restarted waits in the queue again: not started, so no processing time
    /// counted from its first run.
    func testARestartedCancelledTaskHasNotStarted() async throws {
        let store = try store()
        let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
        try await store.addUploads(task.uuid, files: try upload(store, ["a.jpg", "b.jpg", "c.jpg"]))
        _ = try await store.commit(task.uuid)
        _ = try XCTUnwrap(try store.ledger.claim(task.uuid, runnerID: "r"))
        _ = try store.ledger.requestCancel(task.uuid)
        try store.ledger.markCancelled(task.uuid, runnerID: "r")
        let cancelled = try await store.info(task.uuid)
        XCTAssertEqual(cancelled.status.code, .canceled)
        XCTAssertGreaterThanOrEqual(cancelled.processingTime, 0)

        try await store.restart(task.uuid, options: nil)
        let info = try await store.info(task.uuid, now: Date().timeIntervalSince1970 + 3600)
        XCTAssertEqual(info.status.code, .queued)
        XCTAssertEqual(info.processingTime, -1)
    }

    func testRemovingATaskDeletesOnlyItsFiles() async throws {
        let store = try store()
        var uuids: [String] = []
        for _ in 0..<2 {
            let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
            try await store.addUploads(task.uuid, files: try upload(store, ["a.jpg", "b.jpg", "c.jpg"]))
            _ = try await store.commit(task.uuid)
            try FileManager.default.createDirectory(at: store.layout.checkpointDirectory(task.uuid), withIntermediateDirectories: true)
            uuids.append(task.uuid)
        }
        try await store.cancel(uuids[0])
        try await store.deleteFiles(uuids[0])
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.taskDirectory(uuids[0]).path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.layout.jobDirectory(uuids[0]).path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.taskDirectory(uuids[1]).appendingPathComponent("images/a.jpg").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.layout.checkpointDirectory(uuids[1]).path))
        XCTAssertEqual(try store.ledger.job(uuids[0])?.state, .cancelled, "the shared ledger keeps the history")
        let remaining = await store.list()
        XCTAssertEqual(remaining.map(\.uuid), [uuids[1]])
    }

    /// `jobs remove` on the server's ledger: the task reports failed, not queued for ever; and a
    /// photo uploaded again with other content replaces the first, saying so in the task's log.
    func testATaskWhoseJobWasRemovedFailsAndAReplacedUploadIsLogged() async throws {
        let store = try store()
        let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
        try await store.addUploads(task.uuid, files: try upload(store, ["a.jpg", "b.jpg", "c.jpg"]))
        let incoming = try store.newIncomingDirectory()
        let other = incoming.appendingPathComponent("other")
        try Data([0xFF, 0xD8, 0x00, 0xFF, 0xD9]).write(to: other)
        try await store.addUploads(task.uuid, files: [UploadedFile(storedName: "b.jpg", location: other, bytes: 5)])
        _ = try await store.commit(task.uuid)
        let output = try await store.output(task.uuid, from: 0)
        XCTAssertTrue(output.contains { $0.contains("b.jpg was uploaded again with other content") }, "\(output)")
        _ = try store.ledger.requestCancel(task.uuid)
        try store.ledger.remove(task.uuid)
        let info = try await store.info(task.uuid)
        XCTAssertEqual(info.status.code, .failed)
        XCTAssertEqual(info.status.errorMessage, "the task's job was removed from the ledger")
    }

    func testAbandonedUploadsAreRemovedAfterADay() async throws {
        let store = try store()
        let task = try await store.create(name: nil, options: TaskOptions(), requestedUUID: nil)
        await store.removeAbandonedUploads(olderThan: 86_400, now: task.dateCreated + 3600)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.taskDirectory(task.uuid).path))
        await store.removeAbandonedUploads(olderThan: 86_400, now: task.dateCreated + 90_000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.taskDirectory(task.uuid).path))
    }

    /// A request's incoming folder left by a server killed mid-upload goes after an hour untouched.
    func testIncomingFoldersLeftByAKilledServerAreRemovedAfterAnHour() async throws {
        let store = try store()
        let incoming = try store.newIncomingDirectory()
        let file = incoming.appendingPathComponent("0-a.jpg")
        try Data([1, 2, 3]).write(to: file)
        let now = Date().timeIntervalSince1970
        await store.removeAbandonedUploads(olderThan: 86_400, now: now + 600)
        XCTAssertTrue(FileManager.default.fileExists(atPath: incoming.path))
        // A slow upload: its file still grows, its folder was last touched long ago.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: now - 7200)], ofItemAtPath: incoming.path)
        await store.removeAbandonedUploads(olderThan: 86_400, now: now + 600)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "an upload still being written stays")
        await store.removeAbandonedUploads(olderThan: 86_400, now: now + 3700)
        XCTAssertFalse(FileManager.default.fileExists(atPath: incoming.path))
    }

    private func assertRefused(_ message: String, status: Int = 403, line: UInt = #line,
                               _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("no error; expected \(message)", line: line)
        } catch let error as NodeODMError {
            XCTAssertEqual(error.statusCode, status, error.message, line: line)
            XCTAssertTrue(error.message.contains(message), error.message, line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
    }
}
