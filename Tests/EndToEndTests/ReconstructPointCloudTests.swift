import CaptureIO
import Foundation
import XCTest

/// `reconstruct --point-cloud` writes the fused stereo points where the mesh is: when depth fixed
/// the metric scale, both are in metres (the cloud stayed in pose units before, 3.3× off on this
/// capture, so the two did not overlay).
final class ReconstructPointCloudTests: XCTestCase {
    func testThePointCloudIsInTheMeshsFrameAndUnits() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first)
        let out = try BatchCaptures.temporaryDirectory(self)
        let mesh = out.appendingPathComponent("mesh.ply"), cloud = out.appendingPathComponent("points.ply")
        let result = try CLIRunner.run(["reconstruct", capture.path, "-o", mesh.path, "--point-cloud", cloud.path,
                                        "--intrinsics-file", capture.appendingPathComponent("images/K.txt").path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("metric ("), "depth sets the scale, so pose units and metres differ: \(result.output)")

        let vertices = try PLYReader.readMesh(mesh).positions
        let points = try PLYReader.readPointCloud(cloud).positions
        XCTAssertGreaterThan(vertices.count, 1000)
        XCTAssertGreaterThan(points.count, 1000)
        var low = vertices[0], high = vertices[0]
        for v in vertices {
            low = pointwiseMin(low, v)
            high = pointwiseMax(high, v)
        }
        let margin = 0.1 * ((high - low) * (high - low)).sum().squareRoot()
        let inside = points.filter { all($0 .>= low - margin) && all($0 .<= high + margin) }.count
        XCTAssertGreaterThan(Double(inside) / Double(points.count), 0.9,
                             "points inside the mesh's box (±10 % of its diagonal): \(inside) of \(points.count)")
    }
}
