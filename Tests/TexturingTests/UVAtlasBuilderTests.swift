import ReconstructionCore
import Texturing
import XCTest

final class UVAtlasBuilderTests: XCTestCase {
    typealias Fixtures = AtlasFixtures

    private func options(size: Int = 512) -> UVAtlasBuilder.Options {
        var options = UVAtlasBuilder.Options()
        options.textureSize = size
        return options
    }

    private func singleTriangleCharts(_ result: UVAtlasBuilder.Result) -> Int {
        var counts = [Int](repeating: 0, count: result.chartCount)
        for c in result.chartIndices { counts[Int(c)] += 1 }
        return counts.filter { $0 == 1 }.count
    }

    func testIcosphereGetsAFewValidChartsAtOneDensity() {
        let mesh = Fixtures.icosphere(subdivisions: 3)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertGreaterThanOrEqual(result.chartCount, 4, "a 65° cone cannot cover a sphere with fewer")
        XCTAssertLessThanOrEqual(result.chartCount, 16)
        XCTAssertLessThanOrEqual(singleTriangleCharts(result), 1)
        // Every large chart has an edge in its plane at the common density: uniform texel density.
        let densities = AtlasInspection.chartDensities(result, for: mesh, size: 512)
        for (chart, density) in densities.enumerated() where result.chartIndices.filter({ $0 == chart }).count >= 20 {
            XCTAssertEqual(density, 1, accuracy: 0.1, "chart \(chart)")
        }
        XCTAssertGreaterThan(result.utilisation, 0.4)
    }

    func testUVSphereWithSliverFansAtThePolesStaysValid() {
        let mesh = Fixtures.uvSphere(rings: 24, segments: 48)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertLessThanOrEqual(result.chartCount, 20)
        XCTAssertLessThanOrEqual(singleTriangleCharts(result), 2)
    }

    func testCubeGetsOneUndistortedChartPerFace() {
        let mesh = Fixtures.cube(size: 2, divisions: 4)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertEqual(result.chartCount, 6)
        // Each face is one chart and maps with exactly the common density (no stretch at all).
        for face in 0..<6 {
            XCTAssertEqual(Set(result.chartIndices[(32 * face)..<(32 * face + 32)]).count, 1)
        }
        for t in 0..<mesh.triangleCount {
            let u = result.mesh.uvTriangles[t]
            let (a, b, _) = mesh.corners(of: t)
            let uvLength = AtlasInspection.uvLength(result.mesh.uvs[Int(u.x)], result.mesh.uvs[Int(u.y)]) * 512
            XCTAssertEqual(uvLength * result.metresPerTexel, Double(simdLength(b - a)), accuracy: 1e-3)
        }
        // Six squares in a square: three by two at best, so at least 6/9 minus gutters.
        XCTAssertGreaterThan(result.utilisation, 0.5)
    }

    func testOpenPlaneIsOneChartFillingTheTexture() {
        let mesh = Fixtures.planeGrid(n: 16, size: 3)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertEqual(result.chartCount, 1)
        XCTAssertGreaterThan(result.utilisation, 0.95)
        XCTAssertEqual(result.metresPerTexel, 3.0 / Double(512 - 2 * result.paddingTexels), accuracy: 3.0 / 512 * 0.02)
    }

    func testDegenerateTrianglesAndATinyComponentKeepTheAtlasValid() {
        let mesh = Fixtures.gridWithDegenerateAndTinyParts()
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        // The grid (with its repeated-corner and collinear triangles), the needle, the far triangle.
        XCTAssertEqual(result.chartCount, 3)
        let grid = result.chartIndices[0]
        XCTAssertTrue(result.chartIndices[0..<(2 * 12 * 12 + 2)].allSatisfy { $0 == grid })
    }

    func testFoldedProjectionIsSplitRatherThanOverlapped() {
        // Every normal of the ramp is near +y, so one cone would take it all; its plan view
        // overlaps itself after a turn, so the overlapping part must go to another chart.
        let mesh = Fixtures.helicalRamp()
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertGreaterThanOrEqual(result.chartCount, 2)
        XCTAssertLessThanOrEqual(result.chartCount, 6)
    }

    func testUtilisationOfSphereBoxAndVaseAtTwoThousandTexels() {
        var options = UVAtlasBuilder.Options()
        options.textureSize = 2048
        let meshes = [
            ("sphere", Fixtures.icosphere(subdivisions: 3)),
            ("box", Fixtures.cube(size: 1, divisions: 6)),
            ("vase", Fixtures.vase(rings: 24, segments: 40)),
        ]
        for (name, mesh) in meshes {
            let result = UVAtlasBuilder(options: options).build(mesh)
            XCTAssertNil(result.mesh.inconsistency, name)
            XCTAssertEqual(result.paddingTexels, 4, name)
            XCTAssertGreaterThanOrEqual(result.utilisation, 0.5, name)
        }
    }

    func testVaseAtlasIsValid() {
        let mesh = Fixtures.vase(rings: 16, segments: 32)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertLessThanOrEqual(result.chartCount, 16)
    }

    func testSameInputGivesTheSameAtlas() {
        let mesh = Fixtures.uvSphere(rings: 12, segments: 24)
        let first = UVAtlasBuilder(options: options()).build(mesh)
        let second = UVAtlasBuilder(options: options()).build(mesh)
        XCTAssertEqual(first.mesh, second.mesh)
        XCTAssertEqual(first.chartIndices, second.chartIndices)
        XCTAssertEqual(first.metresPerTexel, second.metresPerTexel)
    }

    func testGivenNormalsAreKept() {
        var mesh = Fixtures.planeGrid(n: 4)
        mesh.normals = Array(repeating: SIMD3(0, 0.6, 0.8), count: mesh.vertexCount)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        XCTAssertEqual(result.mesh.normals, mesh.normals)
    }

    func testEmptyMeshGivesAnEmptyAtlas() {
        let result = UVAtlasBuilder(options: options()).build(TriangleMesh(positions: [SIMD3(0, 0, 0)]))
        XCTAssertEqual(result.chartCount, 0)
        XCTAssertTrue(result.mesh.uvs.isEmpty)
        XCTAssertNil(result.mesh.inconsistency)
    }

    func testDefaultPaddingScalesWithTheTexture() {
        var options = UVAtlasBuilder.Options()
        for (size, padding) in [(512, 2), (1024, 2), (2048, 4), (4096, 8), (16384, 32)] {
            options.textureSize = size
            XCTAssertEqual(options.resolvedPaddingTexels, padding)
        }
        options.paddingTexels = 7
        XCTAssertEqual(options.resolvedPaddingTexels, 7)
    }

    func testCoarseCellsAtLargeTexturesKeepThePadding() {
        // 1024 texels on a grid of at most 300 cells: 4-texel cells, a 5-texel gutter rounds up to
        // 2 cells. Coverage, gutters and the border must still hold at texel level.
        var options = UVAtlasBuilder.Options()
        options.textureSize = 1024
        options.paddingTexels = 5
        options.maximumPackingGridCells = 300
        for mesh in [Fixtures.cube(size: 1, divisions: 2), Fixtures.icosphere(subdivisions: 2)] {
            let result = UVAtlasBuilder(options: options).build(mesh)
            AtlasInspection.assertValid(result, for: mesh, options: options)
        }
    }

    func testRoughSphereStaysValidWithFewSingleTriangleCharts() {
        // ±1.5 % radial noise on edges of about 10 % of the radius: normals off by up to ~15°.
        let mesh = Fixtures.roughened(Fixtures.icosphere(subdivisions: 3), amplitude: 0.03, seed: 7)
        let result = UVAtlasBuilder(options: options()).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options())
        XCTAssertLessThanOrEqual(result.chartCount, 24)
        XCTAssertLessThanOrEqual(singleTriangleCharts(result), 3)
    }

    func testTriangleSoupStillGivesAValidAtlas() {
        // Intersecting, non-manifold, inconsistently oriented, repeated: nothing may overlap.
        let mesh = Fixtures.triangleSoup(vertices: 40, triangles: 120, seed: 3)
        let result = UVAtlasBuilder(options: options(size: 256)).build(mesh)
        AtlasInspection.assertValid(result, for: mesh, options: options(size: 256))
        XCTAssertGreaterThan(result.chartCount, 10)
    }

    func testTooManyChartsForTheGutterGiveUpTheGutterBeforeOverlapping() {
        // 200 separate triangles in a 16-texel texture: no room for gutters, but one texel each.
        var mesh = TriangleMesh()
        for k in 0..<200 {
            let o = SIMD3<Float>(Float(k % 20) * 3, Float(k / 20) * 3, 0)
            mesh.append(TriangleMesh(positions: [o, o + SIMD3(1, 0, 0), o + SIMD3(0, 1, 0)], triangles: [SIMD3(0, 1, 2)]))
        }
        var options = UVAtlasBuilder.Options()
        options.textureSize = 16
        let result = UVAtlasBuilder(options: options).build(mesh)
        XCTAssertNil(result.mesh.inconsistency)
        XCTAssertEqual(result.chartCount, 200)
        XCTAssertEqual(result.paddingTexels, 0)
        XCTAssertGreaterThan(result.metresPerTexel, 0)
        let (count, _) = AtlasInspection.coverage(result.mesh, charts: result.chartIndices, size: 16)
        XCTAssertLessThanOrEqual(count.max() ?? 0, 1)
        XCTAssertTrue(result.mesh.uvs.allSatisfy { $0.min() >= 0 && $0.max() <= 1 })

        // 300 cannot fit at all: every UV collapses to one point rather than overlapping.
        for k in 200..<300 {
            let o = SIMD3<Float>(Float(k % 20) * 3, Float(k / 20) * 3, 0)
            mesh.append(TriangleMesh(positions: [o, o + SIMD3(1, 0, 0), o + SIMD3(0, 1, 0)], triangles: [SIMD3(0, 1, 2)]))
        }
        let overfull = UVAtlasBuilder(options: options).build(mesh)
        XCTAssertNil(overfull.mesh.inconsistency)
        XCTAssertEqual(overfull.metresPerTexel, 0)
        XCTAssertEqual(Set(overfull.mesh.uvs).count, 1)
    }
}
