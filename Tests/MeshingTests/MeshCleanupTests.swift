import Meshing
import ReconstructionCore
import XCTest

final class MeshCleanupTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    func testATinyFloatingBlobIsRemovedAndTheBigSphereKept() {
        let big = Fixtures.uvSphere(centre: .zero, radius: 0.5, rings: 24, segments: 48)
        let blob = Fixtures.uvSphere(centre: SIMD3(2, 0, 0), radius: 0.05, rings: 4, segments: 6)
        var mesh = big
        mesh.append(blob)
        XCTAssertGreaterThan(Fixtures.signedVolume(big), 0)
        for byArea in [true, false] {
            var options = MeshCleanup.Options()
            options.measuresComponentsByArea = byArea
            let result = MeshCleanup(options: options).clean(mesh)
            XCTAssertEqual(result.mesh.triangleCount, big.triangleCount)
            XCTAssertEqual(result.mesh.vertexCount, big.vertexCount)
            XCTAssertTrue(result.mesh.positions.allSatisfy { simdLength($0) < 0.51 })
            XCTAssertEqual(result.report.removedComponents, 1)
            XCTAssertEqual(result.report.removedComponentTriangles, blob.triangleCount)
            XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0)
        }
        // A component above the fraction stays.
        var keepAll = MeshCleanup.Options()
        keepAll.minimumComponentFraction = 0.001
        XCTAssertEqual(MeshCleanup(options: keepAll).clean(mesh).mesh.triangleCount, mesh.triangleCount)
    }

    func testCroppingRemovesTrianglesOutsideTheBoxAndTheirVertices() {
        var sphere = Fixtures.uvSphere(centre: .zero, radius: 0.5, rings: 24, segments: 48)
        sphere.colors = sphere.positions.map { _ in SIMD3(0.2, 0.4, 0.6) }
        sphere.normals = sphere.computedVertexNormals()
        var options = MeshCleanup.Options()
        options.crop = BoundingBox(centre: Vector3(0, 0, 0.5), halfExtents: Vector3(1, 1, 0.5))  // upper half
        options.minimumComponentFraction = 0
        let result = MeshCleanup(options: options).clean(sphere)
        let mesh = result.mesh
        XCTAssertGreaterThan(mesh.triangleCount, sphere.triangleCount / 3)
        XCTAssertLessThan(mesh.triangleCount, sphere.triangleCount * 2 / 3)
        XCTAssertEqual(result.report.croppedTriangles, sphere.triangleCount - mesh.triangleCount)
        XCTAssertTrue(mesh.positions.allSatisfy { $0.z >= 0 })
        XCTAssertEqual(mesh.removingUnreferencedVertices().vertexCount, mesh.vertexCount, "no unreferenced vertices")
        XCTAssertEqual(mesh.colors.count, mesh.vertexCount)
        XCTAssertEqual(mesh.normals.count, mesh.vertexCount)
        XCTAssertTrue(mesh.triangles.allSatisfy { t in [t.x, t.y, t.z].allSatisfy { Int($0) < mesh.vertexCount } })
    }

    func testDegenerateAndRepeatedTrianglesAreRemovedAndCoincidentVerticesWelded() {
        var mesh = TriangleMesh(
            positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(5, 5, 5), SIMD3(.nan, 0, 0)],
            triangles: [
                SIMD3(0, 1, 2),
                SIMD3(1, 2, 0),  // the same triangle again
                SIMD3(0, 3, 2),  // vertex 3 coincides with 1: a repeat once welded
                SIMD3(0, 1, 3),  // collapses to an edge once welded
                SIMD3(0, 0, 2),  // repeats a vertex
                SIMD3(0, 1, 5),  // non-finite corner
                SIMD3(0, 1, 9),  // index out of range
            ])
        mesh.colors = [SIMD3<Float>](repeating: SIMD3(1, 1, 1), count: 6)
        let result = MeshCleanup().clean(mesh)
        XCTAssertEqual(result.mesh.triangles, [SIMD3(0, 1, 2)])
        XCTAssertEqual(result.mesh.positions, [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0)])
        XCTAssertEqual(result.mesh.colors.count, 3)
        XCTAssertEqual(result.report.degenerateTriangles, 6)
        XCTAssertEqual(result.report.removedVertices, 3)
    }

    func testEmptyMeshStaysEmpty() {
        let result = MeshCleanup().clean(TriangleMesh())
        XCTAssertEqual(result.mesh, TriangleMesh())
        XCTAssertEqual(result.report, MeshCleanup.Report())
    }
}
