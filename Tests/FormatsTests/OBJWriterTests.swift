import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class OBJWriterTests: XCTestCase {
    private func lines(_ text: String, _ keyword: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.first == keyword }
    }

    func testOBJListsPositionsUVsWithVFlippedNormalsAndCornerTriples() {
        let package = ExportFixtures.cubePackage()
        let mesh = package.mesh
        let text = OBJWriter.objText(package, materialLibrary: "Cube.mtl")
        XCTAssertEqual(lines(text, "mtllib"), [["mtllib", "Cube.mtl"]])
        XCTAssertEqual(lines(text, "v").map { $0.dropFirst().map { Float($0)! } }, mesh.positions.map { [$0.x, $0.y, $0.z] })
        XCTAssertEqual(lines(text, "vt").map { $0.dropFirst().map { Float($0)! } }, mesh.uvs.map { [$0.x, 1 - $0.y] })
        XCTAssertEqual(lines(text, "vn").map { $0.dropFirst().map { Float($0)! } }, mesh.normals.map { [$0.x, $0.y, $0.z] })
        let faces = lines(text, "f")
        XCTAssertEqual(faces.count, 12)
        for (f, (t, uvt)) in zip(faces, zip(mesh.triangles, mesh.uvTriangles)) {
            XCTAssertEqual(f.dropFirst().map { $0 }, (0..<3).map { "\(t[$0] + 1)/\(uvt[$0] + 1)/\(t[$0] + 1)" })
        }
        XCTAssertEqual(lines(text, "usemtl").count, 1)
    }

    func testTheHeaderGivesTheUnitInMetresOrSaysTheScaleIsUnknown() {
        var package = ExportFixtures.cubePackage()
        XCTAssertTrue(OBJWriter.objText(package, materialLibrary: "Cube.mtl").hasPrefix("# Cube: 12 triangles, Y up, 1 unit = 1 m\n"))
        package.isMetric = false
        let header = OBJWriter.objText(package, materialLibrary: "Cube.mtl").prefix { $0 != "\n" }
        XCTAssertEqual(header, "# Cube: 12 triangles, Y up, scale unknown: 1 unit is the reconstruction's own unit, not a metre (no metric input)")
    }

    func testMaterialNamesEveryMapFile() {
        var package = ExportFixtures.cubePackage()
        let mtl = OBJWriter.materialText(package, stem: "Cube")
        for expected in ["map_Kd Cube_baseColor.png", "norm Cube_normal.png", "map_Bump -bm 1 Cube_normal.png",
                         "map_Pr Cube_roughness.png", "disp Cube_displacement.png", "Pm 0", "newmtl material0"] {
            XCTAssertTrue(mtl.contains(expected + "\n"), expected)
        }
        XCTAssertTrue(mtl.contains("Cube_occlusion.png"))
        package.textures.removeAll { $0.map == .roughness }
        package.roughness = 0.5
        XCTAssertTrue(OBJWriter.materialText(package, stem: "Cube").contains("Pr 0.5\n"))
    }

    func testFolderHoldsOBJMTLAndTexturesNamedAfterTheModel() throws {
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("out", isDirectory: true)
        let package = ExportFixtures.cubePackage(name: "My Cube")
        let written = try OBJWriter.write(package, toFolder: folder)
        XCTAssertEqual(written.last?.lastPathComponent, "My_Cube.obj")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, ["My_Cube.mtl", "My_Cube.obj", "My_Cube_baseColor.png", "My_Cube_displacement.png",
                               "My_Cube_normal.png", "My_Cube_occlusion.png", "My_Cube_roughness.png"])
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("My_Cube_normal.png")),
                       Data(package.texture(.normal)!.data))
    }

    /// Writing again into the same folder leaves one model: maps the new one lacks are removed,
    /// files that are not the model's stay.
    func testAModelWrittenAgainLeavesNoMapsOfTheEarlierOne() throws {
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("out", isDirectory: true)
        try OBJWriter.write(ExportFixtures.cubePackage(name: "Cube"), toFolder: folder)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        var smaller = ExportFixtures.cubePackage(name: "Cube")
        smaller.textures.removeAll { $0.map == .roughness || $0.map == .displacement }
        smaller.roughness = 0.5
        try OBJWriter.write(smaller, toFolder: folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["Cube.mtl", "Cube.obj", "Cube_baseColor.png", "Cube_normal.png", "Cube_occlusion.png", "notes.txt"])
    }

    /// A write that fails part way removes what it wrote: no OBJ folder with some of its maps.
    func testAFailedWriteLeavesNoPartOfTheModel() throws {
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("out", isDirectory: true)
        // A folder where the occlusion map should go makes that write fail after the first maps.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Cube_occlusion.png/x"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try OBJWriter.write(ExportFixtures.cubePackage(name: "Cube"), toFolder: folder))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Cube_occlusion.png"])
    }

    func testAnExistingFileWhereTheFolderShouldBeIsRefused() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try OBJWriter.write(ExportFixtures.cubePackage(), toFolder: file)) {
            XCTAssertTrue("\($0)".hasPrefix(file.path) && "\($0)".contains("not a folder"), "\($0)")
        }
    }

    func testTrimeshLoadsTheCubeWithItsBaseColourImage() throws {
        let folder = try makeTemporaryDirectory(self)
        let obj = try XCTUnwrap(OBJWriter.write(ExportFixtures.cubePackage(), toFolder: folder).last)
        let view = try TrimeshView.load(obj, kind: "obj")
        XCTAssertEqual(view.faces, 12)
        XCTAssertEqual(view.image, [8, 8], "map_Kd must load as the material's image")
        XCTAssertEqual(view.boundsMin, [-0.5, 0, -0.5])
        XCTAssertEqual(view.boundsMax, [0.5, 1, 0.5])
    }
}
