import Foundation
import ModelExport
import XCTest

final class ModelExporterTests: XCTestCase {
    func testFormatFollowsTheExtensionOrFolder() throws {
        let folder = try makeTemporaryDirectory(self)
        let existing = folder.appendingPathComponent("scan.v2", isDirectory: false)
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
        let cases: [(String, ModelExportFormat)] = [
            ("/x/model.usdz", .usdz), ("/x/MODEL.USDZ", .usdz), ("/x/m.glb", .glb), ("/x/m.obj", .obj),
            ("/x/out", .objFolder), ("/x/out.d/", .objFolder), (existing.path, .objFolder),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(try ModelExporter.format(for: URL(fileURLWithPath: path)), expected, path)
        }
        // A folder's slash after a model extension: which was meant? (It replaced a file model.glb.)
        XCTAssertThrowsError(try ModelExporter.format(for: URL(fileURLWithPath: "/x/model.glb/"))) { error in
            XCTAssertTrue("\(error)".contains("ends in / (a folder) but has the model extension .glb"), "\(error)")
        }
        // An existing folder of that name is not a slash the user typed: it is refused as a folder later.
        let folderNamedGLB = folder.appendingPathComponent("model.glb")
        try FileManager.default.createDirectory(at: folderNamedGLB, withIntermediateDirectories: false)
        XCTAssertEqual(try ModelExporter.format(for: URL(fileURLWithPath: folderNamedGLB.path)), .glb)
        XCTAssertThrowsError(try ModelExporter.validateOutputPath(URL(fileURLWithPath: folderNamedGLB.path))) { error in
            XCTAssertTrue("\(error)".contains("is a folder; a .glb model is a file"), "\(error)")
        }
        XCTAssertNil(ModelExportFormat.usdz.problem(carrying: .all))
        XCTAssertNotNil(ModelExportFormat.glb.problem(carrying: [.diffuseColor, .displacement]))
        XCTAssertNil(ModelExportFormat.glb.problem(carrying: [.diffuseColor, .normal, .roughness, .ambientOcclusion]))
    }

    func testUnknownExtensionIsAnErrorNamingThePath() {
        let url = URL(fileURLWithPath: "/tmp/somewhere/model.fbx")
        XCTAssertThrowsError(try ModelExporter.format(for: url)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/tmp/somewhere/model.fbx: unknown model format \".fbx\""), "\(error)")
        }
        XCTAssertThrowsError(try ModelExporter.write(ExportFixtures.cubePackage(), to: url))
    }

    func testValidationAcceptsWritableLocationsWithoutWritingAnything() throws {
        let folder = try makeTemporaryDirectory(self)
        for name in ["a.usdz", "a.glb", "a.obj", "new-folder", "existing"] {
            if name == "existing" { try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: false) }
            XCTAssertNoThrow(try ModelExporter.validateOutputPath(folder.appendingPathComponent(name)), name)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["existing"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("existing").path), [])
    }

    func testValidationRefusesMissingParentsAndFilesWhereFoldersShouldBe() throws {
        let folder = try makeTemporaryDirectory(self)
        let file = folder.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let modelFolder = folder.appendingPathComponent("model.usdz")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: false)
        let cases: [(URL, String)] = [
            (folder.appendingPathComponent("missing/model.usdz"), "does not exist"),
            (file.appendingPathComponent("model.glb"), "is not a folder"),
            (file, "unknown model format"),
            (modelFolder, "is a folder; a .usdz model is a file"),
        ]
        for (url, problem) in cases {
            XCTAssertThrowsError(try ModelExporter.validateOutputPath(url), url.path) { error in
                XCTAssertTrue("\(error)".hasPrefix(url.path + ":") && "\(error)".contains(problem), "\(error)")
            }
        }
        let plainFile = folder.appendingPathComponent("plain")
        try Data("x".utf8).write(to: plainFile)
        XCTAssertThrowsError(try ModelExporter.validateOutputPath(plainFile)) {
            XCTAssertTrue("\($0)".contains("exists and is not a folder"), "\($0)")
        }
    }

    func testValidationRefusesAReadOnlyFolder() throws {
        guard geteuid() != 0 else { throw XCTSkip("running as root: every folder is writable") }
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        addTeardownBlock { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        XCTAssertThrowsError(try ModelExporter.validateOutputPath(folder.appendingPathComponent("m.usdz"))) {
            XCTAssertTrue("\($0)".contains("is not writable"), "\($0)")
        }
    }

    func testWriteDispatchesOnThePath() throws {
        let folder = try makeTemporaryDirectory(self)
        let package = ExportFixtures.cubePackage()
        XCTAssertEqual(try ModelExporter.write(package, to: folder.appendingPathComponent("m.usdz")).map(\.lastPathComponent), ["m.usdz"])
        XCTAssertEqual(try ModelExporter.write(package, to: folder.appendingPathComponent("m.GLB")).map(\.lastPathComponent), ["m.GLB"])
        XCTAssertEqual(try ModelExporter.write(package, to: folder.appendingPathComponent("m.obj")).last?.lastPathComponent, "m.obj")
        XCTAssertEqual(try ModelExporter.write(package, to: folder.appendingPathComponent("dir")).last?.path,
                       folder.appendingPathComponent("dir/Cube.obj").path)
        XCTAssertEqual(Array(try Data(contentsOf: folder.appendingPathComponent("m.usdz"))), try USDZWriter.data(package))
        XCTAssertEqual(Array(try Data(contentsOf: folder.appendingPathComponent("m.GLB"))), try GLBWriter.data(package))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("m_baseColor.png").path))
    }
}
