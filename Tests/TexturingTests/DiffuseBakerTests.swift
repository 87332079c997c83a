import ReconstructionCore
import Rendering
import Texturing
import XCTest

final class DiffuseBakerTests: XCTestCase {
    /// Linear albedo varying smoothly with position: bilinear sampling reproduces it closely.
    static let ramp: @Sendable (SIMD3<Float>, Int) -> SIMD3<Float> = { p, _ in
        SIMD3(0.15 + 0.6 * (p.x + 0.5), 0.2 + 0.5 * (p.y + 0.5), 0.4)
    }

    func testBakedTexelsShowThePhotographedColourOfTheirSurfacePoint() throws {
        let plane = Fixtures.grid(n: 4)
        let cameras = [Fixtures.camera(at: SIMD3(0, 0, 2), lookingAt: .zero), Fixtures.camera(at: SIMD3(0.8, 0.3, 1.8), lookingAt: .zero)]
        let views = Fixtures.views(of: plane.triangleMesh, from: cameras, albedo: Self.ramp)
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 64, height: 64))
        var options = DiffuseBaker.Options()
        options.balanceExposure = false
        let result = DiffuseBaker(options: options).bake(surface: surface, views: views, roughness: false)
        XCTAssertEqual(result.seenFraction, 1, accuracy: 1e-9)
        var worst: Float = 0
        for y in 0..<64 {
            // Texels within about 2 photo pixels of the plane's outline see the anti-aliased edge,
            // which mixes in the background; interior ones must match.
            for sample in surface.row(y) where max(abs(sample.position.x), abs(sample.position.y)) < 0.48 {
                let expected = Fixtures.encoded(Self.ramp(sample.position, 0))
                let k = (y * 64 + sample.x) * 3
                for c in 0..<3 { worst = max(worst, abs(Float(result.diffuse.pixels[k + c]) - expected[c])) }
            }
        }
        XCTAssertLessThanOrEqual(worst, 4, "largest difference from the true colour, 8-bit levels")
    }

    func testExposureBalancingFindsTheDarkerViewsGain() throws {
        let plane = Fixtures.grid(n: 4)
        let cameras = [Fixtures.camera(at: SIMD3(-0.3, 0, 2), lookingAt: .zero), Fixtures.camera(at: SIMD3(0.3, 0.1, 2), lookingAt: .zero)]
        var views = Fixtures.views(of: plane.triangleMesh, from: cameras, albedo: Self.ramp)
        views[1].image.pixels = views[1].image.pixels.map { UInt8((Float($0) * 0.7).rounded()) }
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 64, height: 64))
        let result = DiffuseBaker().bake(surface: surface, views: views, roughness: false)
        for c in 0..<3 {
            XCTAssertEqual(result.exposureGains[1][c] / result.exposureGains[0][c], 1 / 0.7, accuracy: 0.04, "channel \(c)")
        }
    }

    func testAPointHiddenFromOneViewTakesItsColourFromAnother() throws {
        // A red card floats in front of the plane's left half as seen from the first camera only.
        let plane = Fixtures.grid(n: 4)
        var mesh = plane.triangleMesh
        let card = TriangleMesh(positions: [SIMD3(-0.45, -0.2, 1.0), SIMD3(-0.05, -0.2, 1.0), SIMD3(-0.05, 0.2, 1.0), SIMD3(-0.45, 0.2, 1.0)],
                                triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
        let planeTriangles = mesh.triangleCount
        mesh.append(card)
        let albedo: @Sendable (SIMD3<Float>, Int) -> SIMD3<Float> = { p, t in t >= planeTriangles ? SIMD3(1, 0, 0) : Self.ramp(p, t) }
        // Texture only the plane, but let the visibility test see the card too: bake the combined
        // mesh with the card's triangles mapped to a corner of the atlas.
        var textured = plane
        let base = UInt32(textured.positions.count), uvBase = UInt32(textured.uvs.count)
        textured.positions += card.positions
        textured.normals += card.positions.map { _ in SIMD3(0, 0, 1) }
        textured.triangles += card.triangles.map { $0 &+ SIMD3(repeating: base) }
        textured.uvs += [SIMD2(0.98, 0.98), SIMD2(0.99, 0.98), SIMD2(0.99, 0.99), SIMD2(0.98, 0.99)]
        textured.uvTriangles += card.triangles.map { $0 &+ SIMD3(repeating: uvBase) }
        for k in 0..<plane.uvs.count { textured.uvs[k] *= 0.9 }  // keep the plane clear of the card's corner
        let cameras = [Fixtures.camera(at: SIMD3(-0.25, 0, 2), lookingAt: SIMD3(-0.25, 0, 0)), Fixtures.camera(at: SIMD3(1.2, 0, 1.2), lookingAt: .zero)]
        let views = cameras.enumerated().map { i, pose in
            BakingView(name: "\(i)", image: Fixtures.photo(of: mesh, from: pose, albedo: albedo), intrinsics: Fixtures.intrinsics, cameraFromWorld: pose)
        }
        let surface = TexelSurface(mesh: textured, texels: AtlasTexelMap(mesh: textured, width: 64, height: 64))
        var options = DiffuseBaker.Options()
        options.balanceExposure = false
        options.blendedViewsPerTexel = 1
        let result = DiffuseBaker(options: options).bake(surface: surface, views: views, roughness: false)
        var checked = 0
        for y in 0..<64 {
            for sample in surface.row(y) where sample.triangle < planeTriangles && sample.position.x < -0.15 && sample.position.x > -0.35 && abs(sample.position.y) < 0.08 {
                let k = (y * 64 + sample.x) * 3
                let expected = Fixtures.encoded(Self.ramp(sample.position, 0))
                XCTAssertEqual(Float(result.diffuse.pixels[k]), expected.x, accuracy: 6, "texel behind the card at \(sample.position)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    func testMaskedPixelsNeverColourTheModel() throws {
        let plane = Fixtures.grid(n: 4)
        let pose = Fixtures.camera(at: SIMD3(0, 0, 2), lookingAt: .zero)
        let photo = Fixtures.photo(of: plane.triangleMesh, from: pose, albedo: Self.ramp)
        var mask = GrayImage(width: 320, height: 240, fill: 255)
        for y in 0..<240 { for x in 0..<160 { mask.pixels[y * 320 + x] = 0 } }  // left half is "background"
        let view = BakingView(name: "0", image: photo, intrinsics: Fixtures.intrinsics, cameraFromWorld: pose, mask: mask)
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 32, height: 32))
        let result = DiffuseBaker().bake(surface: surface, views: [view], roughness: false)
        XCTAssertEqual(result.seenFraction, 0.5, accuracy: 0.05, "only the right half of the plane is inside the mask")
    }

    func testRoughnessIsHighForAMatteSurface() throws {
        let plane = Fixtures.grid(n: 4)
        let cameras = [Fixtures.camera(at: SIMD3(-0.3, 0, 2), lookingAt: .zero), Fixtures.camera(at: SIMD3(0.3, 0.1, 2), lookingAt: .zero)]
        let views = Fixtures.views(of: plane.triangleMesh, from: cameras, albedo: Self.ramp)
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 32, height: 32))
        let result = DiffuseBaker().bake(surface: surface, views: views, roughness: true)
        let roughness = try XCTUnwrap(result.roughness)
        let mean = Double(roughness.pixels.reduce(0) { $0 + Int($1) }) / Double(roughness.pixels.count)
        XCTAssertGreaterThan(mean, 240, "an unlit (view-independent) surface is matte")
    }

    /// A greyscale photo among colour ones, though it sees the plane most frontally, does not
    /// grey the texture: the colour photo colours what it sees; the greyscale one only what no
    /// colour photo sees.
    func testAGreyscalePhotoColoursOnlyWhatNoColourPhotoSees() throws {
        let plane = Fixtures.grid(n: 4)
        let cameras = [Fixtures.camera(at: SIMD3(0, 0, 2), lookingAt: .zero), Fixtures.camera(at: SIMD3(0.8, 0.3, 1.8), lookingAt: .zero)]
        var views = Fixtures.views(of: plane.triangleMesh, from: cameras, albedo: Self.ramp)
        XCTAssertFalse(BakingView.looksGreyscale(views[0].image))
        views[0].image.pixels = (0..<(views[0].image.width * views[0].image.height)).flatMap { k -> [UInt8] in
            let p = views[0].image.pixels[(3 * k)..<(3 * k + 3)].map(Int.init)
            return Array(repeating: UInt8((p[0] + p[1] + p[2]) / 3), count: 3)
        }
        XCTAssertTrue(BakingView.looksGreyscale(views[0].image))
        views[0].isGreyscale = true
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 64, height: 64))
        var options = DiffuseBaker.Options()
        options.balanceExposure = false
        let result = DiffuseBaker(options: options).bake(surface: surface, views: views, roughness: false)
        var worst: Float = 0, checked = 0
        for y in 0..<64 {
            for sample in surface.row(y) where max(abs(sample.position.x), abs(sample.position.y)) < 0.45 {
                let expected = Fixtures.encoded(Self.ramp(sample.position, 0))
                let k = (y * 64 + sample.x) * 3
                for c in 0..<3 { worst = max(worst, abs(Float(result.diffuse.pixels[k + c]) - expected[c])) }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertLessThanOrEqual(worst, 6, "largest difference from the true colour, 8-bit levels")

        // Alone (every photo greyscale), it colours the model as before.
        let alone = DiffuseBaker(options: options).bake(surface: surface, views: [views[0]], roughness: false)
        XCTAssertEqual(alone.seenFraction, 1, accuracy: 1e-9)
    }
}
