import CaptureIO
import Foundation
import ReconstructionCore
import XCTest

final class StrechaGroundTruthTests: XCTestCase {
    /// fountain-P11's 0000.jpg.camera.
    private let sampleCamera = """
        2759.48 0 1520.69
        0 2764.16 1006.81
        0 0 1
        0 0 0
        0.450927 -0.0945642 -0.887537
        -0.892535 -0.0401974 -0.449183
        0.00679989 0.994707 -0.102528
        -7.28137 -7.57667 0.204446
        3072 2048

        """

    private func makeScene(_ files: [String: String]) throws -> URL {
        let scene = try makeTemporaryDirectory(self)
        let cameras = scene.appendingPathComponent("gt_dense_cameras")
        try FileManager.default.createDirectory(at: cameras, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: cameras.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return scene
    }

    func testParsesCameraFileAsCameraToWorldRotationAndCentre() throws {
        let scene = try makeScene(["0000.jpg.camera": sampleCamera])
        let poses = try StrechaGroundTruth.load(sceneDirectory: scene)
        XCTAssertEqual(poses.count, 1)
        XCTAssertEqual(poses[0].name, "0000.jpg")
        let pose = try XCTUnwrap(poses[0].worldFromCamera)
        XCTAssertEqual(pose.translation, Vector3(-7.28137, -7.57667, 0.204446))
        XCTAssertEqual(pose.rotation.m, [0.450927, -0.0945642, -0.887537, -0.892535, -0.0401974, -0.449183,
                                         0.00679989, 0.994707, -0.102528])
    }

    func testPointOnTheOpticalAxisHasPositiveDepthAndProjectsToThePrincipalPoint() throws {
        let pose = try XCTUnwrap(try StrechaGroundTruth.load(sceneDirectory: makeScene(["0000.jpg.camera": sampleCamera]))
            .first?.worldFromCamera)
        // The Strecha model: x ~ K · Rᵀ · (X − C). A point 5 m along the camera's third axis (R's
        // third column in world coordinates) is straight ahead.
        let ahead = pose.translation + 5 * pose.rotation.column(2)
        let cameraFromWorld = pose.inverse
        let inCamera = cameraFromWorld.apply(ahead)
        XCTAssertEqual(inCamera.z, 5, accuracy: 1e-4)
        let direct = pose.rotation.transposed * (ahead - pose.translation)
        XCTAssertEqual(inCamera.distance(to: direct), 0, accuracy: 1e-12)
        let k = CameraIntrinsics(width: 3072, height: 2048, fx: 2759.48, fy: 2764.16, cx: 1520.69, cy: 1006.81)
        let pixel = try XCTUnwrap(k.project(inCamera))
        XCTAssertEqual(pixel.x, 1520.69, accuracy: 0.1)
        XCTAssertEqual(pixel.y, 1006.81, accuracy: 0.1)
        // A point behind the camera has negative depth.
        XCTAssertLessThan(cameraFromWorld.apply(pose.translation - pose.rotation.column(2)).z, 0)
    }

    func testAcceptsTheCamerasFolderItselfAndSortsByName() throws {
        let scene = try makeScene(["0002.jpg.camera": sampleCamera, "0000.jpg.camera": sampleCamera,
                                   "0001.jpg.camera": sampleCamera, "README": "not a camera"])
        let poses = try StrechaGroundTruth.load(sceneDirectory: scene.appendingPathComponent("gt_dense_cameras"))
        XCTAssertEqual(poses.map(\.name), ["0000.jpg", "0001.jpg", "0002.jpg"])
    }

    func testWrongNumberCountErrorNamesTheFile() throws {
        let truncated = sampleCamera.split(separator: "\n").dropLast().joined(separator: "\n")
        let scene = try makeScene(["0007.jpg.camera": truncated])
        XCTAssertThrowsError(try StrechaGroundTruth.load(sceneDirectory: scene)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("0007.jpg.camera") && text.contains("found 24"), text)
        }
    }

    func testNonNumberErrorNamesTheFileAndValue() throws {
        let scene = try makeScene(["0003.jpg.camera": sampleCamera.replacingOccurrences(of: "3072", with: "wide")])
        XCTAssertThrowsError(try StrechaGroundTruth.load(sceneDirectory: scene)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("0003.jpg.camera") && text.contains("\"wide\""), text)
        }
    }

    func testNonRotationMatrixIsRejected() throws {
        let scene = try makeScene(["0004.jpg.camera": sampleCamera.replacingOccurrences(of: "0.450927", with: "2.5")])
        XCTAssertThrowsError(try StrechaGroundTruth.load(sceneDirectory: scene)) { error in
            XCTAssertTrue(String(describing: error).contains("rotation"), "\(error)")
        }
    }

    func testMissingDirectoryAndEmptyFolderThrow() throws {
        let root = try makeTemporaryDirectory(self)
        XCTAssertThrowsError(try StrechaGroundTruth.load(sceneDirectory: root.appendingPathComponent("nope"))) { error in
            XCTAssertTrue(String(describing: error).contains("nope"), "\(error)")
        }
        XCTAssertThrowsError(try StrechaGroundTruth.load(sceneDirectory: root)) { error in
            XCTAssertTrue(String(describing: error).contains("no .camera files"), "\(error)")
        }
    }

    func testLoadsTheSharedFountainP11GroundTruth() throws {
        guard let scene = sharedFountainScene() else { throw XCTSkip("shared Strecha data absent") }
        let poses = try StrechaGroundTruth.load(sceneDirectory: scene)
        XCTAssertEqual(poses.map(\.name), (0...10).map { String(format: "%04d.jpg", $0) })
        let transforms = poses.compactMap(\.worldFromCamera)
        XCTAssertEqual(transforms.count, 11)
        for t in transforms { XCTAssertEqual(t.rotation.determinant, 1, accuracy: 1e-4) }

        // The cameras all look at the fountain: the point closest to all optical axes is in front of every camera.
        var a = [Double](repeating: 0, count: 9)
        var b = [Double](repeating: 0, count: 3)
        for t in transforms {
            let d = t.rotation.column(2).normalized.array
            let c = t.translation.array
            for i in 0..<3 {
                for j in 0..<3 {
                    let p = (i == j ? 1 : 0) - d[i] * d[j]
                    a[3 * i + j] += p
                    b[i] += p * c[j]
                }
            }
        }
        let m = Matrix3(rowMajor: a)
        func replacing(column: Int) -> Matrix3 {
            var r = m
            for i in 0..<3 { r[i, column] = b[i] }
            return r
        }
        let det = m.determinant
        let focus = Vector3(replacing(column: 0).determinant / det, replacing(column: 1).determinant / det,
                            replacing(column: 2).determinant / det)
        for (pose, t) in zip(poses, transforms) {
            let depth = t.inverse.apply(focus).z
            XCTAssertGreaterThan(depth, 1, "\(pose.name): the common focus should be in front of the camera")
        }
    }
}
