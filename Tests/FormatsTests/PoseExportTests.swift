import CaptureIO
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
        let expected = ["poses.json", "colmap/cameras.txt", "colmap/images.txt", "colmap/points3D.txt", "sparse_pc.ply", "transforms.json"]
        XCTAssertEqual(written.map { $0.path }, expected.map { output.appendingPathComponent($0).path })
        for url in written { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), url.path) }
        let topLevel = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        XCTAssertEqual(topLevel, ["colmap", "poses.json", "sparse_pc.ply", "transforms.json"])
        let colmap = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("colmap").path).sorted()
        XCTAssertEqual(colmap, ["cameras.txt", "images.txt", "points3D.txt"])
        XCTAssertEqual(try PosesJSONReader.load(output.appendingPathComponent("poses.json")).count, 3)
        // transforms.json names the sparse points, which are the scene's, coloured, in its frame.
        let transforms = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("transforms.json"))) as? [String: Any]
        XCTAssertEqual(transforms?["ply_file_path"] as? String, "sparse_pc.ply")
        let scene = SyntheticScene.make()
        let cloud = try PLYReader.readPointCloud(output.appendingPathComponent("sparse_pc.ply"))
        XCTAssertEqual(cloud.count, scene.points.count)
        for (read, point) in zip(cloud.positions, scene.points) {
            XCTAssertEqual(Double(read.x), point.position.x, accuracy: 1e-5)
            XCTAssertEqual(Double(read.z), point.position.z, accuracy: 1e-5)
        }
        XCTAssertEqual(cloud.colors.first.map { $0 * 255 }?.x ?? -1, Float(scene.points[0].rgb.0), accuracy: 0.01)
    }

    func testNamesWithSpacesAreAWarningForCOLMAP() throws {
        var scene = SyntheticScene.make()
        XCTAssertEqual(PoseExport.warnings(scene: scene), [])
        scene.images[0].name = "my photo 2.jpg"
        let warnings = PoseExport.warnings(scene: scene)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("1 photo name(s) contain spaces (\"my photo 2.jpg\"), which COLMAP's images.txt cannot hold"),
                      warnings[0])
        XCTAssertFalse(warnings[0].contains("cannot tell them apart"), warnings[0])
        // Names that COLMAP reads as one: the warning says so.
        let second = try XCTUnwrap(scene.images.indices.dropFirst().first { scene.images[$0].isRegistered })
        scene.images[second].name = "my photo 3.jpg"
        let clash = PoseExport.warnings(scene: scene)[0]
        XCTAssertTrue(clash.contains("Here 2 photos share what COLMAP reads (2 read as \"my\"), so COLMAP cannot tell them apart."), clash)
    }

    /// A run's warnings stay with its poses (a pipeline may read poses.json alone); none, no key.
    func testTheRunsWarningsAreKeptInPosesJSON() throws {
        let root = try makeTemporaryDirectory(self)
        func warnings(_ given: [String]) throws -> Any? {
            let output = root.appendingPathComponent(UUID().uuidString)
            try PoseExport.writeAll(scene: SyntheticScene.make(), imagesDirectory: root, to: output, warnings: given)
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("poses.json"))) as? [String: Any]
            return document?["warnings"]
        }
        XCTAssertEqual(try warnings(["K seems to be for photos 2× as large"]) as? [String], ["K seems to be for photos 2× as large"])
        XCTAssertNil(try warnings([]))
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
        XCTAssertEqual(written.count, 6)
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
