import Foundation
import ModelExport
import ReconstructionCore
import XCTest

/// A minimal reader of COLMAP's text model, enough to check what the writer produced.
private struct COLMAPTextModel {
    struct Camera { var model: String; var width: Int; var height: Int; var params: [Double] }
    struct Image {
        var qvec: [Double]
        var tvec: [Double]
        var cameraID: Int
        var name: String
        var points2D: [(x: Double, y: Double, pointID: Int)]
    }
    struct Point { var xyz: [Double]; var rgb: [Int]; var error: Double; var track: [(imageID: Int, index: Int)] }

    var cameras: [Int: Camera] = [:]
    var images: [Int: Image] = [:]
    var points: [Int: Point] = [:]
    var headers: [String] = []

    init(directory: URL) throws {
        func lines(_ name: String) throws -> [String] {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            var result = text.components(separatedBy: "\n")
            if result.last == "" { result.removeLast() }
            headers += result.filter { $0.hasPrefix("#") }
            return result.filter { !$0.hasPrefix("#") }
        }
        func fields(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }

        for line in try lines("cameras.txt") {
            let f = fields(line)
            cameras[Int(f[0])!] = Camera(model: f[1], width: Int(f[2])!, height: Int(f[3])!,
                                         params: f[4...].map { Double($0)! })
        }
        let imageLines = try lines("images.txt")
        precondition(imageLines.count % 2 == 0, "images.txt needs two lines per image")
        for i in stride(from: 0, to: imageLines.count, by: 2) {
            let f = fields(imageLines[i])
            let p = fields(imageLines[i + 1])
            let points2D = stride(from: 0, to: p.count, by: 3).map {
                (x: Double(p[$0])!, y: Double(p[$0 + 1])!, pointID: Int(p[$0 + 2])!)
            }
            images[Int(f[0])!] = Image(qvec: f[1...4].map { Double($0)! }, tvec: f[5...7].map { Double($0)! },
                                       cameraID: Int(f[8])!, name: f[9], points2D: points2D)
        }
        for line in try lines("points3D.txt") {
            let f = fields(line)
            let track = stride(from: 8, to: f.count, by: 2).map { (imageID: Int(f[$0])!, index: Int(f[$0 + 1])!) }
            points[Int(f[0])!] = Point(xyz: f[1...3].map { Double($0)! }, rgb: f[4...6].map { Int($0)! },
                                       error: Double(f[7])!, track: track)
        }
    }
}

final class COLMAPTextWriterTests: XCTestCase {
    private func writeAndRead(_ scene: SparseScene) throws -> COLMAPTextModel {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("colmap/sparse/0")
        try COLMAPTextWriter.write(scene: scene, to: directory)
        return try COLMAPTextModel(directory: directory)
    }

    func testWritesRegisteredImagesWithConsecutiveIDsAndWorldToCameraPoses() throws {
        let model = try writeAndRead(SyntheticScene.make())
        XCTAssertEqual(model.images.keys.sorted(), [1, 2])
        XCTAssertEqual(model.images[1]?.name, "a.jpg")
        XCTAssertEqual(model.images[2]?.name, "c.jpg")
        for (id, worldFromCamera) in [(1, SyntheticScene.worldFromA), (2, SyntheticScene.worldFromC)] {
            let image = try XCTUnwrap(model.images[id])
            let expected = worldFromCamera.inverse
            let q = image.qvec
            XCTAssertGreaterThanOrEqual(q[0], 0)
            let rotation = UnitQuaternion(w: q[0], x: q[1], y: q[2], z: q[3]).matrix
            XCTAssertLessThan(maxDifference(rotation, expected.rotation), 1e-12)
            XCTAssertLessThan(Vector3(image.tvec[0], image.tvec[1], image.tvec[2]).distance(to: expected.translation), 1e-12)
        }
    }

    func testSharedIntrinsicsGiveOnePinholeCamera() throws {
        let model = try writeAndRead(SyntheticScene.make())
        XCTAssertEqual(model.cameras.count, 1)
        let camera = try XCTUnwrap(model.cameras[1])
        XCTAssertEqual(camera.model, "PINHOLE")
        XCTAssertEqual(camera.width, 640)
        XCTAssertEqual(camera.height, 480)
        XCTAssertEqual(camera.params, [500, 502, 320.5, 240.25])
        XCTAssertEqual(model.images[1]?.cameraID, 1)
        XCTAssertEqual(model.images[2]?.cameraID, 1)
        XCTAssertTrue(model.headers.contains("# Number of cameras: 1"), "\(model.headers)")
    }

    func testDistortedIntrinsicsGiveAnOpenCVCamera() throws {
        let model = try writeAndRead(SyntheticScene.make(distinctIntrinsics: true))
        XCTAssertEqual(model.cameras.count, 2)
        XCTAssertEqual(model.images[1]?.cameraID, 1)
        XCTAssertEqual(model.images[2]?.cameraID, 2)
        let camera = try XCTUnwrap(model.cameras[2])
        XCTAssertEqual(camera.model, "OPENCV")
        XCTAssertEqual(camera.params, [510, 510, 319, 241, -0.05, 0.01, 0, 0])
    }

    func testKeypointsAndPointIDsMatchTheScene() throws {
        let scene = SyntheticScene.make()
        let model = try writeAndRead(scene)
        for (id, sceneIndex) in [(1, 0), (2, 2)] {
            let image = try XCTUnwrap(model.images[id])
            let source = scene.images[sceneIndex]
            XCTAssertEqual(image.points2D.count, source.keypoints.count)
            for (k, written) in image.points2D.enumerated() {
                XCTAssertEqual(Float(written.x), source.keypoints[k].x)
                XCTAssertEqual(Float(written.y), source.keypoints[k].y)
                let expectedID = source.pointIndexOfKeypoint[k] < 0 ? -1 : source.pointIndexOfKeypoint[k] + 1
                XCTAssertEqual(written.pointID, expectedID)
            }
        }
    }

    func testPointTracksSkipUnregisteredImagesAndAgreeWithImages() throws {
        let scene = SyntheticScene.make()
        let model = try writeAndRead(scene)
        XCTAssertEqual(model.points.keys.sorted(), [1, 2, 3])
        let first = try XCTUnwrap(model.points[1])
        XCTAssertEqual(first.xyz, [0, 0, 5])
        XCTAssertEqual(first.rgb, [255, 0, 10])
        XCTAssertEqual(first.error, 0.25)
        XCTAssertEqual(first.track.map(\.imageID), [1, 2], "the observation in unregistered b.jpg is left out")
        XCTAssertEqual(first.track.map(\.index), [0, 1])
        for (pointID, point) in model.points {
            for observation in point.track {
                let image = try XCTUnwrap(model.images[observation.imageID])
                XCTAssertEqual(image.points2D[observation.index].pointID, pointID)
            }
        }
        // Every referenced point exists.
        for image in model.images.values {
            for p in image.points2D where p.pointID != -1 { XCTAssertNotNil(model.points[p.pointID]) }
        }
        XCTAssertTrue(model.headers.contains { $0.hasPrefix("# Number of images: 2, mean observations per image: 3") },
                      "\(model.headers)")
        XCTAssertTrue(model.headers.contains { $0.hasPrefix("# Number of points: 3, mean track length: 2") },
                      "\(model.headers)")
    }

    func testWrittenPointsReprojectOntoTheirKeypoints() throws {
        let model = try writeAndRead(SyntheticScene.make())
        let camera = try XCTUnwrap(model.cameras[1])
        let k = CameraIntrinsics(width: camera.width, height: camera.height, fx: camera.params[0], fy: camera.params[1],
                                 cx: camera.params[2], cy: camera.params[3])
        for point in model.points.values {
            for observation in point.track {
                let image = try XCTUnwrap(model.images[observation.imageID])
                let q = image.qvec
                let pose = RigidTransform(rotation: UnitQuaternion(w: q[0], x: q[1], y: q[2], z: q[3]).matrix,
                                          translation: Vector3(image.tvec[0], image.tvec[1], image.tvec[2]))
                let projected = try XCTUnwrap(k.project(pose.apply(Vector3(point.xyz[0], point.xyz[1], point.xyz[2]))))
                let keypoint = image.points2D[observation.index]
                XCTAssertEqual(projected.x, keypoint.x, accuracy: 1e-3)
                XCTAssertEqual(projected.y, keypoint.y, accuracy: 1e-3)
            }
        }
    }

    func testPointSeenOnlyByUnregisteredImagesIsLeftOut() throws {
        var scene = SyntheticScene.make()
        scene.points.append(SparseScene.Point(position: Vector3(0, 0, 9), rgb: (0, 0, 0), meanReprojectionErrorPixels: 1,
                                              track: [.init(imageIndex: 1, keypointIndex: 1)]))
        scene.images[1].pointIndexOfKeypoint[1] = 3
        let model = try writeAndRead(scene)
        XCTAssertEqual(model.points.keys.sorted(), [1, 2, 3])
    }

    func testSceneWithoutRegisteredImagesWritesEmptyModel() throws {
        var scene = SyntheticScene.make()
        for i in scene.images.indices { scene.images[i].cameraFromWorld = nil }
        let model = try writeAndRead(scene)
        XCTAssertTrue(model.cameras.isEmpty)
        XCTAssertTrue(model.images.isEmpty)
        XCTAssertTrue(model.points.isEmpty)
        XCTAssertTrue(model.headers.contains("# Number of cameras: 0"))
    }
}
