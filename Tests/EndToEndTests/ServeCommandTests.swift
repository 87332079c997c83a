import BatchRunner
import Foundation
import TestSupport
import XCTest

/// `photogrammetry serve` driven by the real PyODM client (issue 7, acceptance 3).
final class ServeCommandTests: XCTestCase {
    func testPyODMCreatesFollowsDownloadsAndTheServerRefusesWhatItMust() throws {
        try PythonTool.requireModule("pyodm", pipPackage: "pyodm")
        let capture = try BatchCaptures.make(1)[0]
        let dir = try BatchCaptures.temporaryDirectory(self)
        let data = dir.appendingPathComponent("data")
        let server = try ServerProcess.start(["serve", "--port", "0", "--token", "s3cret", "--data-dir", data.path])
        defer { server.stop() }

        let downloads = dir.appendingPathComponent("downloads")
        let script = dir.appendingPathComponent("client.py")
        try Data(ServeClientScript.source.utf8).write(to: script)
        let run = try PythonTool.run(file: script, ["\(server.port)", "s3cret", capture.path, downloads.path])
        XCTAssertEqual(run.status, 0, run.output + "\nserver:\n" + server.output)
        guard let line = run.output.split(separator: "\n").last,
              let seen = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return XCTFail("no JSON from the client:\n\(run.output)")
        }

        // The node and its options.
        let info = seen["info"] as? [String: Any]
        XCTAssertEqual(info?["engine"] as? String, "photogrammetry")
        XCTAssertEqual(seen["options"] as? [String], ["detail", "model-format", "point-cloud", "bounds", "object-masking"])

        // Unauthenticated requests are refused with 401 and a JSON error.
        XCTAssertTrue((seen["no_token_client"] as? String)?.hasPrefix("refused") == true, "\(seen["no_token_client"] ?? "")")
        for key in ["no_token", "wrong_token"] {
            let reply = seen[key] as? [Any]
            XCTAssertEqual(reply?.first as? Int, 401, key)
            XCTAssertNotNil((reply?.last as? [String: Any])?["error"], key)
        }

        // The task ran to completion with progress reported on the way, and its assets arrived.
        let task = try XCTUnwrap(seen["task"] as? [String: Any])
        let uuid = try XCTUnwrap(task["uuid"] as? String)
        XCTAssertEqual(task["status"] as? Int, 40)
        XCTAssertEqual(task["images"] as? Int, BatchCaptures.views)
        let progress = (task["progress"] as? [[Double]]) ?? []
        XCTAssertTrue(progress.contains { $0[0] == 20 && $0[1] > 0 && $0[1] < 100 }, "progress while running: \(progress)")
        XCTAssertEqual(progress.last?[1], 100)
        XCTAssertEqual(Set(seen["assets"] as? [String] ?? []), ["colmap", "job-manifest.json", "model.glb", "points.ply", "poses.json", "sparse_pc.ply", "transforms.json"])
        let poses = try JSONSerialization.jsonObject(with: Data(contentsOf: downloads.appendingPathComponent("poses.json"))) as? [String: Any]
        XCTAssertEqual((poses?["images"] as? [Any])?.count, BatchCaptures.views)
        let glb = try Data(contentsOf: downloads.appendingPathComponent("model.glb"))
        XCTAssertEqual(glb.prefix(4), Data("glTF".utf8))
        let manifest = try XCTUnwrap(OutputManifest.read(in: downloads))
        XCTAssertNil(manifest.mismatch(in: downloads), "the downloaded files match the job's manifest")
        XCTAssertTrue((seen["output_tail"] as? [String])?.last?.contains("completed") == true, "\(seen["output_tail"] ?? "")")
        XCTAssertEqual(seen["list"] as? [String], [uuid])
        let manifestDownload = seen["manifest_download"] as? [Any]
        XCTAssertEqual(manifestDownload?.first as? Int, 200, "the job's manifest downloads on its own too")
        XCTAssertEqual(manifestDownload?.last as? Bool, true)

        // Downloads answer byte ranges: PyODM's parallel chunked download rebuilds the same archive.
        let whole = seen["whole_zip"] as? [Any]
        XCTAssertEqual(whole?[0] as? Int, 200)
        XCTAssertEqual(whole?[1] as? String, "bytes")
        let size = try XCTUnwrap(whole?[2] as? Int)
        XCTAssertEqual(seen["parallel_zip_equal"] as? Bool, true, "the archive downloaded in 5 ranged chunks equals the whole one")
        let ranges = try XCTUnwrap(seen["ranges"] as? [String: [Any]])
        func expect(_ spec: String, _ status: Int, _ contentRange: String?) {
            let reply = ranges[spec]
            XCTAssertEqual(reply?[0] as? Int, status, spec)
            XCTAssertEqual(reply?[1] as? String, contentRange, spec)
            if status != 416 { XCTAssertEqual(reply?[2] as? Bool, true, "\(spec): the bytes sent") }
        }
        expect("bytes=0-9", 206, "bytes 0-9/\(size)")
        expect("bytes=-10", 206, "bytes \(size - 10)-\(size - 1)/\(size)")
        expect("bytes=10-", 206, "bytes 10-\(size - 1)/\(size)")
        expect("bytes=5-\(size + 100)", 206, "bytes 5-\(size - 1)/\(size)")
        expect("bytes=\(size)-", 416, "bytes */\(size)")
        expect("bytes=9-3", 200, nil)
        expect("bytes=0-1,5-6", 200, nil)
        expect("items=0-9", 200, nil)

        // Traversal and other refusals: 403/404 with JSON errors, and nothing written outside the task.
        for (key, status) in [("upload_traversal", 403), ("upload_backslash", 403), ("upload_not_photo", 403),
                              ("uuid_traversal", 404), ("asset_traversal", 404), ("commit_without_photos", 403)] {
            let reply = seen[key] as? [Any]
            XCTAssertEqual(reply?.first as? Int, status, "\(key): \(reply ?? [])")
            XCTAssertNotNil((reply?.last as? [String: Any])?["error"], key)
        }
        let escaped = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("escaped.jpg") }
        XCTAssertEqual(escaped, [], "an upload escaped its task folder")

        // Cancel, restart with new options, remove: the removed task's files go, the other task's stay.
        XCTAssertEqual(seen["cancel"] as? Bool, true)
        XCTAssertEqual(seen["cancelled_status"] as? Int, 50)
        XCTAssertEqual(seen["restart"] as? Bool, true)
        let restarted = seen["restarted"] as? [String: Any]
        XCTAssertEqual(restarted?["status"] as? Int, 40)
        XCTAssertTrue((restarted?["options"] as? [[String: String]])?.contains(["name": "detail", "value": "none"]) == true)
        XCTAssertEqual(seen["remove"] as? Bool, true)
        XCTAssertEqual((seen["removed_info"] as? [Any])?.first as? Int, 404)
        let oversized = seen["oversized_form"] as? [Any]
        XCTAssertEqual(oversized?.first as? Int, 413, "\(oversized ?? [])")
        XCTAssertTrue(((oversized?.last as? [String: Any])?["error"] as? String)?.contains("the form is larger than") == true, "\(oversized ?? [])")
        let second = try XCTUnwrap(seen["second_uuid"] as? String)
        XCTAssertTrue((seen["second_output"] as? [String])?.contains { $0.contains("ignored option this node does not have: dsm") } == true,
                      "\(seen["second_output"] ?? "")")
        XCTAssertEqual((seen["output_min_line"] as? [Any])?.first as? Int, 200, "the server answers any line number")
        XCTAssertEqual(seen["upper_case_info"] as? [AnyHashable], [200, second], "an upper-case task id finds its task")
        XCTAssertEqual((seen["upload_unicode"] as? [Any])?.first as? Int, 200)
        let evil = try XCTUnwrap(seen["evil_uuid"] as? String)
        let evilImages = data.appendingPathComponent("tasks/\(evil)/images")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: evilImages.path)), ["写真1.jpg", "画像1.jpg"])
        let tasks = data.appendingPathComponent("tasks")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tasks.appendingPathComponent(second).path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("batch/jobs/\(second)").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tasks.appendingPathComponent(uuid).appendingPathComponent("output/model.glb").path))
        let ledger = try JobLedger(path: data.appendingPathComponent("batch/ledger.sqlite"))
        XCTAssertEqual(try ledger.job(uuid)?.state, .completed, "the ledger is shared and stays")
        XCTAssertEqual(try ledger.job(uuid)?.completions, 1)
    }
}

extension ServeCommandTests {
    /// A second server on a port that is taken says so and how to choose another, without the
    /// socket call's text, and leaves the first one serving; so does a host name that does not resolve.
    func testAPortInUseIsAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try ServerProcess.start(["serve", "--port", "0", "--token", "t", "--data-dir", dir.appendingPathComponent("a").path])
        defer { first.stop() }
        let second = try CLIRunner.run(["serve", "--port", "\(first.port)", "--token", "t", "--data-dir", dir.appendingPathComponent("b").path])
        XCTAssertEqual(second.status, 1, second.output)
        XCTAssertTrue(second.output.contains("127.0.0.1:\(first.port) is already in use"), second.output)
        XCTAssertTrue(second.output.contains("--port 0"), second.output)
        XCTAssertFalse(second.output.contains("errno"), second.output)
        XCTAssertTrue(first.process.isRunning)

        let unknown = try CLIRunner.run(["serve", "--port", "0", "--host", "no-such-host.invalid", "--token", "t",
                                         "--data-dir", dir.appendingPathComponent("c").path])
        XCTAssertEqual(unknown.status, 1, unknown.output)
        XCTAssertTrue(unknown.output.contains("--host no-such-host.invalid does not resolve"), unknown.output)
    }
}

/// A `photogrammetry serve` child process, with its output collected and its port read from
/// the line it prints once listening.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var text = ""
    private(set) var port = 0

    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }

    static func start(_ arguments: [String], timeout: TimeInterval = 30) throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: CLIRunner.binary.path) else {
            throw XCTSkip("photogrammetry binary not built at \(CLIRunner.binary.path)")
        }
        let server = ServerProcess()
        server.process.executableURL = CLIRunner.binary
        server.process.arguments = arguments
        let pipe = Pipe()
        server.process.standardOutput = pipe
        server.process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            server.lock.lock()
            server.text += chunk
            server.lock.unlock()
        }
        try server.process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, server.process.isRunning {
            if let range = server.output.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                server.port = Int(server.output[range].split(separator: ":").last ?? "") ?? 0
                if server.port > 0 { return server }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        throw NSError(domain: "ServerProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "serve did not start listening:\n\(server.output)"])
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
