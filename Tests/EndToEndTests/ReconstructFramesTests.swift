import Foundation
import XCTest

/// Everything a model run writes lines up with the model: its full-resolution mesh, point cloud
/// and poses are all in the model's frame, so the mesh can be scored with those poses.
final class ReconstructFramesTests: XCTestCase {
    func testAModelRunsMeshAndPosesShareTheModelsFrame() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        let mesh = out.appendingPathComponent("mesh.ply"), cloud = out.appendingPathComponent("points.ply"), poses = out.appendingPathComponent("poses")
        let run = try CLIRunner.run(["reconstruct", capture.path, "-o", out.appendingPathComponent("vase.glb").path, "--detail", "preview",
                                     "--mesh", mesh.path, "--point-cloud", cloud.path, "--poses-output", poses.path])
        XCTAssertEqual(run.status, 0, run.output)
        let scored = try CLIRunner.run(["evaluate", "--ground-truth", capture.path, "--poses", poses.path, "--surface", mesh.path, "--json"])
        XCTAssertEqual(scored.status, 0, scored.output)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(scored.output.utf8)) as? [String: Any], scored.output)
        let fScore = try XCTUnwrap((json["surface"] as? [String: Any])?["fScore"] as? Double)
        XCTAssertGreaterThan(fScore, 0.7, "the mesh scored with the run's own poses")
        // The model rests on y = 0: the mesh and the point cloud start there, and no lower.
        for file in [mesh, cloud] {
            let heights = try Self.vertexHeights(file)
            XCTAssertGreaterThan(heights.count, 1000, file.lastPathComponent)
            XCTAssertEqual(heights.min() ?? .nan, 0, accuracy: 0.02, file.lastPathComponent)
        }
    }

    /// The y coordinates of a binary little-endian PLY's vertices (x, y, z floats first).
    static func vertexHeights(_ url: URL) throws -> [Float] {
        let data = try Data(contentsOf: url)
        let end = try XCTUnwrap(data.range(of: Data("end_header\n".utf8)))
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        let lines = header.split(separator: "\n")
        let count = try XCTUnwrap(lines.first { $0.hasPrefix("element vertex") }.flatMap { Int($0.split(separator: " ")[2]) })
        // Bytes per vertex: the vertex element's properties, up to the next element.
        var stride = 0, inVertex = false
        for line in lines {
            if line.hasPrefix("element") { inVertex = line.hasPrefix("element vertex") }
            guard inVertex, line.hasPrefix("property") else { continue }
            let type = line.split(separator: " ")[1]
            stride += ["float": 4, "double": 8, "uchar": 1, "int": 4, "uint": 4, "short": 2, "ushort": 2][String(type)] ?? 4
        }
        let body = data[end.upperBound...]
        return (0..<count).map { i in
            let offset = body.startIndex + i * stride + 4
            return body[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: Float.self) }
        }
    }
}
