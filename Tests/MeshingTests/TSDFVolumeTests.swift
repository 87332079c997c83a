import Meshing
import ReconstructionCore
import XCTest

final class TSDFVolumeTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    func testFusedSphereDepthMapsGiveAClosedOutwardSphereWithinOnePercentOfTheRadius() throws {
        let centre = Vector3(0.013, -0.021, 0.007), radius = 0.25
        let k = CameraIntrinsics(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)
        var options = TSDFVolume.Options()
        options.voxelSize = 0.005
        var volume = TSDFVolume(options: options)
        for (depth, pose) in Fixtures.sphereViews(centre: centre, radius: radius, cameraCount: 20, distance: 1, intrinsics: k) {
            let report = try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose)
            XCTAssertGreaterThan(report.usedObservations, 1000)
        }
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 5000)

        let c = Fixtures.simd(centre)
        let distances = mesh.positions.map { Double(simdLength($0 - c)) }
        let mean = distances.reduce(0, +) / Double(distances.count)
        let worst = distances.map { abs($0 - radius) }.max() ?? .infinity
        XCTAssertEqual(mean, radius, accuracy: 0.01 * radius)
        XCTAssertLessThan(worst, 0.2 * Double(options.voxelSize), "max deviation from the sphere, metres")

        let defects = Fixtures.edgeDefects(mesh)
        XCTAssertEqual(defects.openOrNonManifold, 0, "every edge is shared by exactly two triangles")
        XCTAssertEqual(defects.misoriented, 0, "neighbouring triangles are consistently oriented")
        let sphereVolume = 4.0 / 3.0 * Double.pi * radius * radius * radius
        XCTAssertEqual(Fixtures.signedVolume(mesh), sphereVolume, accuracy: 0.03 * sphereVolume)

        // Normals point away from the centre.
        XCTAssertTrue(mesh.hasNormals)
        let outward = zip(mesh.positions, mesh.normals).filter { simdDot($0.1, $0.0 - c) > 0 }.count
        XCTAssertEqual(outward, mesh.vertexCount)
    }

    func testDistancesAlongTheNormalMakeViewsAgreeOnExactDepth() throws {
        let centre = Vector3(0.013, -0.021, 0.007), radius = 0.25
        let k = CameraIntrinsics(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)
        var options = TSDFVolume.Options()
        options.voxelSize = 0.005
        options.measuresDistanceAlongNormal = true
        var volume = TSDFVolume(options: options)
        for (depth, pose) in Fixtures.sphereViews(centre: centre, radius: radius, cameraCount: 20, distance: 1, intrinsics: k) {
            try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose)
        }
        let mesh = MarchingCubes().extractMesh(from: volume)
        let c = Fixtures.simd(centre)
        let worst = mesh.positions.map { abs(Double(simdLength($0 - c)) - radius) }.max() ?? .infinity
        XCTAssertLessThan(worst, 0.02 * Double(options.voxelSize))
        XCTAssertEqual(Fixtures.edgeDefects(mesh).openOrNonManifold, 0)
    }

    func testNoisyDepthMapsAverageToTheSphere() throws {
        let centre = Vector3(0.013, -0.021, 0.007), radius = 0.25
        let k = CameraIntrinsics(width: 320, height: 240, fx: 300, fy: 300, cx: 160, cy: 120)
        var options = TSDFVolume.Options()
        options.voxelSize = 0.005
        var volume = TSDFVolume(options: options)
        var random = SeededGaussian(seed: 7)
        for (clean, pose) in Fixtures.sphereViews(centre: centre, radius: radius, cameraCount: 20, distance: 1, intrinsics: k) {
            var depth = clean
            for i in depth.metres.indices where depth.metres[i] > 0 {
                depth.metres[i] += Float(0.002 * random.next())  // σ = 2 mm, 0.4 voxel
            }
            try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose)
        }
        let mesh = MeshCleanup().clean(MarchingCubes().extractMesh(from: volume)).mesh
        let c = Fixtures.simd(centre)
        let errors = mesh.positions.map { Double(simdLength($0 - c)) - radius }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        XCTAssertEqual(mean, 0, accuracy: 0.0005, "no bias beyond 0.5 mm")
        XCTAssertLessThan(rms, 0.001, "20 views average 2 mm noise down")
        XCTAssertEqual(Fixtures.edgeDefects(mesh).openOrNonManifold, 0)
        let sphereVolume = 4.0 / 3.0 * Double.pi * radius * radius * radius
        XCTAssertEqual(Fixtures.signedVolume(mesh), sphereVolume, accuracy: 0.03 * sphereVolume)
    }

    func testPlaneVerticesLieOnThePlaneAndCarryTheColourOfTheImage() throws {
        let k = CameraIntrinsics(width: 256, height: 192, fx: 240, fy: 240, cx: 128, cy: 96)
        var options = TSDFVolume.Options()
        options.voxelSize = 0.01
        var volume = TSDFVolume(options: options)
        let red = RGBImage(width: 512, height: 384, fill: (255, 0, 0))  // twice the depth map's resolution
        let planeHeight = 0.0123
        let cameras = [Vector3(0.01, 0.02, 1.2), Vector3(0.5, 0, 1), Vector3(-0.3, 0.4, 1.1)]
        for centre in cameras {
            let pose = Fixtures.worldFromCamera(centre: centre, lookingAt: Vector3(0, 0, planeHeight), up: Vector3(0, 1, 0))
            let depth = Fixtures.renderDepth(k, pose, hit: Fixtures.planeHit(normal: Vector3(0, 0, 1), offset: planeHeight))
            try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose, colour: red)
        }
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 1000)
        let worst = mesh.positions.map { abs(Double($0.z) - planeHeight) }.max() ?? .infinity
        XCTAssertLessThan(worst, 0.1 * Double(options.voxelSize), "vertices on the plane, metres")
        XCTAssertTrue(mesh.hasColors)
        for colour in mesh.colors {
            XCTAssertEqual(colour.x, 1, accuracy: 0.01)
            XCTAssertEqual(colour.y, 0, accuracy: 0.01)
            XCTAssertEqual(colour.z, 0, accuracy: 0.01)
        }
        // The plane faces the cameras (+z): triangles are counter-clockwise seen from above.
        let normals = mesh.computedVertexNormals()
        XCTAssertTrue(normals.allSatisfy { $0.z > 0.99 })
    }

    func testInconsistentDepthMapsMeetAtTheWeightedMeanDepth() throws {
        let k = CameraIntrinsics(width: 160, height: 120, fx: 200, fy: 200, cx: 80, cy: 60)
        var options = TSDFVolume.Options()
        options.voxelSize = 0.01
        options.truncationInVoxels = 20  // both observations reach the voxels between them
        var volume = TSDFVolume(options: options)
        let pose = Fixtures.worldFromCamera(centre: Vector3(0, 0, 1), lookingAt: Vector3(0, 0, 0), up: Vector3(0, 1, 0))
        let near = Fixtures.renderDepth(k, pose, hit: Fixtures.planeHit(normal: Vector3(0, 0, 1), offset: 0.1))
        let far = Fixtures.renderDepth(k, pose, hit: Fixtures.planeHit(normal: Vector3(0, 0, 1), offset: 0))
        let pixels = k.width * k.height
        try volume.integrate(depth: far, weights: [Float](repeating: 1, count: pixels), intrinsics: k, worldFromCamera: pose)
        try volume.integrate(depth: near, weights: [Float](repeating: 9, count: pixels), intrinsics: k, worldFromCamera: pose)
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 100)
        let heights = mesh.positions.map { Double($0.z) }
        let mean = heights.reduce(0, +) / Double(heights.count)
        XCTAssertEqual(mean, 0.09, accuracy: 0.001, "0.1 × 0 m + 0.9 × 0.1 m")
        XCTAssertLessThan(heights.map { abs($0 - 0.09) }.max() ?? 1, 0.002)
    }

    func testEmptyNaNNegativeAndInfiniteDepthsAreIgnored() throws {
        var volume = TSDFVolume()
        let empty = try volume.integrate(depth: DepthMap(width: 0, height: 0, metres: []),
                                         intrinsics: CameraIntrinsics(width: 0, height: 0, fx: 1, fy: 1, cx: 0, cy: 0),
                                         worldFromCamera: .identity)
        XCTAssertEqual(empty.usedObservations, 0)
        let k = CameraIntrinsics(width: 64, height: 48, fx: 60, fy: 60, cx: 32, cy: 24)
        let nothing = try volume.integrate(depth: DepthMap(width: 64, height: 48), intrinsics: k, worldFromCamera: .identity)
        XCTAssertEqual(nothing.usedObservations, 0)
        XCTAssertEqual(volume.blockCount, 0)
        XCTAssertEqual(MarchingCubes().extractMesh(from: volume).triangleCount, 0)

        // A plane at z = 1 in front of the identity camera, one pixel in 37 spoilt, one weight in 53.
        var depth = DepthMap(width: 64, height: 48, metres: [Float](repeating: 1, count: 64 * 48))
        let spoilers: [Float] = [.nan, -1, .infinity, -.infinity, 0, .signalingNaN, -.nan]
        var spoilt = Set<Int>()
        for i in stride(from: 0, to: depth.metres.count, by: 37) {
            depth.metres[i] = spoilers[(i / 37) % spoilers.count]
            spoilt.insert(i)
        }
        var weights = [Float](repeating: 1, count: 64 * 48)
        for i in stride(from: 1, to: weights.count, by: 53) {
            weights[i] = [Float.nan, -2, 0, .infinity][(i / 53) % 4]
            spoilt.insert(i)
        }
        let report = try volume.integrate(depth: depth, weights: weights, intrinsics: k, worldFromCamera: .identity)
        XCTAssertEqual(report.usedObservations, 64 * 48 - spoilt.count)
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 100)
        for p in mesh.positions {
            XCTAssertTrue(p.x.isFinite && p.y.isFinite && p.z.isFinite)
            XCTAssertEqual(p.z, 1, accuracy: 0.002)
        }
    }

    func testMismatchedInputsAndBrokenCamerasAreRejected() {
        var volume = TSDFVolume()
        let k = CameraIntrinsics(width: 64, height: 48, fx: 60, fy: 60, cx: 32, cy: 24)
        let depth = DepthMap(width: 64, height: 48, metres: [Float](repeating: 1, count: 64 * 48))
        XCTAssertThrowsError(try volume.integrate(depth: depth, weights: [1, 2, 3], intrinsics: k, worldFromCamera: .identity)) {
            XCTAssertEqual($0 as? TSDFVolume.IntegrationError, .weightCountMismatch(weights: 3, pixels: 64 * 48))
        }
        XCTAssertThrowsError(try volume.integrate(depth: depth, intrinsics: k.scaled(toWidth: 32, height: 24), worldFromCamera: .identity))
        var broken = RigidTransform.identity
        broken.translation = Vector3(.nan, 0, 0)
        XCTAssertThrowsError(try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: broken)) {
            XCTAssertEqual($0 as? TSDFVolume.IntegrationError, .invalidCamera)
        }
        var zeroFocal = k
        zeroFocal.fx = 0
        XCTAssertThrowsError(try volume.integrate(depth: depth, intrinsics: zeroFocal, worldFromCamera: .identity))
        XCTAssertEqual(volume.blockCount, 0)
    }

    func testMaskedPixelsAndVoxelsOutsideTheBoundsAreNotIntegrated() throws {
        let k = CameraIntrinsics(width: 100, height: 100, fx: 100, fy: 100, cx: 50, cy: 50)
        let depth = DepthMap(width: 100, height: 100, metres: [Float](repeating: 1, count: 100 * 100))
        // A mask at another resolution that keeps only the left half of the image (x < 0 in the world).
        var mask = GrayImage(width: 50, height: 20, fill: 0)
        for y in 0..<20 { for x in 0..<25 { mask.pixels[y * 50 + x] = 255 } }
        var masked = TSDFVolume()
        try masked.integrate(depth: depth, intrinsics: k, worldFromCamera: .identity, mask: mask)
        let maskedMesh = MarchingCubes().extractMesh(from: masked)
        XCTAssertGreaterThan(maskedMesh.triangleCount, 100)
        XCTAssertLessThan(maskedMesh.bounds!.max.x, 0.02)

        var options = TSDFVolume.Options()
        options.bounds = BoundingBox(centre: Vector3(0.1, 0.1, 1), halfExtents: Vector3(0.1, 0.1, 0.1))
        var bounded = TSDFVolume(options: options)
        try bounded.integrate(depth: depth, intrinsics: k, worldFromCamera: .identity)
        let boundedMesh = MarchingCubes().extractMesh(from: bounded)
        XCTAssertGreaterThan(boundedMesh.triangleCount, 50)
        let box = boundedMesh.bounds!
        XCTAssertGreaterThanOrEqual(box.min.x, -0.001)
        XCTAssertLessThanOrEqual(box.max.x, 0.201)
        XCTAssertGreaterThanOrEqual(box.min.y, -0.001)
        XCTAssertLessThanOrEqual(box.max.y, 0.201)
        XCTAssertLessThan(bounded.blockCount, 20)
    }

    func testVoxelQueriesReportObservedDistances() throws {
        let k = CameraIntrinsics(width: 64, height: 64, fx: 64, fy: 64, cx: 32, cy: 32)
        let depth = DepthMap(width: 64, height: 64, metres: [Float](repeating: 1, count: 64 * 64))
        var volume = TSDFVolume()
        try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: .identity)
        // Voxel centre on the optical axis 1.5 cm in front of the surface.
        let inFront = try XCTUnwrap(volume.voxel(containing: SIMD3(0.001, 0.001, 0.985)))
        XCTAssertEqual(inFront.distance, 0.015, accuracy: 1e-4)
        XCTAssertGreaterThan(inFront.weight, 0)
        let behind = try XCTUnwrap(volume.voxel(containing: SIMD3(0.001, 0.001, 1.025)))
        XCTAssertEqual(behind.distance, -0.025, accuracy: 1e-4)
        // Far behind the surface: beyond the truncation band, never updated.
        XCTAssertEqual(volume.voxel(containing: SIMD3(0.001, 0.001, 1.3))?.weight ?? 0, 0)
        XCTAssertNil(volume.voxel(containing: SIMD3(5, 5, 5)))
    }

    func testACopiedVolumeIsIndependentOfTheOriginal() throws {
        let k = CameraIntrinsics(width: 64, height: 64, fx: 64, fy: 64, cx: 32, cy: 32)
        let near = DepthMap(width: 64, height: 64, metres: [Float](repeating: 1, count: 64 * 64))
        let far = DepthMap(width: 64, height: 64, metres: [Float](repeating: 1.02, count: 64 * 64))
        var original = TSDFVolume()
        try original.integrate(depth: near, intrinsics: k, worldFromCamera: .identity)
        let before = original.voxel(containing: SIMD3(0.001, 0.001, 0.985))
        var copy = original
        try copy.integrate(depth: far, intrinsics: k, worldFromCamera: .identity)
        XCTAssertEqual(original.voxel(containing: SIMD3(0.001, 0.001, 0.985)), before)
        XCTAssertNotEqual(copy.voxel(containing: SIMD3(0.001, 0.001, 0.985)), before)
        XCTAssertGreaterThan(copy.blockCount, 0)
    }
}
