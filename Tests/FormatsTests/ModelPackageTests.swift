import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class ModelPackageTests: XCTestCase {
    /// The start of a JPEG file (SOI + APP0 marker): enough for the signature check, not decodable.
    private let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]

    func testConsistentPackageHasNoProblem() {
        XCTAssertNil(ExportFixtures.cubePackage().inconsistency)
    }

    func testProblemsAreNamed() {
        var empty = ExportFixtures.cubePackage()
        empty.mesh = TexturedMesh(positions: [], normals: [], triangles: [], uvs: [], uvTriangles: [])
        XCTAssertEqual(empty.inconsistency, "the mesh has no triangles")

        var twice = ExportFixtures.cubePackage()
        twice.textures.append(twice.textures[0])
        XCTAssertEqual(twice.inconsistency, "more than one baseColor map")

        var wrongSize = ExportFixtures.cubePackage()
        wrongSize.textures[1].width = 16
        XCTAssertEqual(wrongSize.inconsistency, "the normal map's PNG header says 8 × 8, not 16 × 8")

        var notPNG = ExportFixtures.cubePackage()
        notPNG.textures[2].data = jpegHead
        XCTAssertEqual(notPNG.inconsistency, "the occlusion map's bytes are not a PNG file")

        var badScale = ExportFixtures.cubePackage()
        badScale.metersPerUnit = 0
        XCTAssertEqual(badScale.inconsistency, "metersPerUnit is 0.0, not a positive number")

        var notFinite = ExportFixtures.cubePackage()
        notFinite.mesh.positions[2].y = .nan
        XCTAssertEqual(notFinite.inconsistency, "the mesh is inconsistent: a position is not finite")
    }

    func testJPEGMapsKeepTheirFormatInNamesAndMIMETypes() throws {
        var package = ExportFixtures.cubePackage()
        package.textures[0] = EncodedTexture(map: .diffuseColor, data: jpegHead, format: .jpeg, width: 8, height: 8)
        XCTAssertNil(package.inconsistency)
        XCTAssertEqual(package.textures[0].fileName, "baseColor.jpg")
        XCTAssertEqual(try ParsedZip(USDZWriter.data(package)).entries[1].name, "textures/baseColor.jpg")
        XCTAssertTrue(OBJWriter.materialText(package, stem: "m").contains("map_Kd m_baseColor.jpg\n"))
        let glb = try GLBWriter.data(package)
        XCTAssertNotNil(String(decoding: glb, as: UTF8.self).range(of: "\"mimeType\":\"image/jpeg\""))
    }

    func testNamesAreMadeSafeForPrimsAndFiles() throws {
        let package = ExportFixtures.cubePackage(name: "3 small/shoes")
        XCTAssertTrue(try USDZWriter.layerText(package).contains("defaultPrim = \"_3_small_shoes\""))
        let folder = try makeTemporaryDirectory(self)
        XCTAssertEqual(try OBJWriter.write(package, toFolder: folder).last?.lastPathComponent, "3_small_shoes.obj")
    }
}
