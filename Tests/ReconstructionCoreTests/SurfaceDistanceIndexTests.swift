import ReconstructionCore
import XCTest

final class SurfaceDistanceIndexTests: XCTestCase {
    func testTriangleDistancesEqualTheBruteForceMinimum() {
        var random = TestRandom(seed: 3)
        var mesh = TriangleMesh()
        for i in 0..<600 {
            let centre = random.point(-5...5)
            mesh.positions += [centre + random.point(-0.4...0.4), centre + random.point(-0.4...0.4),
                               centre + random.point(-0.4...0.4)]
            mesh.triangles.append(SIMD3(UInt32(3 * i), UInt32(3 * i + 1), UInt32(3 * i + 2)))
        }
        let index = SurfaceDistanceIndex(mesh: mesh)
        XCTAssertEqual(index.primitiveCount, 600)
        let queries = (0..<500).map { _ in random.point(-7...7) }
        let distances = index.distances(from: queries, workers: 2)
        for (q, d) in zip(queries, distances) {
            var brute = Float.infinity
            for t in 0..<mesh.triangleCount {
                let (a, b, c) = mesh.corners(of: t)
                brute = min(brute, squaredDistanceToTriangle(from: q, a, b, c).squareRoot())
            }
            XCTAssertEqual(d, brute, accuracy: 1e-5)
            XCTAssertEqual(index.distance(to: q), d)
        }
    }

    func testPointDistancesEqualTheBruteForceNearestNeighbour() {
        var random = TestRandom(seed: 11)
        let points = (0..<2000).map { _ in random.point(0...1) }
        let index = SurfaceDistanceIndex(points: points)
        for _ in 0..<300 {
            let q = random.point(-0.5...1.5)
            let brute = points.map { simdLength($0 - q) }.min()!
            let nearest = index.closestPoint(to: q)!
            XCTAssertEqual(nearest.distance, brute, accuracy: 1e-6)
            XCTAssertEqual(simdLength(nearest.point - q), nearest.distance, accuracy: 1e-6)
        }
    }

    func testManyIdenticalPointsAndAnEmptyIndexAreHandled() {
        let index = SurfaceDistanceIndex(points: Array(repeating: [1, 2, 3], count: 5000))
        XCTAssertEqual(index.distance(to: [1, 2, 4]), 1, accuracy: 1e-6)
        let empty = SurfaceDistanceIndex(mesh: TriangleMesh())
        XCTAssertTrue(empty.isEmpty)
        XCTAssertNil(empty.closestPoint(to: .zero))
        XCTAssertEqual(empty.distances(from: [.zero], workers: 2), [.infinity])
    }

    func testNonFinitePrimitivesAreLeftOut() {
        let index = SurfaceDistanceIndex(points: [[0, 0, 0], [.nan, 0, 0], [1, .infinity, 0]])
        XCTAssertEqual(index.primitiveCount, 1)
        XCTAssertEqual(index.distance(to: [0, 0, 2]), 2, accuracy: 1e-6)
        let distances = index.distances(from: [[0, 0, 1], [.nan, 0, 0], [0, 3, 0]], workers: 1)
        XCTAssertEqual(distances[0], 1, accuracy: 1e-6)
        XCTAssertTrue(distances[1].isNaN)
        XCTAssertEqual(distances[2], 3, accuracy: 1e-6)
    }

    func testPointsOnASphereMeshAreAtZeroDistanceAndOutsidePointsAtRadialDistance() {
        let sphere = TestMeshes.sphere(radius: 2, subdivisions: 3)
        let index = SurfaceDistanceIndex(mesh: sphere)
        for p in sphere.positions { XCTAssertLessThan(index.distance(to: p), 1e-5) }
        // A vertex pushed outwards along its direction is nearest that vertex (convex mesh).
        for p in sphere.positions.prefix(50) {
            XCTAssertEqual(index.distance(to: p * 1.5), 1, accuracy: 1e-5)
        }
    }
}
