import Foundation
import XCTest

/// Ctrl-C or SIGTERM during `poses --json`: whenever it comes, exit code 130 and a last event
/// `cancelled`.
final class PosesInterruptTests: XCTestCase {
    private func jsonEvents(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Starts `poses --json` on `images` into `output`, waits until `ready(output so far)`, sends
    /// Ctrl-C (or SIGTERM when `terminate`), and returns the exit status and standard output.
    private func interruptedPoses(_ images: URL, output: URL, extra: [String] = [], terminate: Bool = false,
                                  when ready: (String) -> Bool) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: CLIRunner.binary.path) else { throw XCTSkip("photogrammetry binary not built") }
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["poses", images.path, "-o", output.path, "--json"] + extra
        let log = output.deletingLastPathComponent().appendingPathComponent("\(output.lastPathComponent).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline, !ready(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)) {
            usleep(5_000)
        }
        if terminate { process.terminate() } else { process.interrupt() }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }

    /// While the photos' headers are read (a big folder: 1500 names for one photo), there is no
    /// session to cancel yet: the run ends at once, saying so, and leaves no output folder behind.
    func testCtrlCWhilePhotosAreListedEndsWithACancelledEvent() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let root = try BatchCaptures.temporaryDirectory(self)
        let images = root.appendingPathComponent("many", isDirectory: true)
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let photo = capture.appendingPathComponent("images/0001.jpg")
        for k in 0..<1500 {
            try FileManager.default.createSymbolicLink(at: images.appendingPathComponent("p\(k).jpg"), withDestinationURL: photo)
        }
        let output = root.appendingPathComponent("out", isDirectory: true)
        // The output folder is made (checked) before the headers are read.
        let run = try interruptedPoses(images, output: output) { _ in FileManager.default.fileExists(atPath: output.path) }
        XCTAssertEqual(run.status, 130, run.output)
        let events = jsonEvents(run.output)
        XCTAssertEqual(events.last?["event"] as? String, "cancelled", run.output)
        // Reading 1500 headers takes about a second here; should a machine read them before the
        // signal, the session's own cancellation must still end the run the same way.
        let message = events.last?["message"] as? String ?? ""
        XCTAssertTrue(message == "cancelled before processing began" || message.hasPrefix("cancelled"), run.output)
        if message == "cancelled before processing began" {
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "the run made the output folder and wrote nothing in it")
        }
    }

    /// Once the session runs, SIGTERM (a service manager's stop) cancels it as Ctrl-C does: the
    /// checkpoint's finished work is kept and said so. Progress never repeats itself (the same stage
    /// at the same fraction).
    func testSIGTERMDuringFeaturesCancelsTheSessionAndKeepsTheCheckpoint() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let root = try BatchCaptures.temporaryDirectory(self)
        let output = root.appendingPathComponent("out", isDirectory: true)
        let checkpoint = root.appendingPathComponent("checkpoint", isDirectory: true)
        let run = try interruptedPoses(capture.appendingPathComponent("images"), output: output,
                                       extra: ["--checkpoint", checkpoint.path], terminate: true) { text in
            text.contains(#""stage":"features""#)
        }
        XCTAssertEqual(run.status, 130, run.output)
        let events = jsonEvents(run.output)
        XCTAssertEqual(events.last?["event"] as? String, "cancelled", run.output)
        XCTAssertTrue((events.last?["message"] as? String ?? "").contains(checkpoint.path), run.output)
        let progress = events.filter { $0["event"] as? String == "progress" }.map { "\($0["stage"] ?? "") \($0["fraction"] ?? "")" }
        XCTAssertFalse(progress.isEmpty, run.output)
        XCTAssertFalse(zip(progress, progress.dropFirst()).contains { $0 == $1 }, "a progress event repeated: \(run.output)")
    }
}
