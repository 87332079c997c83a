import ReconstructionCore
import Rendering
import XCTest

final class ShadingTests: XCTestCase {
    func testUnlitVertexColoursComeBackAsTheSameSRGBBytes() {
        var quad = frontalQuad(x0: -0.5, x1: 0.5, y0: -0.3, y1: 0.3, z: 2)
        quad.colors = Array(repeating: SIMD3(0.2, 0.4, 0.6), count: 4)
        var options = MeshRasterizer.Options()
        options.lighting = .unlit
        let image = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity).color
        let k = 3 * (40 * 100 + 50)
        XCTAssertEqual(Array(image.pixels[k..<(k + 3)]), [51, 102, 153])
    }

    func testLambertFollowsTheCosineToTheLight() {
        let quad = frontalQuad(x0: -0.5, x1: 0.5, y0: -0.3, y1: 0.3, z: 2)  // normal −z
        var options = MeshRasterizer.Options()
        options.albedo = .uniform(SIMD3(repeating: 0.8))
        // Light at 60° from the normal: cos = 0.5, so 0.1 + 0.5 × 0.8 = 0.5 of the albedo.
        options.lighting = Lighting(ambient: 0.1, towardsLight: SIMD3(0, Float(3).squareRoot(), -1), directionalIntensity: 0.8, headlightIntensity: 0)
        let image = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity).color
        XCTAssertEqual(linear(image.pixels[3 * (40 * 100 + 50)]), 0.4, accuracy: 0.004)
        // A headlight alone: the view ray through a pixel centre meets the quad at cos = 1/|ray|.
        options.lighting = Lighting(ambient: 0, directionalIntensity: 0, headlightIntensity: 1)
        let lit = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity).color
        let u = (30.5 - 50) / 100.0, v = (30.5 - 40) / 100.0
        XCTAssertEqual(linear(lit.pixels[3 * (30 * 100 + 30)]), 0.8 / (1 + u * u + v * v).squareRoot(), accuracy: 0.004)
    }

    func testProceduralAlbedoSeesTheSurfacePointItColours() {
        let quad = frontalQuad(x0: -0.5, x1: 0.5, y0: -0.3, y1: 0.3, z: 2)
        var options = MeshRasterizer.Options()
        options.lighting = .unlit
        options.supersampling = 1
        // Red encodes world x, green the pixel footprint (1 px = depth / f = 2 cm here), blue the depth.
        options.albedo = .procedural { p in
            SIMD3(p.position.x + 0.5, p.pixelFootprint * 25, p.depth / 4)
        }
        let view = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity)
        for x in [26, 40, 63, 74] {
            let k = 3 * (40 * 100 + x)
            let worldX = (Double(x) + 0.5 - 50) / 100 * 2
            XCTAssertEqual(linear(view.color.pixels[k]), worldX + 0.5, accuracy: 0.005)
            XCTAssertEqual(linear(view.color.pixels[k + 1]), 0.5, accuracy: 0.005)
            XCTAssertEqual(linear(view.color.pixels[k + 2]), 0.5, accuracy: 0.005)
        }
    }

    func testPerPixelShadingMatchesPerSampleShadingOnASmoothTexture() {
        let cube = unitCube(size: 0.6)
        let cameraFromWorld = lookAt(centre: Vector3(1.5, 1.1, 0.9), target: .zero)
        var options = MeshRasterizer.Options()
        options.albedo = .procedural { p in
            SIMD3(0.5 + 0.4 * sin(9 * p.position.x), 0.5 + 0.4 * cos(7 * p.position.y), 0.5 + 0.4 * sin(5 * p.position.z))
        }
        options.background = .verticalGradient(top: SIMD3(0.2, 0.3, 0.5), bottom: SIMD3(0.5, 0.5, 0.5))
        let perPixel = MeshRasterizer(options: options).render(cube, intrinsics: smallCamera, cameraFromWorld: cameraFromWorld).color
        options.shadingRate = .perSample
        let perSample = MeshRasterizer(options: options).render(cube, intrinsics: smallCamera, cameraFromWorld: cameraFromWorld).color
        let differences = zip(perPixel.pixels, perSample.pixels).map { abs(Int($0) - Int($1)) }
        XCTAssertLessThan(Double(differences.reduce(0, +)) / Double(differences.count), 1.0)
        XCTAssertLessThanOrEqual(differences.max() ?? 0, 12)
    }

    func testBackgroundGradientRunsFromTopToBottom() {
        var options = MeshRasterizer.Options()
        options.background = .verticalGradient(top: SIMD3(repeating: 0), bottom: SIMD3(repeating: 1))
        let image = MeshRasterizer(options: options).render(TriangleMesh(), intrinsics: smallCamera, cameraFromWorld: .identity).color
        XCTAssertEqual(linear(image.pixels[0]), 0.5 / 80, accuracy: 0.002)
        XCTAssertEqual(linear(image.pixels[3 * (79 * 100)]), 79.5 / 80, accuracy: 0.005)
    }
}
