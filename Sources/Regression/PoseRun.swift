import CaptureIO
import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

/// The pose stage run on a prepared capture, its outputs written and scored against the truth.
public struct PoseRun: Sendable {
    public var estimation: PoseEstimation.Report
    public var accuracy: PoseAccuracyReport
    /// Wall time of estimation and export, seconds.
    public var seconds: Double

    /// Estimates poses for `capture` (giving the true intrinsics when `giveIntrinsics`), writes
    /// poses.json, colmap/ and transforms.json to `outputDirectory`, and scores them.
    public static func run(_ capture: PreparedCapture, giveIntrinsics: Bool, options: PoseEstimation.Options = .init(),
                           outputDirectory: URL) throws -> PoseRun {
        let started = Date()
        let sources = try CaptureSources.load(imagesDirectory: capture.imagesDirectory,
                                              given: giveIntrinsics ? capture.intrinsics : nil)
        let report = try PoseEstimation(options: options).run(sources)
        try PoseExport.writeAll(scene: report.scene, imagesDirectory: capture.imagesDirectory, to: outputDirectory)
        let seconds = Date().timeIntervalSince(started)
        let estimated = report.scene.namedPoses
        let accuracy = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: capture.groundTruthPoses)
        return PoseRun(estimation: report, accuracy: accuracy, seconds: seconds)
    }

    /// The regression metrics of this run (`Metric`).
    public var metrics: [String: Double] {
        [
            Metric.registeredFraction: Double(accuracy.registeredCount) / Double(max(1, accuracy.cameraCount)),
            Metric.positionErrorMedian: accuracy.medianPositionError,
            Metric.positionErrorMax: accuracy.maxPositionError,
            Metric.positionErrorMedianRelative: accuracy.medianPositionError / max(accuracy.sceneSize, .leastNonzeroMagnitude),
            Metric.rotationErrorMedian: accuracy.medianRotationErrorDegrees,
            Metric.rotationErrorMax: accuracy.maxRotationErrorDegrees,
            Metric.posesSeconds: seconds,
        ]
    }
}
