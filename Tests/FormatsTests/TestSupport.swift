import Foundation
import ReconstructionCore
import XCTest

/// A fresh empty directory, removed when the test finishes.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("FormatsTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// The package root (this file is Tests/FormatsTests/TestSupport.swift).
func packageRoot(filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The shared Strecha fountain-P11 scene next to the repository, or nil when it is absent.
func sharedFountainScene() -> URL? {
    let url = packageRoot().deletingLastPathComponent()
        .appendingPathComponent("shared/datasets/strecha/fountain-P11", isDirectory: true)
        .standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        print("Shared Strecha data is absent at \(url.path); skipping the real-data check.")
        return nil
    }
    return url
}

/// Largest absolute entry-wise difference between two matrices.
func maxDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
    zip(a.m, b.m).map { abs($0 - $1) }.max() ?? 0
}

/// A deterministic pseudo-random byte source (the core's SplitMix64), so fuzz failures reproduce.
typealias SplitMix64 = SeededGenerator

/// A small scene with known geometry: images "a.jpg" (registered), "b.jpg" (not registered) and
/// "c.jpg" (registered), and 3 points seen by all of them.
enum SyntheticScene {
    static let worldFromA = RigidTransform(rotation: Matrix3.rotation(angleAxis: Vector3(0.05, 0.25, 0.02)),
                                           translation: Vector3(-1, 0.2, 0))
    static let worldFromC = RigidTransform(rotation: Matrix3.rotation(angleAxis: Vector3(-0.03, -0.3, 0.1)),
                                           translation: Vector3(1.2, -0.1, 0.3))
    static let positions = [Vector3(0, 0, 5), Vector3(1, -0.5, 6), Vector3(-1, 0.5, 4.5)]
    static let sharedIntrinsics = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 502, cx: 320.5, cy: 240.25)
    static let distortedIntrinsics = CameraIntrinsics(width: 640, height: 480, fx: 510, fy: 510, cx: 319, cy: 241,
                                                      k1: -0.05, k2: 0.01)
    static let unregisteredReason = "too few matches with registered images"

    /// - Parameter distinctIntrinsics: give "c.jpg" its own (distorted) intrinsics.
    static func make(distinctIntrinsics: Bool = false) -> SparseScene {
        let kA = sharedIntrinsics
        let kC = distinctIntrinsics ? distortedIntrinsics : sharedIntrinsics
        func keypoint(_ k: CameraIntrinsics, _ worldFromCamera: RigidTransform, _ p: Vector3) -> SparseScene.Keypoint {
            let projected = k.project(worldFromCamera.inverse.apply(p))!
            return SparseScene.Keypoint(x: Float(projected.x), y: Float(projected.y))
        }
        // a.jpg: keypoints [P0, P1, (none), P2]; c.jpg: [P2, P0, P1]; b.jpg: [P0, (none)].
        let a = SparseScene.Image(
            name: "a.jpg", intrinsics: kA, intrinsicsSource: .given, cameraFromWorld: worldFromA.inverse,
            unregisteredReason: nil,
            keypoints: [keypoint(kA, worldFromA, positions[0]), keypoint(kA, worldFromA, positions[1]),
                        SparseScene.Keypoint(x: 10.25, y: 20.5), keypoint(kA, worldFromA, positions[2])],
            pointIndexOfKeypoint: [0, 1, -1, 2])
        let b = SparseScene.Image(
            name: "b.jpg", intrinsics: kA, intrinsicsSource: .exif, cameraFromWorld: nil,
            unregisteredReason: unregisteredReason,
            keypoints: [SparseScene.Keypoint(x: 100, y: 100), SparseScene.Keypoint(x: 200, y: 150)],
            pointIndexOfKeypoint: [0, -1])
        let c = SparseScene.Image(
            name: "c.jpg", intrinsics: kC, intrinsicsSource: .defaultGuess, cameraFromWorld: worldFromC.inverse,
            unregisteredReason: nil,
            keypoints: [keypoint(kC, worldFromC, positions[2]), keypoint(kC, worldFromC, positions[0]),
                        keypoint(kC, worldFromC, positions[1])],
            pointIndexOfKeypoint: [2, 0, 1])
        let points = [
            SparseScene.Point(position: positions[0], rgb: (255, 0, 10), meanReprojectionErrorPixels: 0.25,
                              track: [.init(imageIndex: 0, keypointIndex: 0), .init(imageIndex: 1, keypointIndex: 0),
                                      .init(imageIndex: 2, keypointIndex: 1)]),
            SparseScene.Point(position: positions[1], rgb: (1, 2, 3), meanReprojectionErrorPixels: 0.5,
                              track: [.init(imageIndex: 0, keypointIndex: 1), .init(imageIndex: 2, keypointIndex: 2)]),
            SparseScene.Point(position: positions[2], rgb: (40, 50, 60), meanReprojectionErrorPixels: 0.125,
                              track: [.init(imageIndex: 2, keypointIndex: 0), .init(imageIndex: 0, keypointIndex: 3)]),
        ]
        return SparseScene(images: [a, b, c], points: points)
    }
}
