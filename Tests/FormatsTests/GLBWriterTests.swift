import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class GLBWriterTests: XCTestCase {
    /// A GLB split into its JSON (parsed) and BIN chunk, after checking the container layout.
    private struct GLB {
        var json: [String: Any]
        var jsonBytes: Data
        var bin: [UInt8]

        init(_ bytes: [UInt8]) throws {
            XCTAssertEqual(Array(bytes[0..<4]), Array("glTF".utf8))
            XCTAssertEqual(bytes.u32(4), 2)
            XCTAssertEqual(bytes.u32(8), bytes.count, "header length is the file length")
            let jsonLength = bytes.u32(12)
            XCTAssertEqual(Array(bytes[16..<20]), Array("JSON".utf8))
            XCTAssertEqual(jsonLength % 4, 0)
            let binStart = 20 + jsonLength
            XCTAssertEqual(bytes.u32(binStart) % 4, 0)
            XCTAssertEqual(Array(bytes[binStart + 4..<binStart + 8]), [0x42, 0x49, 0x4E, 0])
            XCTAssertEqual(binStart + 8 + bytes.u32(binStart), bytes.count)
            jsonBytes = Data(bytes[20..<binStart])
            json = try XCTUnwrap(JSONSerialization.jsonObject(with: jsonBytes) as? [String: Any])
            bin = Array(bytes[(binStart + 8)...])
        }

        func array(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }

        /// The floats or uint32s of accessor `index`.
        func accessorWords(_ index: Int) -> [UInt32] {
            let accessor = array("accessors")[index]
            let view = array("bufferViews")[accessor["bufferView"] as! Int]
            let offset = view["byteOffset"] as! Int, length = view["byteLength"] as! Int
            return stride(from: offset, to: offset + length, by: 4).map { UInt32(bin.u32($0)) }
        }

        func floats(_ index: Int) -> [Float] { accessorWords(index).map(Float.init(bitPattern:)) }
    }

    func testContainerChunksArePaddedToFourBytesAndDescribeTheWholeFile() throws {
        let glb = try GLB(GLBWriter.data(ExportFixtures.cubePackage()))
        XCTAssertEqual((glb.json["asset"] as? [String: Any])?["version"] as? String, "2.0")
        XCTAssertEqual(glb.array("buffers").first?["byteLength"] as? Int, glb.bin.count)
        XCTAssertNil(glb.array("buffers").first?["uri"])
        for view in glb.array("bufferViews") {
            let offset = view["byteOffset"] as! Int
            XCTAssertEqual(offset % 4, 0)
            XCTAssertLessThanOrEqual(offset + (view["byteLength"] as! Int), glb.bin.count)
        }
        XCTAssertEqual(glb.json["scene"] as? Int, 0)
        XCTAssertEqual(glb.array("nodes").count, 1)
    }

    func testSeamsAreSplitIntoOneVertexPerPositionAndUVPair() throws {
        let mesh = ExportFixtures.cube
        let glb = try GLB(GLBWriter.data(ExportFixtures.cubePackage()))
        let primitive = try XCTUnwrap((glb.array("meshes").first?["primitives"] as? [[String: Any]])?.first)
        let attributes = try XCTUnwrap(primitive["attributes"] as? [String: Int])
        let accessors = glb.array("accessors")
        let (p, n, t, i) = (attributes["POSITION"]!, attributes["NORMAL"]!, attributes["TEXCOORD_0"]!, primitive["indices"] as! Int)
        XCTAssertEqual(accessors[p]["count"] as? Int, 18, "the 18 atlas corners, each on one position")
        XCTAssertEqual(accessors[i]["componentType"] as? Int, 5125)
        let positions = glb.floats(p), normals = glb.floats(n), uvs = glb.floats(t), indices = glb.accessorWords(i)
        XCTAssertEqual(indices.count, 36)
        let corners = zip(mesh.triangles, mesh.uvTriangles).flatMap { tri, uvTri in (0..<3).map { (tri[$0], uvTri[$0]) } }
        for (k, (position, uv)) in corners.enumerated() {
            let v = Int(indices[k])
            XCTAssertEqual(Array(positions[3 * v..<3 * v + 3]), [mesh.positions[Int(position)].x, mesh.positions[Int(position)].y, mesh.positions[Int(position)].z])
            XCTAssertEqual(Array(normals[3 * v..<3 * v + 3]), [mesh.normals[Int(position)].x, mesh.normals[Int(position)].y, mesh.normals[Int(position)].z])
            XCTAssertEqual(Array(uvs[2 * v..<2 * v + 2]), [mesh.uvs[Int(uv)].x, mesh.uvs[Int(uv)].y], "glTF's v runs down like ours: no flip")
        }
    }

    func testPositionMinAndMaxAreTheWrittenVerticesBounds() throws {
        var mesh = ExportFixtures.grid(triangles: 500)
        mesh.positions.append(SIMD3(100, 100, 100))  // unused by any triangle: not written, not in the bounds
        mesh.normals.append(SIMD3(0, 1, 0))
        let glb = try GLB(GLBWriter.data(ModelPackage(mesh: mesh)))
        // JSONDecoder, not JSONSerialization: the latter misreads the last digit of some doubles on Linux.
        struct Document: Decodable {
            struct Accessor: Decodable { var min: [Double]?, max: [Double]? }
            var accessors: [Accessor]
        }
        let position = try JSONDecoder().decode(Document.self, from: glb.jsonBytes).accessors[0]
        let values = glb.floats(0)
        for axis in 0..<3 {
            let column = stride(from: axis, to: values.count, by: 3).map { Double(values[$0]) }
            XCTAssertEqual(position.min?[axis], column.min(), "exactly the float32 value")
            XCTAssertEqual(position.max?[axis], column.max(), "exactly the float32 value")
        }
    }

    func testRoughnessMapIsTheMetallicRoughnessTextureWithMetallicCancelled() throws {
        let glb = try GLB(GLBWriter.data(ExportFixtures.cubePackage()))
        let images = glb.array("images")
        XCTAssertEqual(images.map { $0["name"] as? String }, ["baseColor", "normal", "occlusion", "roughness"],
                       "no displacement in core glTF")
        XCTAssertTrue(images.allSatisfy { $0["mimeType"] as? String == "image/png" && $0["bufferView"] is Int })
        let material = try XCTUnwrap(glb.array("materials").first)
        let pbr = try XCTUnwrap(material["pbrMetallicRoughness"] as? [String: Any])
        XCTAssertEqual(pbr["metallicFactor"] as? Double, 0)
        XCTAssertEqual(pbr["roughnessFactor"] as? Double, 1)
        let textures = glb.array("textures")
        func image(_ reference: Any?) -> String? {
            guard let index = (reference as? [String: Any])?["index"] as? Int else { return nil }
            return images[textures[index]["source"] as! Int]["name"] as? String
        }
        XCTAssertEqual(image(pbr["baseColorTexture"]), "baseColor")
        XCTAssertEqual(image(pbr["metallicRoughnessTexture"]), "roughness")
        XCTAssertEqual(image(material["normalTexture"]), "normal")
        XCTAssertEqual(image(material["occlusionTexture"]), "occlusion")
        let view = glb.array("bufferViews")[images[0]["bufferView"] as! Int]
        let offset = view["byteOffset"] as! Int
        XCTAssertEqual(Array(glb.bin[offset..<offset + (view["byteLength"] as! Int)]),
                       ExportFixtures.cubePackage().texture(.diffuseColor)?.data)

        var plain = ExportFixtures.cubePackage()
        plain.textures.removeAll { $0.map == .roughness }
        plain.roughness = 0.7
        let plainPBR = try GLB(GLBWriter.data(plain)).array("materials").first?["pbrMetallicRoughness"] as? [String: Any]
        XCTAssertEqual(plainPBR?["roughnessFactor"] as? Double, 0.7)
        XCTAssertNil(plainPBR?["metallicRoughnessTexture"])
    }

    func testUntexturedModelHasNoEmptyArrays() throws {
        let glb = try GLB(GLBWriter.data(ModelPackage(mesh: ExportFixtures.cube)))
        XCTAssertNil(glb.json["images"])
        XCTAssertNil(glb.json["textures"])
        XCTAssertNil(glb.json["samplers"])
    }

    func testNonMetricUnitsScaleTheNodeToMetres() throws {
        var package = ExportFixtures.cubePackage()
        XCTAssertNil(try GLB(GLBWriter.data(package)).array("nodes")[0]["scale"])
        package.metersPerUnit = 0.25
        XCTAssertEqual(try GLB(GLBWriter.data(package)).array("nodes")[0]["scale"] as? [Double], [0.25, 0.25, 0.25])
    }

    func testAnUnknownScaleIsSaidInTheAssetsExtras() throws {
        var package = ExportFixtures.cubePackage()
        XCTAssertNil((try GLB(GLBWriter.data(package)).json["asset"] as? [String: Any])?["extras"])
        package.isMetric = false
        let asset = try XCTUnwrap(try GLB(GLBWriter.data(package)).json["asset"] as? [String: Any])
        XCTAssertEqual(asset["version"] as? String, "2.0")
        XCTAssertTrue(((asset["extras"] as? [String: String])?["scale"] ?? "").hasPrefix("scale unknown"), "\(asset)")
    }

    func testEqualPackagesGiveIdenticalBytes() throws {
        XCTAssertEqual(try GLBWriter.data(ExportFixtures.cubePackage()), try GLBWriter.data(ExportFixtures.cubePackage()))
    }

    func testTrimeshLoadsTheCubeWithItsBaseColourTexture() throws {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("cube.glb")
        try GLBWriter.write(ExportFixtures.cubePackage(), to: url)
        let view = try TrimeshView.load(url, kind: "glb")
        XCTAssertEqual(view.faces, 12)
        XCTAssertEqual(view.image, [8, 8], "baseColorTexture must be attached")
        XCTAssertEqual(view.uvCount, 18)
        XCTAssertEqual(view.boundsMin, [-0.5, 0, -0.5])
        XCTAssertEqual(view.boundsMax, [0.5, 1, 0.5])
    }
}
