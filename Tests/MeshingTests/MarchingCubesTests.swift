import Meshing
import ReconstructionCore
import XCTest

final class MarchingCubesTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    /// A deterministic pseudo-random value in -1…1 for a voxel position.
    private func noise(_ p: SIMD3<Float>, seed: UInt64) -> Float {
        let q = SIMD3<Int64>((p * 1000).rounded(.toNearestOrAwayFromZero))
        var h = seed &+ UInt64(bitPattern: q.x &* 73_856_093 ^ q.y &* 19_349_663 ^ q.z &* 83_492_791)
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        return Float(h % 20_001) / 10_000 - 1
    }

    func testRandomFieldsGiveClosedConsistentlyOrientedMeshesAcrossBlocks() {
        // Every sign pattern, saddles included, shows up in random fields; the region straddles
        // block boundaries so welding across blocks is exercised too.
        for seed: UInt64 in [1, 2, 3, 4] {
            var options = TSDFVolume.Options()
            options.voxelSize = 0.01
            var volume = TSDFVolume(options: options)
            let inner = TestBox(lower: SIMD3(-0.06, -0.11, 0.03), upper: SIMD3(0.13, 0.05, 0.2))
            let truncation = volume.truncationDistance
            volume.integrate(signedDistance: { p in
                inner.contains(p) ? 0.9 * truncation * self.noise(p, seed: seed) : 0.9 * truncation
            }, in: BoundingBox(centre: Vector3(0.03, -0.03, 0.115), halfExtents: Vector3(0.13, 0.12, 0.13)))
            let mesh = MarchingCubes().extractMesh(from: volume)
            XCTAssertGreaterThan(mesh.triangleCount, 1000)
            let defects = Fixtures.edgeDefects(mesh)
            XCTAssertEqual(defects.openOrNonManifold, 0, "seed \(seed)")
            XCTAssertEqual(defects.misoriented, 0, "seed \(seed)")
            XCTAssertGreaterThan(Fixtures.signedVolume(mesh), 0, "negative regions are enclosed: outward triangles")
        }
    }

    func testSphereDistanceFieldGivesAccurateVerticesWithOutwardNormals() {
        var options = TSDFVolume.Options()
        options.voxelSize = 0.01
        var volume = TSDFVolume(options: options)
        let centre = SIMD3<Float>(0.031, -0.017, 0.004), radius: Float = 0.3
        volume.integrate(signedDistance: { simdLength($0 - centre) - radius },
                         in: BoundingBox(centre: Vector3(0, 0, 0), halfExtents: Vector3(0.4, 0.4, 0.4)))
        let mesh = MarchingCubes().extractMesh(from: volume)
        let errors = mesh.positions.map { abs(simdLength($0 - centre) - radius) }
        XCTAssertLessThan(errors.max() ?? 1, 0.001, "linear interpolation of an exact distance field")
        XCTAssertTrue(zip(mesh.positions, mesh.normals).allSatisfy { simdDot($0.1, simdNormalize($0.0 - centre)) > 0.95 })
        XCTAssertEqual(Fixtures.edgeDefects(mesh).openOrNonManifold, 0)
        XCTAssertTrue(mesh.colors.isEmpty, "no colour was integrated")
        // Unused vertices were dropped.
        XCTAssertEqual(mesh.removingUnreferencedVertices().vertexCount, mesh.vertexCount)
    }

    func testNoFacesBridgeAnUnobservedGap() {
        var volume = TSDFVolume()
        let plane = { (p: SIMD3<Float>) in p.z - 0.0042 }
        volume.integrate(signedDistance: plane, in: BoundingBox(centre: Vector3(-0.3, 0, 0), halfExtents: Vector3(0.2, 0.2, 0.1)))
        volume.integrate(signedDistance: plane, in: BoundingBox(centre: Vector3(0.3, 0, 0), halfExtents: Vector3(0.2, 0.2, 0.1)))
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 100)
        XCTAssertFalse(mesh.positions.contains { $0.x > -0.09 && $0.x < 0.09 }, "the gap -0.1…0.1 stays open")
        XCTAssertTrue(mesh.positions.contains { $0.x < -0.1 } && mesh.positions.contains { $0.x > 0.1 })
    }

    func testVoxelsAtOrBelowTheMinimumWeightProduceNoFaces() {
        var volume = TSDFVolume()
        let plane = { (p: SIMD3<Float>) in p.z - 0.0042 }
        volume.integrate(signedDistance: plane, in: BoundingBox(centre: Vector3(-0.3, 0, 0), halfExtents: Vector3(0.2, 0.2, 0.1)), weight: 1)
        volume.integrate(signedDistance: plane, in: BoundingBox(centre: Vector3(0.3, 0, 0), halfExtents: Vector3(0.2, 0.2, 0.1)), weight: 5)
        var options = MarchingCubes.Options()
        options.minimumWeight = 2
        let mesh = MarchingCubes(options: options).extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 100)
        XCTAssertTrue(mesh.positions.allSatisfy { $0.x > 0.09 })
    }
}

/// An axis-aligned box for the tests' field definitions.
struct TestBox {
    let lower: SIMD3<Float>
    let upper: SIMD3<Float>
    func contains(_ p: SIMD3<Float>) -> Bool { all(p .>= lower) && all(p .<= upper) }
}

func simdNormalize(_ v: SIMD3<Float>) -> SIMD3<Float> { v / simdLength(v) }
