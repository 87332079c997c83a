import ReconstructionCore
import XCTest

final class SparseSceneFitTests: XCTestCase {
    private let k = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240, k1: -0.02)

    /// The pixel where `camera` (camera-from-world) sees `point`, moved by `offset`.
    private func keypoint(_ camera: RigidTransform, _ point: Vector3, offset: (Double, Double) = (0, 0)) -> SparseScene.Keypoint {
        let uv = k.project(camera.apply(point))!
        return SparseScene.Keypoint(x: Float(uv.x + offset.0), y: Float(uv.y + offset.1))
    }

    private func image(_ name: String, _ camera: RigidTransform?, _ keypoints: [SparseScene.Keypoint]) -> SparseScene.Image {
        SparseScene.Image(name: name, intrinsics: k, intrinsicsSource: .given, cameraFromWorld: camera,
                          unregisteredReason: camera == nil ? "not registered" : nil, keypoints: keypoints,
                          pointIndexOfKeypoint: [Int](repeating: -1, count: keypoints.count))
    }

    private func point(_ position: Vector3, _ track: [(Int, Int)]) -> SparseScene.Point {
        SparseScene.Point(position: position, rgb: (0, 0, 0), meanReprojectionErrorPixels: 0,
                          track: track.map { SparseScene.Observation(imageIndex: $0.0, keypointIndex: $0.1) })
    }

    func testErrorsAreThePixelDistancesToTheProjectionsPerImageAndOverall() {
        let first = RigidTransform.identity
        let second = RigidTransform(rotation: Matrix3.rotation(angleAxis: Vector3(0, 0.2, 0)), translation: Vector3(-1, 0, 0))
        let p = [Vector3(0.2, -0.1, 5), Vector3(-0.4, 0.3, 6), Vector3(0.5, 0.5, 4)]
        // First image: exact, 3-4-5 off, exact. Second: 1 px off, exact, and one keypoint for the
        // point that lies behind it. Third image is not registered: its observation is ignored.
        let behind = SparseScene.Keypoint(x: 10, y: 10)
        let scene = SparseScene(
            images: [image("a", first, [keypoint(first, p[0]), keypoint(first, p[1], offset: (3, 4)), keypoint(first, p[2])]),
                     image("b", second, [keypoint(second, p[0], offset: (0, -1)), keypoint(second, p[1]), behind]),
                     image("c", nil, [SparseScene.Keypoint(x: 1, y: 2)])],
            points: [point(p[0], [(0, 0), (1, 0), (2, 0)]), point(p[1], [(0, 1), (1, 1)]), point(p[2], [(0, 2)]),
                     point(Vector3(-3, 0, -1), [(1, 2)])])

        let fit = scene.fit()

        XCTAssertEqual(fit.images.map(\.observations), [3, 3, 0])
        XCTAssertEqual(fit.images[0].meanReprojectionErrorPixels ?? -1, 5.0 / 3, accuracy: 1e-4)
        XCTAssertEqual(fit.images[1].meanReprojectionErrorPixels ?? -1, 0.5, accuracy: 1e-4)
        XCTAssertNil(fit.images[2].meanReprojectionErrorPixels)
        XCTAssertEqual(fit.points, 4)
        XCTAssertEqual(fit.observations, 6)
        XCTAssertEqual(fit.meanTrackLength, 1.5)
        // Overall, as COLMAP averages it: per point (0.5, 2.5 and 0 px; the point behind the
        // camera has no projection), then over the points; not 6/5 over the observations.
        XCTAssertEqual(fit.meanReprojectionErrorPixels ?? -1, 1.0, accuracy: 1e-4)
    }

    func testAModelWithoutPointsHasNoError() {
        let scene = SparseScene(images: [image("a", .identity, [])], points: [])
        let fit = scene.fit()
        XCTAssertEqual(fit.images, [SparseSceneFit.ImageFit(observations: 0, meanReprojectionErrorPixels: nil)])
        XCTAssertEqual(fit.meanTrackLength, 0)
        XCTAssertNil(fit.meanReprojectionErrorPixels)
    }
}
