import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// A masked object capture with LiDAR depth through the dense path: the support plane is found
/// and the unseen underside closed (by the masks' visual hull cut at the plane, or else by
/// `OpeningClosure`), so the surface recalls the whole object.
final class ObjectClosureTests: XCTestCase {
    func testPlainBoxWithLiDARIsClosedOnTheFloor() throws {
        let capture = SyntheticCapture(scene: .plainBox, views: 24, seed: 2, imageWidth: 512, imageHeight: 384)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("closure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try SyntheticCaptureWriter.write(capture, to: folder)
        let k = capture.intrinsics
        let scene = try KnownPoses.scene(posesFile: folder.appendingPathComponent("ground_truth/poses.json"), imagesDirectory: images,
                                         intrinsics: PinholeIntrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        var options = DenseRun.Options()
        options.useStereo = false
        options.posesAreMetric = true
        let closed = try DenseRun.run(scene: scene, imagesDirectory: images, options: options)

        let floor = try XCTUnwrap(closed.surface.supportPlane)
        XCTAssertGreaterThan(floor.normal.z, 0.999)
        XCTAssertEqual(floor.offset, 0, accuracy: 0.003)
        // The masks' hull completes the walls' foot and the underside, down to the floor and no further.
        XCTAssertGreaterThan(closed.surface.silhouetteVoxels, 0)
        let lowest = closed.surface.mesh.positions.map(\.z).min()!
        XCTAssertLessThan(lowest, 0.003, "walls reach the floor")
        XCTAssertGreaterThan(lowest, -closed.surface.voxelSize, "and stop there, to within a voxel")
        var accuracyOptions = SurfaceAccuracy.Options()
        accuracyOptions.maxSampleCount = 50000
        let accuracy = try SurfaceAccuracy.evaluate(reconstruction: closed.surface.mesh, groundTruth: capture.objectMesh,
                                                    options: accuracyOptions)
        XCTAssertGreaterThan(accuracy.recall, 0.95)
        XCTAssertGreaterThan(accuracy.precision, 0.95)

        // Without the hull, the opening at the walls' foot is closed on the floor.
        options.surface.fillsFromSilhouettes = false
        let capped = try DenseRun.run(scene: scene, imagesDirectory: images, options: options)
        XCTAssertEqual(capped.surface.silhouetteVoxels, 0)
        XCTAssertEqual(capped.surface.closure.closedOnSupport, 1)
        XCTAssertLessThan(capped.surface.mesh.positions.map(\.z).min()!, 0.003, "walls continued down to the floor")
        let cappedAccuracy = try SurfaceAccuracy.evaluate(reconstruction: capped.surface.mesh, groundTruth: capture.objectMesh,
                                                          options: accuracyOptions)
        XCTAssertGreaterThan(cappedAccuracy.recall, 0.95)

        // The same capture with closing turned off keeps the underside open.
        options.surface.closesOpenings = .never
        let open = try DenseRun.run(scene: scene, imagesDirectory: images, options: options)
        XCTAssertEqual(open.surface.closure, .init())
        let openAccuracy = try SurfaceAccuracy.evaluate(reconstruction: open.surface.mesh, groundTruth: capture.objectMesh,
                                                        options: accuracyOptions)
        XCTAssertLessThan(openAccuracy.recall, 0.9)
    }
}
