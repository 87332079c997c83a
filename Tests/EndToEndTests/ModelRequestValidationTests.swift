import Foundation
import XCTest

/// A bad model request fails before any work starts, with a message that says what is wrong.
final class ModelRequestValidationTests: XCTestCase {
    func testBadDetailRequestsFailBeforeAnyWorkWithAClearMessage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-requests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let model = folder.appendingPathComponent("model.usdz").path
        let plyFolder = folder.appendingPathComponent("dir.ply")
        try FileManager.default.createDirectory(at: plyFolder, withIntermediateDirectories: true)
        let cases: [(arguments: [String], message: String)] = [
            (["-o", model, "--detail", "ultra"], "unknown detail level 'ultra'"),
            (["-o", model, "--detail", "custom", "--texture-size", "3000"], "texture size 3000 is not a power of two"),
            (["-o", model, "--detail", "custom", "--texture-size", "32768"], "texture size 32768 is out of range"),
            (["-o", model, "--detail", "custom", "--texture-size", "512"], "texture size 512 is out of range"),
            (["-o", model, "--detail", "custom", "--maps", "diffuse,sparkle"], "unknown texture map 'sparkle'"),
            (["-o", model, "--detail", "custom", "--texture-format", "jpeg", "--jpeg-quality", "1.5"], "quality"),
            (["-o", model, "--texture-size", "2048"], "need --detail custom"),
            (["-o", file.appendingPathComponent("model.usdz").path], "a-file"),
            (["-o", folder.appendingPathComponent("model.stl").path], "unknown model format \".stl\""),
            (["-o", folder.appendingPathComponent("model.fbx").path], "or .ply for the dense mesh alone"),
            (["-o", folder.appendingPathComponent("mesh.ply").path, "--detail", "full"], "apply to a model output"),
            (["-o", folder.appendingPathComponent("mesh.ply").path, "--model-report", "r.json"], "apply to a model output"),
            (["-o", folder.appendingPathComponent("mesh.ply").path, "--hold-out-every", "3"], "apply to a model output"),
            (["-o", model, "--point-cloud", folder.appendingPathComponent("points.txt").path], "--point-cloud must be a .ply file"),
            (["-o", model, "--bounds", folder.appendingPathComponent("bounds.txt").path], "--bounds must be a .json file"),
            // Secondary outputs are checked up front too: a folder where a file goes, and the reverse.
            (["-o", plyFolder.path], "-o \(plyFolder.path) is a folder; give a file name"),
            (["-o", model, "--mesh", plyFolder.path], "--mesh \(plyFolder.path) is a folder"),
            (["-o", model, "--poses-output", file.path], "--poses-output \(file.path) is a file, not a folder"),
            (["-o", model, "--point-cloud", file.appendingPathComponent("p.ply").path], "\(file.path) is a file, not a folder"),
            (["-o", "/proc/model.glb"], "cannot create files in /proc"),
        ]
        // A path that cannot be written is not a usage mistake: exit 1, without the usage lines.
        let pathProblems = Set(cases.suffix(5).map(\.message) + ["a-file"])
        for (arguments, message) in cases {
            let result = try CLIRunner.run(["reconstruct", folder.path] + arguments)
            XCTAssertEqual(result.status, pathProblems.contains(message) ? 1 : 64, "\(arguments): \(result.output)")
            XCTAssertEqual(result.output.contains("Usage:"), !pathProblems.contains(message), "\(arguments): \(result.output)")
            XCTAssertTrue(result.output.contains(message), "\(arguments): \(result.output)")
            XCTAssertFalse(result.output.contains("estimating poses"), "no work starts for \(arguments)")
        }
        // A model's folder that does not exist yet is made, as other outputs' are, once there are
        // photos to work on: here there are none, so it is not made.
        let missing = folder.appendingPathComponent("missing")
        let result = try CLIRunner.run(["reconstruct", folder.path, "-o", missing.appendingPathComponent("model.usdz").path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertFalse(result.output.contains("does not exist"), result.output)
        XCTAssertTrue(result.output.contains("no photos"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "nothing made for a run that cannot start")
    }
}
