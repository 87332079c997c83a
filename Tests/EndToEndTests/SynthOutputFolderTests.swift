import Foundation
import XCTest

/// `synth` into a folder that holds an earlier capture replaces it: no photo or sidecar of the
/// earlier one stays beside the new (a `--photos-only` capture kept the old masks and depth, which
/// `poses` and `reconstruct` would then have read as the new scene's).
final class SynthOutputFolderTests: XCTestCase {
    func testAnEarlierCaptureIsReplacedAndForeignFoldersAreRefused() throws {
        let root = try BatchCaptures.temporaryDirectory(self)
        let capture = root.appendingPathComponent("capture")
        let first = try CLIRunner.run(["synth", "plain-box", "-o", capture.path, "--views", "5", "--size", "160x120"])
        XCTAssertEqual(first.status, 0, first.output)
        let notes = capture.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: notes)

        let second = try CLIRunner.run(["synth", "textured-vase", "-o", capture.path, "--views", "3", "--size", "160x120", "--photos-only"])
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertTrue(second.output.contains("replaced the earlier capture in"), second.output)
        let images = try FileManager.default.contentsOfDirectory(atPath: capture.appendingPathComponent("images").path).sorted()
        XCTAssertEqual(images, ["0001.jpg", "0002.jpg", "0003.jpg", "K.txt"])
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "mine", "other files are kept")

        // A capture a stopped run left without its capture.json (written last) is still synth's.
        try FileManager.default.removeItem(at: capture.appendingPathComponent("capture.json"))
        let again = try CLIRunner.run(["synth", "textured-vase", "-o", capture.path, "--views", "3", "--size", "160x120"])
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("replaced the earlier capture in"), again.output)

        // An images/ folder that synth did not write is the user's, even beside a capture.json of
        // another tool: refused, left as it is.
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8]).write(to: other.appendingPathComponent("images/photo.jpg"))
        try Data(#"{"generator": "another tool"}"#.utf8).write(to: other.appendingPathComponent("capture.json"))
        let refused = try CLIRunner.run(["synth", "plain-box", "-o", other.path, "--views", "3", "--size", "160x120"])
        XCTAssertNotEqual(refused.status, 0, refused.output)
        XCTAssertTrue(refused.output.contains("already holds images and capture.json that synth did not write (no capture.json of synth's)"),
                      refused.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.appendingPathComponent("images/photo.jpg").path))
    }
}
