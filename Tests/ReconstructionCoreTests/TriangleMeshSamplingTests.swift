import ReconstructionCore
import XCTest

final class TriangleMeshSamplingTests: XCTestCase {
    func testSamplingIsDeterministicForASeedWhateverTheWorkerCount() {
        let mesh = TestMeshes.sphere(subdivisions: 2)
        let one = mesh.sampledPoints(count: 40_000, seed: 5, workers: 1)
        let two = mesh.sampledPoints(count: 40_000, seed: 5, workers: 2)
        XCTAssertEqual(one.count, 40_000)
        XCTAssertEqual(one, two)
        XCTAssertNotEqual(one, mesh.sampledPoints(count: 40_000, seed: 6, workers: 2))
    }

    func testSamplesLieOnTheSurface() {
        let mesh = TestMeshes.sphere(subdivisions: 2)
        let index = SurfaceDistanceIndex(mesh: mesh)
        let samples = mesh.sampledPoints(count: 5000, seed: 1)
        XCTAssertLessThan(index.distances(from: samples, workers: 2).max()!, 1e-5)
    }

    func testTrianglesReceiveSamplesInProportionToTheirArea() {
        // Two disjoint triangles of area 0.5 and 4.5 (share 10 % and 90 %).
        let mesh = TriangleMesh(
            positions: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [10, 0, 0], [13, 0, 0], [10, 3, 0]],
            triangles: [[0, 1, 2], [3, 4, 5]])
        let samples = mesh.sampledPoints(count: 100_000, seed: 2, workers: 2)
        let small = samples.filter { $0.x < 5 }
        XCTAssertEqual(Double(small.count) / 100_000, 0.1, accuracy: 0.005)
        // Uniform inside the large triangle: its centroid is the mean of the samples.
        let large = samples.filter { $0.x >= 5 }
        let mean = large.reduce(SIMD3<Float>.zero, +) / Float(large.count)
        XCTAssertLessThan(simdLength(mean - [11, 1, 0]), 0.02)
        // Every sample inside its triangle.
        for p in small { XCTAssert(p.x >= 0 && p.y >= 0 && p.x + p.y <= 1 + 1e-6) }
    }

    func testSpacingGivesOneSamplePerSquareOfSpacing() {
        let plane = TestMeshes.grid(size: 2, cells: 4)  // 4 m²
        XCTAssertEqual(plane.sampleCount(spacing: 0.01), 40_000)
        XCTAssertEqual(plane.sampleCount(spacing: 0.01, maxCount: 1000), 1000)
        XCTAssertEqual(plane.sampledPoints(spacing: 0.1).count, 400)
        XCTAssertEqual(TriangleMesh().sampledPoints(count: 10), [])
    }
}
