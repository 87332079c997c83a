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

final class HoleFillingTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    func testSmallHolesAreClosedConsistentlyAndLargeOnesLeftOpen() {
        var sphere = Fixtures.uvSphere(centre: .zero, radius: 0.5, rings: 24, segments: 48)
        sphere.colors = sphere.positions.map { _ in SIMD3(0.25, 0.5, 0.75) }
        let closedVolume = Fixtures.signedVolume(sphere)
        // A small hole: the 6 triangles around a ring vertex; a large one: the north cap (48 edges).
        let ringVertex = UInt32(1 + 10 * 48 + 7)
        var holed = sphere
        holed.triangles.removeAll { t in t.x == ringVertex || t.y == ringVertex || t.z == ringVertex }
        holed.triangles.removeAll { t in t.x == 0 || t.y == 0 || t.z == 0 }
        holed.triangles.remove(at: 1000)  // a triangular hole, closed by one triangle
        XCTAssertEqual(holed.triangleCount, sphere.triangleCount - 6 - 48 - 1)

        let (filled, count) = holed.fillingHoles(maximumEdges: 16)
        XCTAssertEqual(count, 2)
        XCTAssertEqual(filled.triangleCount, holed.triangleCount + 6 + 1)
        XCTAssertEqual(filled.colors.count, filled.vertexCount)
        XCTAssertEqual(filled.colors.last!, SIMD3(0.25, 0.5, 0.75))
        let defects = Fixtures.edgeDefects(filled)
        XCTAssertEqual(defects.misoriented, 0)
        XCTAssertEqual(defects.openOrNonManifold, 48, "only the cap's border stays open")

        let (all, allCount) = holed.fillingHoles(maximumEdges: 64)
        XCTAssertEqual(allCount, 3)
        XCTAssertEqual(Fixtures.edgeDefects(all).openOrNonManifold, 0)
        XCTAssertEqual(Fixtures.edgeDefects(all).misoriented, 0)
        XCTAssertEqual(Fixtures.signedVolume(all), closedVolume, accuracy: 0.01 * closedVolume)

        // Cleanup fills by default.
        XCTAssertEqual(MeshCleanup().clean(holed).report.filledHoles, 2)
    }
}
