import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class PLYWriterTests: XCTestCase {
    /// A tetrahedron with normals and colours that survive an 8-bit round trip exactly.
    static let tetrahedron = TriangleMesh(
        positions: [[0, 0, 0], [1.5, 0, 0], [0, -2.25, 0], [0.1, 0.2, 3.000001]],
        triangles: [[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
        colors: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [51.0 / 255, 102.0 / 255, 1]],
        normals: [[0, 0, -1], [1, 0, 0], [0, -1, 0], [0, 0, 1]])

    private func header(_ data: Data) -> [String] {
        let text = String(decoding: data.prefix(600), as: UTF8.self)
        return Array(text.components(separatedBy: "end_header\n")[0].split(separator: "\n").map(String.init))
    }

    func testMeshRoundTripsInBothEncodings() throws {
        let folder = try makeTemporaryDirectory(self)
        for encoding in PLYWriter.Encoding.allCases {
            let url = folder.appendingPathComponent("nested/mesh-\(encoding.rawValue).ply")
            try PLYWriter.write(Self.tetrahedron, to: url, encoding: encoding, comment: "made by\ntests")
            XCTAssertEqual(try PLYReader.readMesh(url), Self.tetrahedron, "\(encoding)")
        }
    }

    func testPointCloudRoundTripsInBothEncodings() throws {
        let folder = try makeTemporaryDirectory(self)
        var random = SplitMix64(seed: 1)
        let positions = (0..<500).map { _ in
            SIMD3<Float>(Float.random(in: -100...100, using: &random), Float.random(in: -1...1, using: &random),
                         Float.random(in: 0...1e-6, using: &random))
        }
        let colors = (0..<500).map { i in SIMD3<Float>(Float(i % 256), Float((3 * i) % 256), 17) / 255 }
        for cloud in [PointCloud(positions: positions), PointCloud(positions: positions, colors: colors)] {
            for encoding in PLYWriter.Encoding.allCases {
                let url = folder.appendingPathComponent("cloud.ply")
                try PLYWriter.write(cloud, to: url, encoding: encoding)
                XCTAssertFalse(header(try Data(contentsOf: url)).contains { $0.hasPrefix("element face") })
                let read = try PLYReader.readPointCloud(url)
                XCTAssertEqual(read.positions, cloud.positions, "\(encoding)")
                XCTAssertEqual(read.colors, cloud.colors, "\(encoding)")
                XCTAssertTrue(read.normals.isEmpty)
            }
        }
    }

    func testHeaderDeclaresTheDocumentedLayout() throws {
        let data = try PLYWriter.data(Self.tetrahedron, comment: "two\nlines")
        XCTAssertEqual(header(data), [
            "ply", "format binary_little_endian 1.0", "comment two lines", "element vertex 4",
            "property float x", "property float y", "property float z",
            "property float nx", "property float ny", "property float nz",
            "property uchar red", "property uchar green", "property uchar blue",
            "element face 4", "property list uchar int vertex_indices",
        ])
        // 4 vertices of 27 bytes, 4 faces of 13 bytes after the header.
        let headerLength = String(decoding: data.prefix(600), as: UTF8.self)
            .components(separatedBy: "end_header\n")[0].utf8.count + "end_header\n".utf8.count
        XCTAssertEqual(data.count - headerLength, 4 * 27 + 4 * 13)
        // First vertex x = 0 and the second's x = 1.5 as little-endian floats.
        let body = Array(data.suffix(from: data.startIndex + headerLength))
        XCTAssertEqual(Array(body[27..<31]), [0x00, 0x00, 0xC0, 0x3F])
        XCTAssertEqual(Array(body[108..<121]), [3, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0])
    }

    func testASCIIBodyHasOneLinePerVertexAndFace() throws {
        var mesh = Self.tetrahedron
        mesh.normals = []
        let text = String(decoding: try PLYWriter.data(mesh, encoding: .ascii), as: UTF8.self)
        let body = text.components(separatedBy: "end_header\n")[1].split(separator: "\n")
        XCTAssertEqual(body.count, 8)
        XCTAssertEqual(body[1], "1.5 0.0 0.0 0 255 0")
        XCTAssertEqual(body[4], "3 0 2 1")
    }

    func testColoursAreClampedAndRounded() throws {
        let cloud = PointCloud(positions: [.zero, .zero], colors: [[-0.5, 0.5, 2], [.nan, 0.999, 0.001]])
        let text = String(decoding: PLYWriter.data(cloud, encoding: .ascii), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("0.0 0.0 0.0 0 128 255\n0.0 0.0 0.0 0 255 0\n"))
    }

    func testATriangleWithAMissingVertexIsAnErrorNamingTheFile() throws {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("bad.ply")
        let mesh = TriangleMesh(positions: [.zero, .zero, .zero], triangles: [[0, 1, 2], [0, 1, 3]])
        XCTAssertThrowsError(try PLYWriter.write(mesh, to: url)) { error in
            let exportError = error as? ModelExportError
            XCTAssertEqual(exportError?.path, url.path)
            XCTAssertTrue(exportError?.problem.contains("triangle 1") ?? false, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }
}
