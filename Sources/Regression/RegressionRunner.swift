import Foundation
import ReconstructionCore

/// Runs the datasets of a manifest: prepares each capture, runs the pipeline stages it needs,
/// measures the metrics and judges them against the thresholds.
public struct RegressionRunner: Sendable {
    /// Folder the manifest's relative paths start from.
    public var manifestDirectory: URL
    /// Work folder: one sub-folder per dataset (capture, poses, …).
    public var workDirectory: URL
    /// Progress lines for the user.
    public var log: @Sendable (String) -> Void

    public init(manifestDirectory: URL, workDirectory: URL, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.manifestDirectory = manifestDirectory
        self.workDirectory = workDirectory
        self.log = log
    }

    public func run(_ dataset: RegressionManifest.Dataset) -> DatasetRun {
        let folder = workDirectory.appendingPathComponent(dataset.name, isDirectory: true)
        do {
            guard let capture = try prepare(dataset, in: folder) else {
                let path = sceneDirectory(dataset.path ?? "").path
                let hint = path.contains("/shared/") ? " (../shared must sit beside the repository)" : ""
                return DatasetRun(dataset: dataset, outcome: DatasetOutcome(
                    name: dataset.name, status: .skipped, message: "data absent at \(path)\(hint)"))
            }
            log("\(dataset.name): poses")
            let poses = try PoseRun.run(capture, giveIntrinsics: dataset.intrinsics == .given,
                                        outputDirectory: folder.appendingPathComponent("poses", isDirectory: true))
            var metrics = poses.metrics
            var model: ModelRegressionRun?
            if ModelRegressionRun.isNeeded(for: dataset) {
                log("\(dataset.name): dense surface and reduced model")
                model = try ModelRegressionRun.run(capture: capture, poses: poses, outputDirectory: folder, log: log)
                metrics.merge(model!.metrics) { _, new in new }
            }
            let outcome = DatasetOutcome.judge(dataset, metrics: metrics)
            return DatasetRun(dataset: dataset, outcome: outcome, poses: poses, model: model)
        } catch {
            return DatasetRun(dataset: dataset, outcome: DatasetOutcome(name: dataset.name, status: .error, message: "\(error)"))
        }
    }

    /// A dataset's `path`: relative to the manifest's folder, or as given when absolute.
    public func sceneDirectory(_ path: String) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path, isDirectory: true)
            : manifestDirectory.appendingPathComponent(path, isDirectory: true)).standardizedFileURL
    }

    /// The capture to run, or nil when a real dataset's folder is absent.
    func prepare(_ dataset: RegressionManifest.Dataset, in folder: URL) throws -> PreparedCapture? {
        if let path = dataset.path {
            let scene = sceneDirectory(path)
            guard FileManager.default.fileExists(atPath: scene.path) else { return nil }
            return try PreparedCapture.strecha(sceneDirectory: scene)
        }
        guard let settings = dataset.synthetic else {
            throw RegressionError.dataset(dataset.name, "has neither a path nor synthetic settings")
        }
        return try SyntheticCaptureCache.prepare(settings, in: folder.appendingPathComponent("capture", isDirectory: true), log: log)
    }
}
