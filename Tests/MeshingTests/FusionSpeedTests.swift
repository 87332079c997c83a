import Foundation
import Meshing
import ReconstructionCore
import XCTest

/// A realistic size: 11 depth maps of 768 × 512 of a ~4 m scene (wall, floor, a sphere) fused at
/// 1 cm. Checks the surface and prints wall times (no timed assertion).
final class FusionSpeedTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    func testElevenViewsOfAFourMetreSceneAtOneCentimetre() throws {
        let sphereCentre = Vector3(0.2, 1.2, 0.6), sphereRadius = 0.6
        let hits = [
            Fixtures.planeHit(normal: Vector3(0, 1, 0), offset: 2),  // wall y = 2
            Fixtures.planeHit(normal: Vector3(0, 0, 1), offset: 0),  // floor z = 0
            Fixtures.sphereHit(centre: sphereCentre, radius: sphereRadius),
        ]
        let scene = { (o: Vector3, d: Vector3) -> Double? in hits.compactMap { $0(o, d) }.min() }
        let k = CameraIntrinsics(width: 768, height: 512, fx: 700, fy: 700, cx: 384, cy: 256)
        let target = Vector3(0, 1.4, 0.7)
        let views: [(DepthMap, RigidTransform, RGBImage)] = (0..<11).map { i in
            let angle = (-50 + 10 * Double(i)) * Double.pi / 180
            let centre = Vector3(3.5 * sin(angle), 1.4 - 3.5 * cos(angle), 1.5)
            let pose = Fixtures.worldFromCamera(centre: centre, lookingAt: target)
            let depth = Fixtures.renderDepth(k, pose, hit: scene)
            // Colour: red on the sphere, green on the wall, blue on the floor.
            var colour = RGBImage(width: k.width, height: k.height)
            for y in 0..<k.height {
                for x in 0..<k.width where depth[x, y] > 0 {
                    let ray = Vector3((Double(x) + 0.5 - k.cx) / k.fx, (Double(y) + 0.5 - k.cy) / k.fy, 1)
                    let p = pose.apply(Double(depth[x, y]) * ray)
                    let channel = p.distance(to: sphereCentre) < sphereRadius + 0.01 ? 0 : (p.y > 1.99 ? 1 : 2)
                    colour.pixels[3 * (y * k.width + x) + channel] = 255
                }
            }
            return (depth, pose, colour)
        }

        var options = TSDFVolume.Options()
        options.voxelSize = 0.01
        options.bounds = BoundingBox(centre: Vector3(0, 1, 1), halfExtents: Vector3(2, 1.2, 1.2))
        var volume = TSDFVolume(options: options)
        // Wall and process CPU seconds (CPU time stays meaningful when other jobs share the machine).
        func timed<T>(_ body: () throws -> T) rethrows -> (T, wall: Double, cpu: Double) {
            let wall = Date(), cpu = clock()
            let result = try body()
            return (result, Date().timeIntervalSince(wall), Double(clock() - cpu) / Double(CLOCKS_PER_SEC))
        }
        let (_, integrationWall, integrationCPU) = try timed {
            for (depth, pose, colour) in views {
                try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose, colour: colour)
            }
        }
        let (raw, extractionWall, extractionCPU) = timed { MarchingCubes().extractMesh(from: volume) }
        let (cleaned, cleanupWall, cleanupCPU) = timed { MeshCleanup().clean(raw) }
        let mesh = cleaned.mesh
        print(String(format: "fusion of 11 × 768×512 at 1 cm (wall / CPU seconds): integrate %.2f / %.2f, "
                     + "extract %.2f / %.2f, clean %.2f / %.2f; %d blocks, %.0f MB voxels, %d vertices, "
                     + "%d triangles (raw %d)",
                     integrationWall, integrationCPU, extractionWall, extractionCPU, cleanupWall, cleanupCPU,
                     volume.blockCount, Double(volume.voxelMemoryBytes) / 1e6, mesh.vertexCount,
                     mesh.triangleCount, raw.triangleCount))

        XCTAssertGreaterThan(mesh.triangleCount, 100_000)
        let c = Fixtures.simd(sphereCentre)
        let errors = mesh.positions.map { p in
            min(abs(p.y - 2), abs(p.z), abs(simdLength(p - c) - Float(sphereRadius)))
        }.sorted()
        XCTAssertLessThan(errors[errors.count * 99 / 100], 0.002, "99 % of vertices within 2 mm of the scene")
        XCTAssertLessThan(errors.last!, 0.01, "every vertex within a voxel of the scene")
        // Colours came through: vertices on the sphere, away from the floor, are red.
        let onSphere = mesh.positions.indices.filter {
            abs(simdLength(mesh.positions[$0] - c) - Float(sphereRadius)) < 0.002 && mesh.positions[$0].z > 0.1
        }
        XCTAssertGreaterThan(onSphere.count, 1000)
        let red = onSphere.filter { mesh.colors[$0].x > 0.9 && mesh.colors[$0].y < 0.1 }.count
        XCTAssertGreaterThan(Double(red) / Double(onSphere.count), 0.99)
    }
}
