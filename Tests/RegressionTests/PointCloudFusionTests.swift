import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import XCTest

/// Point clouds (a LiDAR scan as PLY) fused into the surface: exact points on a sphere give a
/// sphere of the right radius, with normals estimated when the file has none.
final class PointCloudFusionTests: XCTestCase {
    /// `count` points spread evenly over a sphere (a Fibonacci lattice).
    static func spherePoints(count: Int, centre: SIMD3<Float>, radius: Float) -> [SIMD3<Float>] {
        let golden = Float.pi * (3 - Float(5).squareRoot())
        return (0..<count).map { i in
            let z = 1 - 2 * (Float(i) + 0.5) / Float(count)
            let r = (1 - z * z).squareRoot(), phi = golden * Float(i)
            return centre + radius * SIMD3(r * cos(phi), r * sin(phi), z)
        }
    }

    func testExactSpherePointsFromPLYGiveASphereWithinOnePercent() throws {
        let centre = SIMD3<Float>(0.3, -0.2, 1.1), radius: Float = 0.12
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sphere-\(UUID().uuidString).ply")
        defer { try? FileManager.default.removeItem(at: file) }
        try PLYWriter.write(PointCloud(positions: Self.spherePoints(count: 40_000, centre: centre, radius: radius)), to: file)
        let cloud = try PLYReader.readPointCloud(file)
        XCTAssertFalse(cloud.hasNormals)

        var options = SurfaceReconstruction.Options()
        options.closesOpenings = .never
        let result = try SurfaceReconstruction(options: options).run([], points: [.init(cloud: cloud)])
        let mesh = result.mesh
        XCTAssertGreaterThan(mesh.triangleCount, 1000)
        let radii = mesh.positions.map { simdLength($0 - centre) }
        let mean = radii.reduce(0, +) / Float(radii.count)
        XCTAssertEqual(mean, radius, accuracy: 0.01 * radius)
        XCTAssertLessThan(radii.map { abs($0 - radius) }.max()!, 0.03 * radius)
        XCTAssertLessThan(result.voxelSize, radius / 10, "voxel from the points' spacing")
        // Closed and facing outwards: normals were turned away from the centroid.
        XCTAssertEqual(mesh.boundaryEdgeCount, 0)
        XCTAssertGreaterThan(mesh.signedVolume, 0)
    }

    /// A scan takes in the floor around the object; the masks keep it out of the depth maps, and
    /// they keep it out of the points too: points outside the masks' visual hull are left out,
    /// also when the scan is all there is (no depth maps).
    func testPointsOutsideTheMasksHullAreLeftOut() throws {
        let centre = SIMD3<Float>(0, 0, 0.12), radius: Float = 0.1
        var points = Self.spherePoints(count: 20_000, centre: centre, radius: radius).filter { $0.z > 0.025 }
        let grid: [SIMD3<Float>] = (0..<(120 * 120)).map { (i: Int) -> SIMD3<Float> in
            let x = Float(i % 120) * 0.01 - 0.6, y = Float(i / 120) * 0.01 - 0.6
            return SIMD3<Float>(x, y, 0.02)
        }
        let floor = grid.filter { p in (p.x * p.x + p.y * p.y).squareRoot() > 0.06 }
        points += floor
        let intrinsics = CameraIntrinsics(width: 160, height: 120, fx: 150, fy: 150, cx: 80, cy: 60)
        let silhouettes = (0..<12).map { k -> SurfaceReconstruction.Silhouette in
            let a = 2 * Double.pi * Double(k) / 12
            let camera = Vector3(0.9 * cos(a), 0.9 * sin(a), 0.5), target = Vector3(0, 0, 0.12)
            let forward = (target - camera).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
            let rotation = Matrix3(rows: right, forward.cross(right), forward).transposed  // world from camera
            let c = Vector3(Double(centre.x), Double(centre.y), Double(centre.z))
            let toCentre = c - camera
            let mask = (0..<(160 * 120)).map { i -> UInt8 in
                let x: Double = (Double(i % 160) + 0.5 - 80) / 150, y: Double = (Double(i / 160) + 0.5 - 60) / 150
                let ray = (rotation * Vector3(x, y, 1)).normalized
                let miss: Vector3 = toCentre - toCentre.dot(ray) * ray
                return miss.length < Double(radius) ? 255 : 0
            }
            return .init(mask: GrayImage(width: 160, height: 120, pixels: mask), intrinsics: intrinsics,
                         worldFromCamera: RigidTransform(rotation: rotation, translation: camera))
        }
        let options = SurfaceReconstruction.Options()
        let cloud = SurfaceReconstruction.PointInput(cloud: PointCloud(positions: points), viewpoints: silhouettes.map {
            SIMD3(Float($0.worldFromCamera.translation.x), Float($0.worldFromCamera.translation.y), Float($0.worldFromCamera.translation.z))
        })
        func reach(_ mesh: TriangleMesh) -> Float { mesh.positions.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }.max() ?? 0 }

        let unmasked = try SurfaceReconstruction(options: options).run([], points: [cloud])
        XCTAssertGreaterThan(reach(unmasked.mesh), 0.4, "the control: without masks the floor is meshed")
        let masked = try SurfaceReconstruction(options: options).run([], points: [cloud], silhouettes: silhouettes)
        XCTAssertGreaterThan(masked.pointsOutsideSilhouettes, floor.count * 9 / 10)
        XCTAssertLessThan(reach(masked.mesh), radius * 1.3, "only the object and the floor just under it")
        let radii = masked.mesh.positions.filter { $0.z > 0.06 }.map { simdLength($0 - centre) }
        XCTAssertEqual(radii.reduce(0, +) / Float(radii.count), radius, accuracy: 0.05 * radius)

        // One mask that slipped (the object's upper half missing from it) does not carve the object:
        // two photos must see a point off the silhouette.
        var slipped = silhouettes
        let first = slipped[0].mask
        slipped[0].mask = GrayImage(width: first.width, height: first.height,
                                    pixels: first.pixels.enumerated().map { $0.offset / first.width < 60 ? 0 : $0.element })
        let kept = try SurfaceReconstruction(options: options).run([], points: [cloud], silhouettes: slipped)
        let top = centre.z + radius
        XCTAssertEqual(kept.mesh.positions.map(\.z).max() ?? 0, top, accuracy: 0.1 * radius, "the top is still there")
        XCTAssertEqual(Double(kept.pointsOutsideSilhouettes), Double(masked.pointsOutsideSilhouettes), accuracy: Double(floor.count) / 50)

        // A cloud wholly outside the masks' hull (another frame) is an error that says so.
        var elsewhere = cloud
        elsewhere.cloud = PointCloud(positions: points.map { $0 + SIMD3<Float>(5, 0, 0) })
        XCTAssertThrowsError(try SurfaceReconstruction(options: options).run([], points: [elsewhere], silhouettes: silhouettes)) { error in
            XCTAssertTrue("\(error)".contains("lie outside the masks' visual hull"), "\(error)")
        }
    }

    func testEstimatedNormalsFaceTheViewpoints() {
        // A plane z = 0 seen from above: normals +z; seen from below: −z.
        let points = (0..<400).map { i in SIMD3<Float>(Float(i % 20) * 0.01, Float(i / 20) * 0.01, 0) }
        let cloud = PointCloud(positions: points)
        let up = cloud.withEstimatedNormals(towards: [SIMD3(0.1, 0.1, 1)])
        XCTAssertTrue(up.normals.allSatisfy { $0.z > 0.99 })
        let down = cloud.withEstimatedNormals(towards: [SIMD3(0.1, 0.1, -1)])
        XCTAssertTrue(down.normals.allSatisfy { $0.z < -0.99 })
        XCTAssertEqual(cloud.medianSpacing() ?? 0, 0.01, accuracy: 1e-4)
    }
}

extension TriangleMesh {
    /// Directed edges without their reverse.
    var boundaryEdgeCount: Int {
        var directed = Set<SIMD2<UInt32>>()
        for t in triangles { directed.formUnion([SIMD2(t.x, t.y), SIMD2(t.y, t.z), SIMD2(t.z, t.x)]) }
        return directed.filter { !directed.contains(SIMD2($0.y, $0.x)) }.count
    }

    /// Enclosed volume (positive when the triangles face outwards), cubic metres.
    var signedVolume: Double {
        triangles.indices.reduce(0.0) { sum, i in
            let (a, b, c) = corners(of: i)
            return sum + Double(simdDot(a, simdCross(b, c))) / 6
        }
    }
}
