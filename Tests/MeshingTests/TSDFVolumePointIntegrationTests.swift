import Meshing
import ReconstructionCore
import XCTest

final class TSDFVolumePointIntegrationTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    func testAnOrientedSpherePointCloudGivesAClosedColouredSphere() throws {
        let centre = SIMD3<Float>(0.02, 0.01, -0.03), radius: Float = 0.25
        var cloud = PointCloud()
        for d in Fixtures.directions(40_000) {
            let n = Fixtures.simd(d)
            cloud.positions.append(centre + radius * n)
            cloud.normals.append(n)
            cloud.colors.append(SIMD3(0, 1, 0))
        }
        // Bad points are skipped.
        cloud.positions += [SIMD3(.nan, 0, 0), SIMD3(0.1, 0.1, 0.1)]
        cloud.normals += [SIMD3(0, 0, 1), SIMD3(0, 0, 0)]
        cloud.colors += [SIMD3(1, 0, 0), SIMD3(1, 0, 0)]
        var options = TSDFVolume.Options()
        options.voxelSize = 0.005
        var volume = TSDFVolume(options: options)
        let report = try volume.integrate(points: cloud)
        XCTAssertEqual(report.usedObservations, 40_000)

        let mesh = MarchingCubes().extractMesh(from: volume)
        let distances = mesh.positions.map { simdLength($0 - centre) }
        let mean = distances.reduce(0, +) / Float(distances.count)
        XCTAssertEqual(mean, radius, accuracy: 0.01 * radius)
        XCTAssertLessThan(distances.map { abs($0 - radius) }.max() ?? 1, 0.5 * options.voxelSize)
        XCTAssertEqual(Fixtures.edgeDefects(mesh).openOrNonManifold, 0)
        let sphereVolume = 4.0 / 3.0 * Double.pi * pow(Double(radius), 3)
        XCTAssertEqual(Fixtures.signedVolume(mesh), sphereVolume, accuracy: 0.03 * sphereVolume)
        XCTAssertTrue(mesh.colors.allSatisfy { $0 == SIMD3(0, 1, 0) })
    }

    func testAPointCloudWithoutNormalsIsRejected() {
        var volume = TSDFVolume()
        XCTAssertThrowsError(try volume.integrate(points: PointCloud(positions: [SIMD3(0, 0, 1)]))) {
            XCTAssertEqual($0 as? TSDFVolume.IntegrationError, .pointCloudWithoutNormals)
        }
        XCTAssertEqual(try volume.integrate(points: PointCloud()).usedObservations, 0)
    }
}
