import ReconstructionCore
import Texturing
import XCTest

final class AmbientOcclusionBakerTests: XCTestCase {
    func testAnOpenPlaneIsUnoccluded() throws {
        let plane = Fixtures.grid(n: 2)
        var options = AmbientOcclusionBaker.Options()
        options.raysPerTexel = 8
        let map = try AmbientOcclusionBaker(options: options).bake(mesh: plane, size: 16, rays: BruteForceRays(mesh: plane.triangleMesh))
        XCTAssertEqual(map.pixels.min(), 255)
    }

    func testTheFloorDarkensNearAWall() throws {
        // Floor [−0.5, 0.5]² at z = 0 and a wall at x = 0.5 rising to z = 1 (facing −x).
        var mesh = Fixtures.grid(n: 8)
        let base = UInt32(mesh.positions.count), uvBase = UInt32(mesh.uvs.count)
        mesh.positions += [SIMD3(0.5, -0.5, 0), SIMD3(0.5, 0.5, 0), SIMD3(0.5, 0.5, 1), SIMD3(0.5, -0.5, 1)]
        mesh.normals += Array(repeating: SIMD3(-1, 0, 0), count: 4)
        mesh.triangles += [SIMD3(base, base + 2, base + 1), SIMD3(base, base + 3, base + 2)]
        for k in mesh.uvs.indices { mesh.uvs[k] *= SIMD2(0.6, 1) }  // floor on the left of the atlas
        mesh.uvs += [SIMD2(0.7, 1), SIMD2(0.95, 1), SIMD2(0.95, 0.05), SIMD2(0.7, 0.05)]
        mesh.uvTriangles += [SIMD3(uvBase, uvBase + 2, uvBase + 1), SIMD3(uvBase, uvBase + 3, uvBase + 2)]
        var options = AmbientOcclusionBaker.Options()
        options.raysPerTexel = 32
        options.reachFraction = 1
        let size = 32
        let map = try AmbientOcclusionBaker(options: options).bake(mesh: mesh, size: size, rays: BruteForceRays(mesh: mesh.triangleMesh))
        let texels = AtlasTexelMap(mesh: mesh, width: size, height: size)
        let surface = TexelSurface(mesh: mesh, texels: texels)
        var nearWall: [Int] = [], farFromWall: [Int] = []
        for y in 0..<size {
            for sample in surface.row(y) where sample.triangle < 128 && abs(sample.position.y) < 0.2 {
                if sample.position.x > 0.35 { nearWall.append(Int(map.pixels[y * size + sample.x])) }
                if sample.position.x < -0.35 { farFromWall.append(Int(map.pixels[y * size + sample.x])) }
            }
        }
        XCTAssertFalse(nearWall.isEmpty)
        XCTAssertFalse(farFromWall.isEmpty)
        let near = Double(nearWall.reduce(0, +)) / Double(nearWall.count), far = Double(farFromWall.reduce(0, +)) / Double(farFromWall.count)
        XCTAssertLessThan(near, far - 40, "texels by the wall see less of the sky")
        XCTAssertLessThan(near, 200)
    }
}
