import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class PoseExportTests: XCTestCase {
    func testWritesAllExportsAndLeavesNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory(self)
        let output = root.appendingPathComponent("out")
        let written = try PoseExport.writeAll(scene: SyntheticScene.make(), imagesDirectory: root.appendingPathComponent("images"),
                                              to: output)
        let expected = ["poses.json", "colmap/cameras.txt", "colmap/images.txt", "colmap/points3D.txt", "transforms.json"]
        XCTAssertEqual(written.map { $0.path }, expected.map { output.appendingPathComponent($0).path })
        for url in written { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), url.path) }
        let topLevel = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        XCTAssertEqual(topLevel, ["colmap", "poses.json", "transforms.json"])
        let colmap = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("colmap").path).sorted()
        XCTAssertEqual(colmap, ["cameras.txt", "images.txt", "points3D.txt"])
        XCTAssertEqual(try PosesJSONReader.load(output.appendingPathComponent("poses.json")).count, 3)
    }

    func testUnwritableOutputThrowsErrorNamingThePath() throws {
        let root = try makeTemporaryDirectory(self)
        let blocker = root.appendingPathComponent("file-not-dir")
        try Data("x".utf8).write(to: blocker)
        XCTAssertThrowsError(try PoseExport.writeAll(scene: SyntheticScene.make(), imagesDirectory: root,
                                                     to: blocker.appendingPathComponent("out"))) { error in
            XCTAssertTrue(String(describing: error).contains("file-not-dir"), "\(error)")
        }
    }
}
