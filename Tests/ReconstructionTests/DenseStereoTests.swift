import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The whole dense stage on rendered views of a known scene: planning from sparse points, the
/// coarse, photometric and geometric passes, filtering and fusion.
final class DenseStereoTests: XCTestCase {
    /// Rendered views (as pixels) and sparse points sampled from the scene where cameras see it.
    static func input(_ scene: StereoTestScene, masks: [Int: GrayImage] = [:]) -> DenseStereo.Input {
        let k = scene.intrinsics
        let views = scene.cameraFromWorld.indices.map { c in
            DenseStereo.View(name: "view\(c)", image: .pixels(scene.renderRGB(camera: c)), intrinsics: k,
                             worldFromCamera: scene.cameraFromWorld[c].inverse, mask: masks[c])
        }
        var points: [DenseStereo.SparsePoint] = []
        for y in stride(from: 5, to: k.height, by: 10) {
            for x in stride(from: 5, to: k.width, by: 10) {
                guard let hit = scene.hit(camera: 0, x: Double(x) + 0.5, y: Double(y) + 0.5) else { continue }
                let seenBy = scene.cameraFromWorld.indices.filter { c in
                    let p = scene.cameraFromWorld[c].apply(hit.point)
                    guard let pixel = k.project(p), pixel.x >= 0, pixel.y >= 0, pixel.x < Double(k.width), pixel.y < Double(k.height),
                          let seen = scene.hit(camera: c, x: pixel.x, y: pixel.y) else { return false }
                    return abs(seen.depth - p.z) < 1e-6 * p.z + 1e-9
                }
                points.append(DenseStereo.SparsePoint(position: hit.point, viewIndices: seenBy))
            }
        }
        return DenseStereo.Input(views: views, points: points)
    }

    static func options() -> DenseStereo.Options {
        var options = DenseStereo.Options()
        options.workers = 2
        // Five views: each has four neighbours, so ask for three agreeing views in fusion.
        options.fusion.minViews = 3
        return options
    }

    func testDepthMapsAndFusedPointsMatchTheScene() throws {
        let scene = StereoTestScene.boxCorner()
        let result = try DenseStereo(options: Self.options()).run(Self.input(scene))
        XCTAssertEqual(result.views.count, 5)
        XCTAssertEqual(result.inputIndices, [0, 1, 2, 3, 4])
        XCTAssertTrue(result.skippedViews.isEmpty)

        let truth = scene.trueDepth(camera: 0)
        let view = result.views[0]
        XCTAssertEqual(view.intrinsics, scene.intrinsics)
        XCTAssertEqual(view.neighbours.count, 4, "every other view shares points at usable angles")
        let valid = view.depth.metres.indices.filter { view.depth.metres[$0] > 0 }
        let within = valid.filter { abs(view.depth.metres[$0] - truth.metres[$0]) <= 0.005 * truth.metres[$0] }
        print("dense stereo view 0: \(valid.count) depths, \(within.count) within 0.5 %; \(result.pointCloud.count) points")
        XCTAssertGreaterThan(Double(valid.count), 0.75 * Double(truth.metres.count), "filtered depth map stays dense")
        XCTAssertGreaterThanOrEqual(Double(within.count), 0.98 * Double(valid.count))
        XCTAssertTrue(valid.allSatisfy { view.confidence[$0] > 0 && view.confidence[$0] <= 1 })
        XCTAssertTrue(view.depth.metres.indices.allSatisfy { view.depth.metres[$0] > 0 || view.confidence[$0] == 0 })

        let cloud = result.pointCloud
        XCTAssertGreaterThan(cloud.count, 5000)
        XCTAssertTrue(cloud.hasNormals && cloud.hasColors)
        // Distance to the surface relative to the distance from the reference camera (4–7 m).
        let relative = cloud.positions.map {
            DepthMapFusionTests.distanceToScene($0, scene) / Double(($0 * $0).sum().squareRoot())
        }.sorted()
        print("fused points: median relative distance \(relative[relative.count / 2]), 99th percentile \(relative[relative.count * 99 / 100])")
        XCTAssertLessThan(relative[relative.count / 2], 0.001)
        XCTAssertLessThan(relative[relative.count * 99 / 100], 0.01, "99 % of the points within 1 % of their distance")
    }

    func testMaskRestrictsDepthToTheMaskedPart() throws {
        let scene = StereoTestScene.slantedPlane(width: 160, height: 120)
        var mask = GrayImage(width: 160, height: 120)
        for y in 0..<120 {
            for x in 0..<80 { mask.pixels[y * 160 + x] = 255 }
        }
        let result = try DenseStereo(options: Self.options()).run(Self.input(scene, masks: [0: mask]))
        let view = result.views[0]
        let left = (0..<120).flatMap { y in (0..<80).map { y * 160 + $0 } }.filter { view.depth.metres[$0] > 0 }.count
        let right = (0..<120).flatMap { y in (80..<160).map { y * 160 + $0 } }.filter { view.depth.metres[$0] > 0 }.count
        XCTAssertEqual(right, 0, "nothing outside the mask")
        XCTAssertGreaterThan(left, 80 * 120 / 2)
    }

    func testViewsWithoutSparsePointsUseTheFallbackRangeOrAreSkipped() throws {
        let scene = StereoTestScene.slantedPlane(width: 120, height: 90)
        var input = Self.input(scene)
        input.points = []
        XCTAssertThrowsError(try DenseStereo(options: Self.options()).run(input)) { error in
            XCTAssertTrue("\(error)".contains("no depth range"), "\(error)")
        }
        var options = Self.options()
        options.fallbackDepthRange = 2...12
        let result = try DenseStereo(options: options).run(input)
        XCTAssertEqual(result.views.count, 5)
        XCTAssertGreaterThan(result.pointCloud.count, 1000)
    }

    /// Photos from a camera with radial distortion are undistorted first: the depth maps are
    /// those of the pinhole camera with the same focal length and principal point.
    func testDistortedPhotosGiveUndistortedDepthMaps() throws {
        var scene = StereoTestScene.slantedPlane(width: 160, height: 120)
        scene.intrinsics.k1 = -0.08
        scene.intrinsics.k2 = 0.01
        var input = Self.input(scene)
        input.points = Self.input({ var pinhole = scene; pinhole.intrinsics.k1 = 0; pinhole.intrinsics.k2 = 0; return pinhole }()).points
        let result = try DenseStereo(options: Self.options()).run(input)
        let view = result.views[0]
        XCTAssertFalse(view.intrinsics.hasDistortion)
        XCTAssertEqual(view.intrinsics.fx, scene.intrinsics.fx)
        var pinhole = scene
        pinhole.intrinsics.k1 = 0
        pinhole.intrinsics.k2 = 0
        let truth = pinhole.trueDepth(camera: 0)
        let valid = view.depth.metres.indices.filter { view.depth.metres[$0] > 0 }
        let within = valid.filter { abs(view.depth.metres[$0] - truth.metres[$0]) <= 0.005 * truth.metres[$0] }
        XCTAssertGreaterThan(valid.count, truth.metres.count / 2)
        XCTAssertGreaterThanOrEqual(Double(within.count), 0.97 * Double(valid.count))
    }

    /// A working size that is not a power-of-two reduction (240 × 180 → 160 × 120) keeps the
    /// geometry exact: depths match the truth of the camera at the reported intrinsics.
    func testAreaResampledWorkingSizeKeepsGeometry() throws {
        let scene = StereoTestScene.slantedPlane(width: 240, height: 180)
        var options = Self.options()
        options.maxImageDimension = 160
        let result = try DenseStereo(options: options).run(Self.input(scene))
        let view = result.views[0]
        XCTAssertEqual(view.depth.width, 160)
        XCTAssertEqual(view.depth.height, 120)
        XCTAssertEqual(view.intrinsics.fx, scene.intrinsics.fx * 2 / 3, accuracy: 1e-9)
        var atWorkingSize = scene
        atWorkingSize.intrinsics = view.intrinsics
        let truth = atWorkingSize.trueDepth(camera: 0)
        let valid = view.depth.metres.indices.filter { view.depth.metres[$0] > 0 }
        let within = valid.filter { abs(view.depth.metres[$0] - truth.metres[$0]) <= 0.005 * truth.metres[$0] }
        XCTAssertGreaterThan(valid.count, truth.metres.count / 2)
        XCTAssertGreaterThanOrEqual(Double(within.count), 0.97 * Double(valid.count))
    }

    /// Input from a structure-from-motion result: registered images only, points re-indexed.
    func testInputFromSparseSceneKeepsRegisteredImagesAndReindexesTracks() {
        let k = CameraIntrinsics(width: 100, height: 80, fx: 90, fy: 90, cx: 50, cy: 40)
        let pose = RigidTransform(rotation: .identity, translation: Vector3(0.5, 0, 1))
        func image(_ name: String, _ cameraFromWorld: RigidTransform?) -> SparseScene.Image {
            SparseScene.Image(name: name, intrinsics: k, intrinsicsSource: .given, cameraFromWorld: cameraFromWorld,
                              unregisteredReason: cameraFromWorld == nil ? "not registered" : nil, keypoints: [],
                              pointIndexOfKeypoint: [])
        }
        let scene = SparseScene(
            images: [image("a.jpg", .identity), image("b.jpg", nil), image("c.jpg", pose)],
            points: [SparseScene.Point(position: Vector3(0, 0, 5), rgb: (1, 2, 3), meanReprojectionErrorPixels: 0.5,
                                       track: [.init(imageIndex: 0, keypointIndex: 0), .init(imageIndex: 1, keypointIndex: 0),
                                               .init(imageIndex: 2, keypointIndex: 0)])])
        let input = DenseStereo.Input(scene: scene, imagesDirectory: URL(fileURLWithPath: "/photos"), masks: ["c.jpg": GrayImage(width: 2, height: 2)])
        XCTAssertEqual(input.views.map(\.name), ["a.jpg", "c.jpg"])
        XCTAssertEqual(input.views[1].worldFromCamera.translation, pose.inverse.translation)
        XCTAssertNil(input.views[0].mask)
        XCTAssertNotNil(input.views[1].mask)
        guard case .file(let url) = input.views[1].image else { return XCTFail("expected a file") }
        XCTAssertEqual(url.path, "/photos/c.jpg")
        XCTAssertEqual(input.points.map(\.viewIndices), [[0, 1]])
    }
}
