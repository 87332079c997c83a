import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class PLYReaderTests: XCTestCase {
    private let plyFile = URL(fileURLWithPath: "/data/scan.ply")

    private func parse(_ text: String) throws -> TriangleMesh {
        try PLYReader.parse(Data(text.utf8), file: plyFile)
    }

    /// Asserts that parsing fails with a `CaptureIOError` naming the file and containing `words`.
    private func assertRejected(_ data: Data, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try PLYReader.parse(data, file: plyFile), file: file, line: line) { error in
            guard let ioError = error as? CaptureIOError else {
                return XCTFail("not a CaptureIOError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(ioError.path, plyFile.path, file: file, line: line)
            XCTAssertTrue(ioError.problem.contains(words), "\(ioError.problem)", file: file, line: line)
        }
    }

    private func assertRejected(_ text: String, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        assertRejected(Data(text.utf8), words, file: file, line: line)
    }

    func testHandWrittenASCIIFileWithAQuadAndComments() throws {
        let text = """
            ply\r
            format ascii 1.0\r
            comment written by hand\r
            obj_info scanner XYZ\r
            element vertex 5\r
            property float x\r
            property float y\r
            property float z\r
            property uchar red\r
            property uchar green\r
            property uchar blue\r
            element face 2\r
            property list uchar int vertex_indices\r
            end_header\r
            0 0 0 255 0 0\r
            1 0 0 0 255 0\r
            1 1 0 0 0 255\r
            0 1 0 255 255 255\r
            0.5 0.5 1e0 0 0 0\r
            4 0 1 2 3\r
            3   0 1     4\r

            """
        let mesh = try parse(text)
        XCTAssertEqual(mesh.positions, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]])
        XCTAssertEqual(mesh.colors[0], [1, 0, 0])
        XCTAssertEqual(mesh.colors[3], [1, 1, 1])
        XCTAssertTrue(mesh.normals.isEmpty)
        // The quad becomes the fan (0, 1, 2), (0, 2, 3).
        XCTAssertEqual(mesh.triangles, [[0, 1, 2], [0, 2, 3], [0, 1, 4]])
    }

    func testExtraPropertiesAndElementsAreSkippedInEveryEncoding() throws {
        // Vertex: double x, float intensity, double y, float z, uchar alpha, a list of floats,
        // float nx ny nz, ushort red green blue. Then an "edge" element, then faces with flags
        // before and a texture-coordinate list after the indices (ushort count, uint indices).
        let vertices: [(x: Double, y: Double, z: Float)] = [(1.25, -2, 3), (4, 5.5, -6), (7, 8, 9.75), (0, 0, 1)]
        let header = """
            ply
            format FORMAT 1.0
            element vertex 4
            property double x
            property float intensity
            property double y
            property float z
            property uchar alpha
            property list uchar float extras
            property float nx
            property float ny
            property float nz
            property ushort red
            property ushort green
            property ushort blue
            element edge 2
            property int vertex1
            property int vertex2
            element face 2
            property uchar flags
            property list ushort uint vertex_indices
            property list uchar float texcoord
            end_header

            """
        func encode(_ format: String) -> Data {
            var writer = PLYTestWriter(format: format)
            var data = Data(header.replacingOccurrences(of: "FORMAT", with: format).utf8)
            for (i, v) in vertices.enumerated() {
                writer.double(v.x); writer.float(0.5); writer.double(v.y); writer.float(v.z); writer.uint8(200)
                writer.uint8(UInt8(i)); for k in 0..<i { writer.float(Float(k)) }
                writer.float(0); writer.float(1); writer.float(0)
                writer.uint16(65535); writer.uint16(0); writer.uint16(UInt16(i * 13107))
                writer.endLine()
            }
            for _ in 0..<2 { writer.int32(0); writer.int32(1); writer.endLine() }
            writer.uint8(1); writer.uint16(3); for v in [0, 1, 2] as [UInt32] { writer.uint32(v) }
            writer.uint8(2); writer.float(0.25); writer.float(0.75); writer.endLine()
            writer.uint8(0); writer.uint16(3); for v in [0, 2, 3] as [UInt32] { writer.uint32(v) }
            writer.uint8(0); writer.endLine()
            data.append(writer.body)
            return data
        }
        for format in ["ascii", "binary_little_endian", "binary_big_endian"] {
            let mesh = try PLYReader.parse(encode(format), file: plyFile)
            XCTAssertEqual(mesh.positions, vertices.map { SIMD3(Float($0.x), Float($0.y), $0.z) }, format)
            XCTAssertEqual(mesh.normals, Array(repeating: [0, 1, 0], count: 4), format)
            XCTAssertEqual(mesh.colors.map(\.x), [1, 1, 1, 1], format)
            XCTAssertEqual(mesh.colors.map(\.z), [0, 0.2, 0.4, 0.6], format)
            XCTAssertEqual(mesh.triangles, [[0, 1, 2], [0, 2, 3]], format)
        }
    }

    func testFloatColoursAndVertexIndexNameAreAccepted() throws {
        let mesh = try parse("""
            ply
            format ascii 1.0
            element vertex 3
            property float32 x
            property float32 y
            property float32 z
            property float diffuse_red
            property float diffuse_green
            property float diffuse_blue
            element face 1
            property list uint8 int32 vertex_index
            end_header
            0 0 0 0.25 0.5 1
            1 0 0 0 0 0
            0 1 0 1 1 1
            3 2 1 0
            """)
        XCTAssertEqual(mesh.colors[0], [0.25, 0.5, 1])
        XCTAssertEqual(mesh.triangles, [[2, 1, 0]])
    }

    func testAPointCloudWithoutFacesReadsAsPoints() throws {
        let cloud = try PLYReader.readPointCloud(try write("""
            ply
            format ascii 1.0
            element vertex 2
            property float x
            property float y
            property float z
            property float nx
            property float ny
            end_header
            1 2 3 0 1
            4 5 6 1 0
            """))
        XCTAssertEqual(cloud.positions, [[1, 2, 3], [4, 5, 6]])
        XCTAssertTrue(cloud.normals.isEmpty, "nz is missing, so no normals")
    }

    private func write(_ text: String) throws -> URL {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("cloud.ply")
        try Data(text.utf8).write(to: url)
        return url
    }

    func testAMissingFileIsAnErrorNamingIt() {
        let url = URL(fileURLWithPath: "/nonexistent/folder/none.ply")
        XCTAssertThrowsError(try PLYReader.readMesh(url)) { error in
            XCTAssertEqual((error as? CaptureIOError)?.path, url.path)
        }
    }

    private let cubeHeader = """
        ply
        format ascii 1.0
        element vertex 3
        property float x
        property float y
        property float z
        element face 1
        property list uchar int vertex_indices
        end_header

        """

    func testBadHeadersAreRejected() {
        assertRejected("", "not a PLY file")
        assertRejected("PLY\nformat ascii 1.0\nend_header\n", "not a PLY file")
        assertRejected("plyx\nformat ascii 1.0\nend_header\n", "first line")
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", "end_header")
        assertRejected("ply\nformat binary_middle_endian 1.0\nend_header\n", "unsupported format")
        assertRejected("ply\nformat ascii 2.0\nend_header\n", "version")
        assertRejected("ply\nelement vertex 1\nproperty float x\nend_header\n", "no \"format\"")
        assertRejected("ply\nformat ascii 1.0\nproperty float x\nend_header\n", "before any element")
        assertRejected("ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", "element <name> <count>")
        assertRejected("ply\nformat ascii 1.0\nelement vertex many\nend_header\n", "element <name> <count>")
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nproperty float\nend_header\n", "property <type> <name>")
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nbanana\nend_header\n", "unknown keyword")
        assertRejected("ply\nformat ascii 1.0\nelement face 0\nend_header\n", "no \"vertex\" element")
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n",
                       "no \"z\" property")
    }

    func testUnsupportedTypesAreRejected() {
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nproperty half x\nend_header\n", "unsupported property type \"half\"")
        assertRejected("ply\nformat ascii 1.0\nelement vertex 1\nproperty list float int x\nend_header\n",
                       "integer type")
        assertRejected("""
            ply
            format ascii 1.0
            element vertex 3
            property float x
            property float y
            property float z
            element face 1
            property list uchar float vertex_indices
            end_header
            0 0 0 1 0 0 0 1 0
            3 0 1 2
            """, "integer type")
    }

    func testTruncatedBodiesAreRejected() throws {
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1", "truncated")
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1", "truncated")
        let binary = try PLYWriter.data(PLYWriterTests.tetrahedron)
        for cut in [1, 13, 14, 60, 120] {
            assertRejected(binary.dropLast(cut), "truncated")
        }
        // A header that claims far more vertices than the bytes hold fails before allocating.
        let huge = "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000000\nproperty float x\n"
            + "property float y\nproperty float z\nend_header\n"
        assertRejected(Data(huge.utf8) + Data(count: 24), "only 24 bytes remain")
        let hugeASCII = huge.replacingOccurrences(of: "binary_little_endian", with: "ascii") + "1 2 3\n"
        assertRejected(hugeASCII, "truncated")
        // A list claiming 255 indices with 4 bytes left.
        let list = "ply\nformat binary_big_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\n"
            + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
        assertRejected(Data(list.utf8) + Data([255, 0, 0, 0, 1]), "declares 255 items")
    }

    func testValuesThatAreNotNumbersAreRejected() {
        assertRejected(cubeHeader + "0 0 0\n1 zero 0\n0 1 0\n3 0 1 2\n", "\"zero\" is not a number")
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2.5\n", "not a valid")
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n300 0 1 2\n", "not a valid")
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 " + String(repeating: "9", count: 100) + "\n",
                       "is not a number")
    }

    func testFaceIndicesOutOfRangeAreRejected() {
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", "refers to vertex 3, but the file has 3 vertices")
        assertRejected(cubeHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", "negative")
    }

    func testFacesWithFewerThanThreeVerticesAreSkipped() throws {
        let header = cubeHeader.replacingOccurrences(of: "element face 1", with: "element face 3")
        let mesh = try parse(header + "0 0 0\n1 0 0\n0 1 0\n0\n2 0 1\n3 0 1 2\n")
        XCTAssertEqual(mesh.triangles, [[0, 1, 2]])
    }

    /// Random truncations and byte changes of valid files give a mesh or an error, never a trap.
    func testCorruptedFilesNeverTrap() throws {
        var random = SplitMix64(seed: 42)
        let originals = [
            try PLYWriter.data(PLYWriterTests.tetrahedron),
            try PLYWriter.data(PLYWriterTests.tetrahedron, encoding: .ascii),
        ]
        for original in originals {
            for _ in 0..<400 {
                var bytes = [UInt8](original)
                bytes.removeLast(Int.random(in: 0..<(bytes.count / 2), using: &random))
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                do {
                    _ = try PLYReader.parse(Data(bytes), file: plyFile)
                } catch let error as CaptureIOError {
                    XCTAssertEqual(error.path, plyFile.path)
                }
            }
        }
    }
}

/// Writes PLY body values by hand in one of the three formats (test fixture).
struct PLYTestWriter {
    let format: String
    var body = Data()
    private var line: [String] = []

    init(format: String) { self.format = format }

    private mutating func append<T: FixedWidthInteger>(_ value: T, text: String) {
        switch format {
        case "ascii": line.append(text)
        case "binary_big_endian": withUnsafeBytes(of: value.bigEndian) { body.append(contentsOf: $0) }
        default: withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
        }
    }

    mutating func uint8(_ v: UInt8) { append(v, text: "\(v)") }
    mutating func uint16(_ v: UInt16) { append(v, text: "\(v)") }
    mutating func int32(_ v: Int32) { append(v, text: "\(v)") }
    mutating func uint32(_ v: UInt32) { append(v, text: "\(v)") }
    mutating func float(_ v: Float) { append(v.bitPattern, text: "\(v)") }
    mutating func double(_ v: Double) { append(v.bitPattern, text: "\(v)") }

    /// Ends an element instance (a line in ASCII).
    mutating func endLine() {
        if format == "ascii" {
            body.append(Data((line.joined(separator: " ") + "\n").utf8))
            line = []
        }
    }
}
