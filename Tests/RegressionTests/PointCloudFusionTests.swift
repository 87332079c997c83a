import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import XCTest

/// Point clouds (a LiDAR scan as PLY) fused into the surface: exact points on a sphere give a
/// sphere of the right radius, with normals estimated when the file has none.
final class PointCloudFusionTests: XCTestCase {
    /// `count` points spread evenly over a sphere (a Fibonacci lattice).
    static func spherePoints(count: Int, centre: SIMD3<Float>, radius: Float) -> [SIMD3<Float>] {
        let golden = Float.pi * (3 - Float(5).squareRoot())
        return (0..<count).map { i in
            let z = 1 - 2 * (Float(i) + 0.5) / Float(count)
            let r = (1 - z * z).squareRoot(), phi = golden * Float(i)
            return centre + radius * SIMD3(r * cos(phi), r * sin(phi), z)
        }
    }

    func testExactSpherePointsFromPLYGiveASphereWithinOnePercent() throws {
        let centre = SIMD3<Float>(0.3, -0.2, 1.1), radius: Float = 0.12
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sphere-\(UUID().uuidString).ply")
        defer { try? FileManager.default.removeItem(at: file) }
        try PLYWriter.write(PointCloud(positions: Self.spherePoints(count: 40_000, centre: centre, radius: radius)), to: file)
        let cloud = try PLYReader.readPointCloud(file)
        XCTAssertFalse(cloud.hasNormals)

        var options = SurfaceReconstruction.Options()
        options.closesOpenings = .never
        let result = try SurfaceReconstruction(options: options).run([], points: [.init(cloud: cloud)])
        let mesh = result.mesh
        XCTAssertGreaterThan(mesh.triangleCount, 1000)
        let radii = mesh.positions.map { simdLength($0 - centre) }
        let mean = radii.reduce(0, +) / Float(radii.count)
        XCTAssertEqual(mean, radius, accuracy: 0.01 * radius)
        XCTAssertLessThan(radii.map { abs($0 - radius) }.max()!, 0.03 * radius)
        XCTAssertLessThan(result.voxelSize, radius / 10, "voxel from the points' spacing")
        // Closed and facing outwards: normals were turned away from the centroid.
        XCTAssertEqual(mesh.boundaryEdgeCount, 0)
        XCTAssertGreaterThan(mesh.signedVolume, 0)
    }

    func testEstimatedNormalsFaceTheViewpoints() {
        // A plane z = 0 seen from above: normals +z; seen from below: −z.
        let points = (0..<400).map { i in SIMD3<Float>(Float(i % 20) * 0.01, Float(i / 20) * 0.01, 0) }
        let cloud = PointCloud(positions: points)
        let up = cloud.withEstimatedNormals(towards: [SIMD3(0.1, 0.1, 1)])
        XCTAssertTrue(up.normals.allSatisfy { $0.z > 0.99 })
        let down = cloud.withEstimatedNormals(towards: [SIMD3(0.1, 0.1, -1)])
        XCTAssertTrue(down.normals.allSatisfy { $0.z < -0.99 })
        XCTAssertEqual(cloud.medianSpacing() ?? 0, 0.01, accuracy: 1e-4)
    }
}

extension TriangleMesh {
    /// Directed edges without their reverse.
    var boundaryEdgeCount: Int {
        var directed = Set<SIMD2<UInt32>>()
        for t in triangles { directed.formUnion([SIMD2(t.x, t.y), SIMD2(t.y, t.z), SIMD2(t.z, t.x)]) }
        return directed.filter { !directed.contains(SIMD2($0.y, $0.x)) }.count
    }

    /// Enclosed volume (positive when the triangles face outwards), cubic metres.
    var signedVolume: Double {
        triangles.indices.reduce(0.0) { sum, i in
            let (a, b, c) = corners(of: i)
            return sum + Double(simdDot(a, simdCross(b, c))) / 6
        }
    }
}
