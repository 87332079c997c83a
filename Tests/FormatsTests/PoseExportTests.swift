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

    func testNamesWithSpacesAreAWarningForCOLMAP() {
        var scene = SyntheticScene.make()
        XCTAssertEqual(PoseExport.warnings(scene: scene), [])
        scene.images[0].name = "my photo 2.jpg"
        let warnings = PoseExport.warnings(scene: scene)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("1 photo name(s) contain spaces (\"my photo 2.jpg\"), which COLMAP's images.txt cannot hold"),
                      warnings[0])
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

    func testSeparateModelsGoToNumberedFoldersReplacingAnEarlierRunsModels() throws {
        let root = try makeTemporaryDirectory(self)
        let output = root.appendingPathComponent("out")
        let images = root.appendingPathComponent("images")
        // An earlier run left two separate models; this one has one.
        let stale = output.appendingPathComponent("models/2")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: stale.appendingPathComponent("poses.json"))
        let written = try PoseExport.writeSeparateModels([SyntheticScene.make()], imagesDirectory: images, to: output)
        let model = output.appendingPathComponent("models/1")
        XCTAssertEqual(written.first?.path, model.appendingPathComponent("poses.json").path)
        XCTAssertEqual(written.count, 5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("models").path), ["1"],
                       "the earlier run's model 2 is gone")
        XCTAssertEqual(try PosesJSONReader.load(model.appendingPathComponent("poses.json")).count, 3)
        let transforms = try String(contentsOf: model.appendingPathComponent("transforms.json"), encoding: .utf8)
        XCTAssertTrue(transforms.contains("../../images/"), "frame paths are relative to the model's own folder")
    }

    func testAModelsFolderWithOtherFilesIsLeftAloneAndNamed() throws {
        let root = try makeTemporaryDirectory(self)
        let output = root.appendingPathComponent("out")
        let folder = output.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: notes)
        XCTAssertThrowsError(try PoseExport.writeSeparateModels([SyntheticScene.make()], imagesDirectory: root, to: output)) { error in
            XCTAssertTrue(String(describing: error).contains(folder.path), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: notes.path), "nothing of the user's is removed")
        // With no separate model to write, such a folder is no obstacle, and still untouched.
        XCTAssertNoThrow(try PoseExport.writeSeparateModels([], imagesDirectory: root, to: output))
        XCTAssertTrue(FileManager.default.fileExists(atPath: notes.path))
    }
}
