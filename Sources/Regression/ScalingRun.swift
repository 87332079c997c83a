import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import SyntheticCapture

/// How the pose stage's cost grows with the number of views of an ordered capture: synthetic
/// captures of increasing size through the pose pipeline with a given pair selection, timing each
/// stage and measuring its peak resident memory.
public struct ScalingRun: Codable, Sendable {
    public var views: Int
    public var registered: Int
    /// Image pairs matched (the pair selection's choice).
    public var matchedPairs: Int?
    public var stages: [StageProbe.StageMeasurement]
    public var totalSeconds: Double
    public var peakResidentBytes: Int?
    public var medianRotationErrorDegrees: Double
    public var medianPositionErrorRelative: Double

    /// Generates (or reuses) the capture in `folder/capture-N` and runs the pose stage on it.
    public static func run(scene: SyntheticSceneKind, views: Int, width: Int, height: Int, pairSelection: PairSelection,
                           folder: URL, log: @escaping @Sendable (String) -> Void) throws -> ScalingRun {
        let source = RegressionManifest.SyntheticSource(scene: scene.rawValue, views: views, seed: 1, width: width, height: height)
        let capture = try SyntheticCaptureCache.prepare(source, in: folder.appendingPathComponent("capture-\(views)"), log: log)
        var options = PoseEstimation.Options()
        options.pairSelection = pairSelection
        let probe = StageProbe()
        let started = Date()
        let sources = try CaptureSources.load(imagesDirectory: capture.imagesDirectory, given: capture.intrinsics)
        let report = try PoseEstimation(options: options).run(sources) { progress in probe.enter(progress.stage.rawValue) }
        let stages = probe.finish()
        let total = Date().timeIntervalSince(started)
        let estimated = report.scene.namedPoses
        let accuracy = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: capture.groundTruthPoses)
        return ScalingRun(views: views, registered: report.scene.registeredCount,
                          matchedPairs: report.matchedPairCount, stages: stages, totalSeconds: total,
                          peakResidentBytes: stages.compactMap(\.peakResidentBytes).max(),
                          medianRotationErrorDegrees: accuracy.medianRotationErrorDegrees,
                          medianPositionErrorRelative: accuracy.medianPositionError / accuracy.sceneSize)
    }

    /// A Markdown table of the runs, with each stage's growth factor per doubling of views
    /// (time ratio between consecutive runs divided by their view ratio: 1 is linear).
    public static func markdown(_ runs: [ScalingRun]) -> String {
        let stageNames = runs.first?.stages.map(\.stage) ?? []
        var lines = ["| views | registered | pairs matched | " + stageNames.map { "\($0) s (peak MB)" }.joined(separator: " | ") + " | total s | peak MB | median rotation ° | median position / scene |",
                     "|---|---|---|" + String(repeating: "---|", count: stageNames.count) + "---|---|---|---|"]
        for run in runs {
            let cells = stageNames.map { name -> String in
                guard let s = run.stages.first(where: { $0.stage == name }) else { return "—" }
                return String(format: "%.1f (%@)", s.seconds, s.peakResidentBytes.map { String($0 >> 20) } ?? "?")
            }
            lines.append("| \(run.views) | \(run.registered) | \(run.matchedPairs.map(String.init) ?? "?") | " + cells.joined(separator: " | ")
                         + String(format: " | %.1f | %@ | %.4f | %.5f%% |", run.totalSeconds,
                                  run.peakResidentBytes.map { String($0 >> 20) } ?? "?", run.medianRotationErrorDegrees,
                                  run.medianPositionErrorRelative * 100))
        }
        lines.append("")
        guard runs.count >= 2 else {
            lines.append("Growth factors compare consecutive view counts: give two or more (e.g. --views 50,100).")
            return lines.joined(separator: "\n")
        }
        lines.append("Growth factor = (time ratio) / (views ratio) between consecutive sizes; 1.0 is linear.")
        lines.append("")
        lines.append("| from → to | " + stageNames.joined(separator: " | ") + " | total |")
        lines.append("|---|" + String(repeating: "---|", count: stageNames.count) + "---|")
        for (a, b) in zip(runs, runs.dropFirst()) {
            let viewRatio = Double(b.views) / Double(a.views)
            let factors = stageNames.map { name -> String in
                guard let sa = a.stages.first(where: { $0.stage == name }), let sb = b.stages.first(where: { $0.stage == name }),
                      sa.seconds > 0 else { return "—" }
                return String(format: "%.2f", sb.seconds / sa.seconds / viewRatio)
            }
            lines.append("| \(a.views) → \(b.views) | " + factors.joined(separator: " | ")
                         + String(format: " | %.2f |", b.totalSeconds / a.totalSeconds / viewRatio))
        }
        return lines.joined(separator: "\n")
    }
}
