import Foundation
import ModelExport
import ReconstructionCore
import TestSupport
import XCTest

final class USDZWriterTests: XCTestCase {
    /// The text between `[` and the matching `]` after `prefix` in `text`, split on ", " outside parentheses.
    private func array(_ prefix: String, in text: String) throws -> [String] {
        let start = try XCTUnwrap(text.range(of: prefix), "no \(prefix)").upperBound
        let body = text[start...].prefix { $0 != "]" }
        var items: [String] = [], depth = 0, current = ""
        for c in body {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1 }
            if c == ",", depth == 0 {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { items.append(current.trimmingCharacters(in: .whitespaces)) }
        return items
    }

    private func tuple(_ text: String) -> [Float] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "()")).split(separator: ",").map {
            Float($0.trimmingCharacters(in: .whitespaces))!
        }
    }

    func testLayerHasOneFaceCountPerTriangleAndOneIndexPerCorner() throws {
        let package = ExportFixtures.cubePackage()
        let text = try USDZWriter.layerText(package)
        XCTAssertEqual(try array("int[] faceVertexCounts = [", in: text), Array(repeating: "3", count: 12))
        let indices = try array("int[] faceVertexIndices = [", in: text).map { UInt32($0)! }
        XCTAssertEqual(indices, package.mesh.triangles.flatMap { [$0.x, $0.y, $0.z] })
        XCTAssertEqual(try array("point3f[] points = [", in: text).count, 8)
        XCTAssertEqual(try array("normal3f[] normals = [", in: text).count, 8)
        let stIndices = try array("int[] primvars:st:indices = [", in: text).map { UInt32($0)! }
        XCTAssertEqual(stIndices, package.mesh.uvTriangles.flatMap { [$0.x, $0.y, $0.z] })
        XCTAssertTrue(text.contains("texCoord2f[] primvars:st = [") && text.contains("interpolation = \"faceVarying\""))
        XCTAssertTrue(text.contains("uniform token subdivisionScheme = \"none\""))
        XCTAssertTrue(text.contains("uniform bool doubleSided = 0"))
        XCTAssertTrue(text.contains("upAxis = \"Y\"") && text.contains("defaultPrim = \"Cube\"") && text.contains("metersPerUnit = 1\n"))
    }

    func testSTIsUAndOneMinusV() throws {
        let mesh = ExportFixtures.cube
        let st = try array("texCoord2f[] primvars:st = [", in: USDZWriter.layerText(ModelPackage(mesh: mesh))).map(tuple)
        XCTAssertEqual(st, mesh.uvs.map { [$0.x, 1 - $0.y] })
    }

    func testExtentIsThePointsBoundsAndNumbersReadBackExactly() throws {
        let mesh = ExportFixtures.grid(triangles: 2000)
        let text = try USDZWriter.layerText(ModelPackage(mesh: mesh))
        let points = try array("point3f[] points = [", in: text).map(tuple)
        XCTAssertEqual(points, mesh.positions.map { [$0.x, $0.y, $0.z] }, "shortest round-trip text")
        let extent = try array("float3[] extent = [", in: text).map(tuple)
        let bounds = try XCTUnwrap(mesh.bounds)
        XCTAssertEqual(extent, [[bounds.min.x, bounds.min.y, bounds.min.z], [bounds.max.x, bounds.max.y, bounds.max.z]])
    }

    func testMaterialReadsEachMapWithItsColourSpaceAndChannel() throws {
        let text = try USDZWriter.layerText(ExportFixtures.cubePackage())
        func shader(_ name: String) throws -> String {
            let start = try XCTUnwrap(text.range(of: "def Shader \"\(name)\"")).upperBound
            return String(text[start...].prefix { $0 != "}" })
        }
        XCTAssertTrue(try shader("BaseColor").contains("sourceColorSpace = \"sRGB\""))
        XCTAssertTrue(try shader("BaseColor").contains("@textures/baseColor.png@"))
        let normal = try shader("Normal")
        XCTAssertTrue(normal.contains("sourceColorSpace = \"raw\"") && normal.contains("float4 inputs:scale = (2, 2, 2, 1)")
                      && normal.contains("float4 inputs:bias = (-1, -1, -1, 0)"))
        for name in ["Occlusion", "Roughness", "Displacement"] {
            XCTAssertTrue(try shader(name).contains("sourceColorSpace = \"raw\""), name)
            XCTAssertTrue(try shader(name).contains("float outputs:r"), name)
        }
        // 2 mm over 0…1: value 0.5 is the surface, 0…1 spans −1 mm…+1 mm.
        XCTAssertTrue(try shader("Displacement").contains("float4 inputs:scale = (0.002, 0.002, 0.002, 1)"))
        XCTAssertTrue(try shader("Displacement").contains("float4 inputs:bias = (-0.001, -0.001, -0.001, 0)"))
        let surface = try shader("Surface")
        XCTAssertTrue(surface.contains("float inputs:occlusion.connect = </Cube/Materials/Material/Occlusion.outputs:r>"))
        XCTAssertTrue(surface.contains("float inputs:metallic = 0"))

        var untextured = ExportFixtures.cubePackage()
        untextured.textures.removeAll { $0.map == .roughness }
        untextured.roughness = 0.25
        XCTAssertTrue(try USDZWriter.layerText(untextured).contains("float inputs:roughness = 0.25\n"))
    }

    func testPackageHoldsTheRootLayerFirstThenTheTexturesUnchanged() throws {
        let package = ExportFixtures.cubePackage()
        let zip = try ParsedZip(USDZWriter.data(package))
        XCTAssertEqual(zip.entries.map(\.name), ["model.usda", "textures/baseColor.png", "textures/normal.png",
                                                 "textures/occlusion.png", "textures/roughness.png", "textures/displacement.png"])
        XCTAssertTrue(zip.entries.allSatisfy { $0.dataOffset % 64 == 0 && $0.method == 0 })
        XCTAssertEqual(zip.data("textures/normal.png"), package.texture(.normal)?.data)
        XCTAssertEqual(zip.data("model.usda").map { String(decoding: $0, as: UTF8.self) }, try USDZWriter.layerText(package))
    }

    func testEqualPackagesGiveIdenticalFiles() throws {
        let folder = try makeTemporaryDirectory(self)
        let a = folder.appendingPathComponent("a.usdz"), b = folder.appendingPathComponent("sub/b.usdz")
        try USDZWriter.write(ExportFixtures.cubePackage(), to: a)
        try USDZWriter.write(ExportFixtures.cubePackage(), to: b)
        XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b))
    }

    func testInconsistentPackageIsRefusedNamingTheFile() throws {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("bad.usdz")
        var package = ExportFixtures.cubePackage()
        package.mesh.uvTriangles[3].y = 99
        XCTAssertThrowsError(try USDZWriter.write(package, to: url)) { error in
            XCTAssertTrue("\(error)".hasPrefix(url.path), "\(error)")
            XCTAssertTrue("\(error)".contains("UV triangle 3"), "\(error)")
        }
        var jpegInDisguise = ExportFixtures.cubePackage()
        jpegInDisguise.textures[0].format = .jpeg
        XCTAssertThrowsError(try USDZWriter.write(jpegInDisguise, to: url)) {
            XCTAssertTrue("\($0)".contains("not a JPEG file"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    func testCubePassesTheUSDZCheckerWithAllMapsMetricOrNot() throws {
        let checker = try PythonTool.usdzCheckScript()
        try PythonTool.requireModule("pxr", pipPackage: "usd-core")
        for isMetric in [true, false] {
            var package = ExportFixtures.cubePackage()
            package.isMetric = isMetric
            let url = try makeTemporaryDirectory(self).appendingPathComponent("cube.usdz")
            try USDZWriter.write(package, to: url)
            let result = try PythonTool.run(file: checker, [url.path])
            print(result.output)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("\"triangles\": 12"), result.output)
        }
    }

    /// Photos alone give no scale: the layer still needs a `metersPerUnit`, and its `doc` says the
    /// unit is not a metre.
    func testAnUnknownScaleIsSaidInTheLayer() throws {
        var package = ExportFixtures.cubePackage()
        XCTAssertFalse(try USDZWriter.layerText(package).contains("doc = "))
        package.isMetric = false
        let text = try USDZWriter.layerText(package)
        XCTAssertTrue(text.contains("metersPerUnit = 1\n"))
        XCTAssertTrue(text.contains("    doc = \"scale unknown: 1 unit is the reconstruction's own unit, not a metre"), text.prefix(300).description)
    }

    /// A full-level mesh makes one whole archive. Its time is printed, not asserted: speed is
    /// measured by `Scripts/benchmark/models.sh`, whose runs include the export.
    func testQuarterMillionTrianglesMakeOneWholeArchive() throws {
        let mesh = ExportFixtures.grid(triangles: 250_000)
        let start = Date()
        let bytes = try USDZWriter.data(ModelPackage(mesh: mesh))
        print("USDZ of \(mesh.triangleCount) triangles: \(bytes.count) bytes in \(Date().timeIntervalSince(start)) s")
        let entries = try ParsedZip(bytes).entries
        XCTAssertEqual(entries.count, 1)
        XCTAssertGreaterThan(bytes.count, 250_000 * 3 * 4, "at least one index per corner")
    }
}
