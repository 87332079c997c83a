import ReconstructionCore
import Texturing
import XCTest

final class SurfaceDetailBakerTests: XCTestCase {
    static let amplitude: Float = 0.02, wavelength: Float = 0.5
    static func height(_ x: Float, _ y: Float) -> Float { amplitude * sin(2 * .pi * x / wavelength) }
    static func slope(_ x: Float) -> Float { amplitude * 2 * .pi / wavelength * cos(2 * .pi * x / wavelength) }

    func testDisplacementAndNormalsReproduceAWavySurfaceOverAFlatOne() throws {
        let flat = Fixtures.grid(n: 1)
        let wavy = Fixtures.grid(n: 96, height: Self.height).triangleMesh
        let withNormals = TriangleMesh(positions: wavy.positions, triangles: wavy.triangles, normals: wavy.computedVertexNormals())
        let surface = TexelSurface(mesh: flat, texels: AtlasTexelMap(mesh: flat, width: 32, height: 32))
        var options = SurfaceDetailBaker.Options()
        options.searchDistanceFraction = 0.05
        let result = try SurfaceDetailBaker(options: options).bake(surface: surface, detailed: withNormals, detailedRays: BruteForceRays(mesh: withNormals),
                                                                   normalMap: true, displacementMap: true)
        XCTAssertEqual(result.hitFraction, 1, accuracy: 1e-9)
        let displacement = try XCTUnwrap(result.displacement), normal = try XCTUnwrap(result.normal)
        let step = result.displacementRange / 255
        for y in 0..<32 {
            for sample in surface.row(y) {
                let k = y * 32 + sample.x
                let height = (Float(displacement.pixels[k]) / 255 - 0.5) * result.displacementRange
                XCTAssertEqual(height, Self.height(sample.position.x, sample.position.y), accuracy: step + 0.001)
                // Tangent space here: T = +x (u grows with x), B = +y (v grows downwards, y upwards), N = +z.
                let n = SIMD3<Float>((0..<3).map { Float(normal.pixels[k * 3 + $0]) / 255 * 2 - 1 })
                let s = Self.slope(sample.position.x)
                let expected = SIMD3<Float>(-s, 0, 1) / (1 + s * s).squareRoot()
                XCTAssertLessThan(simdLength(n - expected), 0.04, "normal at x = \(sample.position.x)")
            }
        }
    }

    func testTexelsWithNothingWithinReachKeepTheSurfaceNormal() throws {
        let flat = Fixtures.grid(n: 1)
        let far = TriangleMesh(positions: flat.positions.map { $0 + SIMD3(0, 0, 5) }, triangles: flat.triangles,
                               normals: flat.normals)
        let surface = TexelSurface(mesh: flat, texels: AtlasTexelMap(mesh: flat, width: 8, height: 8))
        let result = try SurfaceDetailBaker().bake(surface: surface, detailed: far, detailedRays: BruteForceRays(mesh: far),
                                                   normalMap: true, displacementMap: false)
        XCTAssertEqual(result.hitFraction, 0)
        let normal = try XCTUnwrap(result.normal)
        for k in 0..<64 { XCTAssertEqual(Array(normal.pixels[(k * 3)..<(k * 3 + 3)]), [128, 128, 255]) }
    }
}
