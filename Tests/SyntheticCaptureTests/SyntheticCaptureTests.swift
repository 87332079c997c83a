import ReconstructionCore
import Rendering
import SyntheticCapture
import XCTest

final class SyntheticCaptureTests: XCTestCase {
    func testSameSeedGivesIdenticalViewsOnAnyThreadAndAnotherSeedDiffers() {
        let settings = SyntheticCapture.Settings(scene: .flipObject, views: 8, seed: 42, imageWidth: 320, imageHeight: 240)
        let capture = SyntheticCapture(settings: settings)
        let sequential = (0..<8).map { capture.view(at: $0) }
        let parallel = parallelMap(8, workers: 3) { capture.view(at: 7 - $0) }.reversed()
        XCTAssertEqual(sequential, Array(parallel))
        XCTAssertEqual(SyntheticCapture(settings: settings).view(at: 5), sequential[5])

        var other = settings
        other.seed = 43
        let different = SyntheticCapture(settings: other).view(at: 5)
        XCTAssertNotEqual(different.worldFromCamera, sequential[5].worldFromCamera)
        XCTAssertNotEqual(different.image.pixels, sequential[5].image.pixels)
        XCTAssertNotEqual(different.depth.metres, sequential[5].depth.metres)
    }

    func testPhotoIntrinsicsArePinholeAtTheImageCentreAndDepthIsAQuarterSize() {
        let capture = SyntheticCapture(scene: .plainBox, views: 3, imageWidth: 1024, imageHeight: 768)
        XCTAssertEqual(capture.intrinsics, CameraIntrinsics(width: 1024, height: 768, fx: 921.6, fy: 921.6, cx: 512, cy: 384))
        XCTAssertEqual(capture.depthIntrinsics.width, 256)
        XCTAssertEqual(capture.depthIntrinsics.height, 192)
        XCTAssertEqual(capture.depthIntrinsics.fx, 230.4, accuracy: 1e-9)
        XCTAssertEqual(capture.depthIntrinsics.cx, 128, accuracy: 1e-9)
    }

    func testMasksAreTheProjectedGroundTruthMeshInEveryViewOfEveryScene() {
        for scene in SyntheticSceneKind.allCases {
            let capture = SyntheticCapture(scene: scene, views: 12, seed: 3, imageWidth: 256, imageHeight: 192)
            for index in 0..<capture.viewCount {
                let view = capture.view(at: index)
                let truth = MeshRasterizer().geometry(
                    of: capture.objectMesh, intrinsics: capture.intrinsics, cameraFromWorld: view.worldFromCamera.inverse)
                let projected = truth.mask()
                let objectPixels = view.mask.pixels.filter { $0 == 255 }.count
                XCTAssertGreaterThan(objectPixels, 256 * 192 / 50, "\(scene) view \(index) barely shows the object")
                let disagreements = zip(projected.pixels, view.mask.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(disagreements, 0, "\(scene) view \(index)")
                // The object is in the middle of the frame and not cut by its edges.
                XCTAssertTrue((0..<256).allSatisfy { view.mask.pixels[$0] == 0 && view.mask.pixels[191 * 256 + $0] == 0 })
                XCTAssertTrue((0..<192).allSatisfy { view.mask.pixels[$0 * 256] == 0 && view.mask.pixels[$0 * 256 + 255] == 0 })
            }
        }
    }

    func testLiDARDepthAgreesWithTheGroundTruthMeshWithinTheNoiseModel() {
        for scene in SyntheticSceneKind.allCases {
            let capture = SyntheticCapture(scene: scene, views: 10, seed: 11, imageWidth: 512, imageHeight: 384)
            let model = capture.settings.lidar
            var normalised: [Double] = []
            var valid = 0, total = 0
            for index in 0..<capture.viewCount {
                let view = capture.view(at: index)
                XCTAssertEqual(view.depth.width, 128)
                XCTAssertEqual(view.depth.height, 96)
                let truth = MeshRasterizer().geometry(
                    of: capture.objectMesh, intrinsics: capture.depthIntrinsics, cameraFromWorld: view.worldFromCamera.inverse)
                for k in 0..<truth.depth.count {
                    let measured = view.depth.metres[k]
                    // No return exactly where confidence is low.
                    XCTAssertEqual(measured == 0, view.confidence.pixels[k] == LiDARModel.Confidence.low.rawValue)
                    XCTAssertLessThanOrEqual(view.confidence.pixels[k], 2)
                    guard truth.triangleIndex[k] >= 0 else { continue }
                    total += 1
                    guard measured > 0 else { continue }
                    valid += 1
                    let d = truth.depth[k]
                    normalised.append(Double((measured - d) / model.noiseSigma(atDepth: d)))
                }
            }
            XCTAssertGreaterThan(Double(valid), 0.8 * Double(total), "\(scene): most object pixels have a return")
            XCTAssertLessThan(Double(valid), 0.995 * Double(total), "\(scene): some returns are lost")
            let within = normalised.filter { abs($0) < 4 }.count
            XCTAssertGreaterThanOrEqual(Double(within), 0.99 * Double(normalised.count), "\(scene)")
            let mean = normalised.reduce(0, +) / Double(normalised.count)
            let deviation = (normalised.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(normalised.count)).squareRoot()
            XCTAssertEqual(mean, 0, accuracy: 0.1, "\(scene)")
            XCTAssertEqual(deviation, 1, accuracy: 0.1, "\(scene)")
        }
    }

    func testGravityIsPhysicalDownInTheCameraFrame() {
        let capture = SyntheticCapture(scene: .flipObject, views: 20, seed: 5, imageWidth: 64, imageHeight: 48)
        XCTAssertEqual(capture.shots.filter { $0.pass == 0 }.count, 10)
        XCTAssertEqual(capture.shots.filter { $0.pass == 1 }.count, 10)
        for shot in capture.shots {
            XCTAssertEqual(shot.gravity.length, 1, accuracy: 1e-12)
            // Upright cameras: physical down points down the image, with little sideways roll.
            XCTAssertGreaterThan(shot.gravity.y, 0.4)
            XCTAssertLessThan(abs(shot.gravity.x), 0.05)
            let objectDown = shot.cameraFromWorld.rotation * Vector3(0, 0, -1)
            if shot.pass == 0 {
                XCTAssertLessThan(shot.gravity.distance(to: objectDown), 1e-9)
            } else {
                // Upside down: physical down is the object's up.
                XCTAssertEqual(shot.gravity.dot(objectDown), -1, accuracy: 1e-9)
            }
        }
    }

    func testFlipObjectShowsItsBottomOnlyInTheFlippedPass() {
        let capture = SyntheticCapture(scene: .flipObject, views: 16, seed: 9, imageWidth: 256, imageHeight: 192)
        let mesh = capture.objectMesh
        let bottom = Set(mesh.triangles.indices.filter { t in
            let (a, b, c) = mesh.corners(of: t)
            let n = simdCross(b - a, c - a)
            return max(a.z, b.z, c.z) < 1e-4 && n.z < 0
        })
        XCTAssertGreaterThan(bottom.count, 100)
        for shot in capture.shots {
            let seen = MeshRasterizer().geometry(of: mesh, intrinsics: capture.intrinsics, cameraFromWorld: shot.cameraFromWorld)
            let bottomPixels = seen.triangleIndex.filter { $0 >= 0 && bottom.contains(Int($0)) }.count
            if shot.pass == 0 {
                XCTAssertEqual(bottomPixels, 0, "view \(shot.name)")
            } else {
                XCTAssertGreaterThan(bottomPixels, 100, "view \(shot.name)")
            }
        }
    }

    func testCamerasOrbitAtThreeHeightsLookingAtTheObject() {
        let capture = SyntheticCapture(scene: .texturedVase, views: 40, seed: 2, imageWidth: 1024, imageHeight: 768)
        XCTAssertEqual(capture.shots.map(\.name).first, "0001")
        XCTAssertEqual(capture.shots.map(\.name).last, "0040")
        XCTAssertEqual((0..<3).map { ring in capture.shots.filter { $0.ring == ring }.count }, [14, 16, 10])
        let centre = capture.objectBounds.centre
        var distances: [Double] = []
        for shot in capture.shots {
            let position = shot.worldFromCamera.translation
            let offset = position - centre
            distances.append(offset.length)
            let elevation = asin(offset.z / offset.length) * 180 / Double.pi
            let expected = [10.0, 30, 55][shot.ring]
            XCTAssertEqual(elevation, expected, accuracy: 3, "view \(shot.name)")
            // The object's centre projects near the image centre (the aim is jittered by 1 cm).
            let pixel = capture.intrinsics.project(shot.cameraFromWorld.apply(centre))!
            XCTAssertEqual(pixel.x, 512, accuracy: 40)
            XCTAssertEqual(pixel.y, 384, accuracy: 40)
        }
        XCTAssertLessThan(distances.max()! / distances.min()!, 1.1)
        // Azimuths of one ring are evenly spread: no two cameras of the first ring closer than half the spacing.
        let azimuths = capture.shots.filter { $0.ring == 0 }.map { shot -> Double in
            let p = shot.worldFromCamera.translation
            return atan2(p.y, p.x)
        }.sorted()
        let gaps = zip(azimuths.dropFirst(), azimuths).map { $0 - $1 } + [azimuths.first! + 2 * Double.pi - azimuths.last!]
        XCTAssertGreaterThan(gaps.min()!, 0.5 * 2 * Double.pi / 14)
    }

    func testTexturedVaseHasFarMoreImageDetailThanThePlainBox() {
        func detail(_ scene: SyntheticSceneKind) -> Double {
            let capture = SyntheticCapture(scene: scene, views: 6, seed: 1, imageWidth: 512, imageHeight: 384)
            var energy = 0.0, count = 0
            for index in 0..<capture.viewCount {
                let view = capture.view(at: index)
                let w = view.image.width
                func grey(_ x: Int, _ y: Int) -> Double {
                    let k = 3 * (y * w + x)
                    return 0.299 * Double(view.image.pixels[k]) + 0.587 * Double(view.image.pixels[k + 1]) + 0.114 * Double(view.image.pixels[k + 2])
                }
                for y in 2..<(view.image.height - 2) {
                    for x in 2..<(w - 2) {
                        // Inside the mask, away from the silhouette.
                        guard view.mask.pixels[(y - 2) * w + x] == 255, view.mask.pixels[(y + 2) * w + x] == 255,
                              view.mask.pixels[y * w + x - 2] == 255, view.mask.pixels[y * w + x + 2] == 255 else { continue }
                        let gx = grey(x + 1, y) - grey(x - 1, y), gy = grey(x, y + 1) - grey(x, y - 1)
                        energy += gx * gx + gy * gy
                        count += 1
                    }
                }
            }
            return energy / Double(count)
        }
        let vase = detail(.texturedVase), box = detail(.plainBox)
        XCTAssertGreaterThan(vase, 20 * box)
    }
}
