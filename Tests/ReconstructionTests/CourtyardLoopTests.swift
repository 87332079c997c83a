import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// A walk around a courtyard (`CourtyardCapture`, the shape of Strecha's castle scenes): views
/// looking out at walls with rows of identical windows, on a path that closes a loop. Incremental
/// mapping grows from the first pair in both directions and the two ends meet on the far side, so
/// the loop must close without a twist. (The twist itself was found on the courtyard of
/// Scripts/benchmark/courtyard_scene.py, see Benchmarks/pose-loops.md; this rendering closes well
/// with either global-adjustment schedule, so the test guards registration and accuracy on such
/// a walk, not that schedule.)
final class CourtyardLoopTests: XCTestCase {
    func testLoopAroundACourtyardClosesWithoutTwist() throws {
        try reconstructLoop(intrinsicsKnown: true)
    }

    /// The same with nothing known about the camera (no K, no EXIF): the focal length starts from
    /// the fundamental matrices of the walls' non-planar pairs (`FocalLengthFromPairs`), not from the
    /// default guess, from which self-calibration does not recover on such planar scenes.
    func testLoopClosesWithNoIntrinsicsKnown() throws {
        try reconstructLoop(intrinsicsKnown: false)
    }

    func reconstructLoop(intrinsicsKnown: Bool) throws {
        let capture = CourtyardCapture.render(views: 24)
        let folder = try capture.writePNGs(prefix: "courtyard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let k = capture.intrinsics
        let prior: IntrinsicsPrior = intrinsicsKnown ? .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy) : .unknown
        let sources = capture.images.indices.map { i in
            ImageSource(name: RenderedCapture.name(i), url: folder.appendingPathComponent(RenderedCapture.name(i)), prior: prior)
        }
        let report = try PoseEstimation().run(sources)
        XCTAssertEqual(report.scene.registeredCount, 24, "every view registered")
        let accuracy = try PoseAccuracyReport.evaluate(estimated: report.scene.namedPoses, groundTruth: capture.truth)
        print(String(format: "courtyard loop: registered %d/%d, position median %.2f mm max %.2f mm, rotation median %.4f° max %.4f°",
                     accuracy.registeredCount, accuracy.cameraCount, accuracy.medianPositionError * 1000,
                     accuracy.maxPositionError * 1000, accuracy.medianRotationErrorDegrees, accuracy.maxRotationErrorDegrees))
        // The loop is 5 m across; a twisted closure is off by decimetres and degrees.
        XCTAssertLessThan(accuracy.medianPositionError, 0.01, "median camera centre within 1 cm")
        XCTAssertLessThan(accuracy.maxPositionError, 0.03, "every camera centre within 3 cm")
        XCTAssertLessThan(accuracy.maxRotationErrorDegrees, 0.5, "every rotation within 0.5°")
    }
}
