import Foundation
import XCTest

/// The CLI as a user runs it: exit codes and messages.
final class CommandLineTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CLIRunner.run(arguments)
    }

    func testHelpExplainsEachSubcommand() throws {
        let top = try run(["--help"])
        XCTAssertEqual(top.status, 0)
        XCTAssertTrue(top.output.contains("poses") && top.output.contains("evaluate-poses"))
        let poses = try run(["help", "poses"])
        XCTAssertTrue(poses.output.contains("transforms.json") && poses.output.contains("--intrinsics-file"))
    }

    func testFewerThanTwoUsableImagesExitsNonZeroNamingTheBadFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("definitely not a JPEG".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        let result = try run(["poses", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("broken.jpg"), result.output)
        XCTAssertTrue(result.output.contains("at least 2 usable images"), result.output)
    }

    func testConflictingIntrinsicsOptionsAreAValidationError() throws {
        let result = try run(["poses", "/tmp", "-o", "/tmp/x", "--intrinsics", "1,1,1,1", "--intrinsics-file", "K.txt"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("either --intrinsics or --intrinsics-file"), result.output)
    }
}
