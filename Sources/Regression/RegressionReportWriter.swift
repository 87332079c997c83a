import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import Reporting

/// Writes the regression report: `index.html` with a summary of every dataset, and per dataset a
/// page `NAME/index.html` with its metrics against thresholds and PNG pictures drawn by `Reporting`
/// (estimated vs true camera positions from above and from the side, error histograms, a view of
/// the reconstruction).
public enum RegressionReportWriter {
    /// Writes the report into `directory`; returns the summary page.
    @discardableResult
    public static func write(_ runs: [DatasetRun], to directory: URL) throws -> URL {
        var summary = HTMLReport(title: "Regression report")
        summary.addParagraph("\(runs.filter { $0.outcome.status == .passed }.count) of \(runs.count) datasets passed.")
        for run in runs {
            let folder = directory.appendingPathComponent(run.dataset.name, isDirectory: true)
            try writePage(run, to: folder)
            summary.addSection("\(run.dataset.name): \(run.outcome.status.rawValue)")
            if let message = run.outcome.message { summary.addParagraph(message) }
            summary.addMetrics(judgedMetrics(run))
            if run.poses != nil {
                summary.addImage(file: "\(run.dataset.name)/positions-top.png", caption: "\(run.dataset.name): cameras from above (details: \(run.dataset.name)/index.html)")
            }
        }
        let index = directory.appendingPathComponent("index.html")
        try AtomicFileWriter.write(Data(summary.render().utf8), to: index)
        return index
    }

    static func writePage(_ run: DatasetRun, to folder: URL) throws {
        var page = HTMLReport(title: "\(run.dataset.name): \(run.outcome.status.rawValue)")
        if let notes = run.dataset.notes { page.addParagraph(notes) }
        if let message = run.outcome.message { page.addParagraph(message) }
        page.addSection("Metrics")
        page.addMetrics(judgedMetrics(run))
        let recorded = run.outcome.metrics.keys.filter { run.dataset.thresholds[$0] == nil }.sorted()
        if !recorded.isEmpty {
            page.addMetrics(recorded.map { HTMLReport.Metric(name: $0, value: run.outcome.metrics[$0]!) })
        }
        if let poses = run.poses {
            page.addSection("Camera poses")
            let cameras = poses.accuracy.cameras.compactMap { c -> CameraPositionPlot.Camera? in
                guard let truth = c.truePosition else { return nil }
                return CameraPositionPlot.Camera(name: c.name, truePosition: truth, estimatedPosition: c.alignedPosition)
            }
            let exaggeration = exaggerationFactor(poses.accuracy)
            for (view, file) in [(CameraPositionPlot.View.top, "positions-top.png"), (.side, "positions-side.png")] {
                var options = CameraPositionPlot.Options()
                options.view = view
                options.errorScale = exaggeration
                options.title = "\(view.name): true (rings) and estimated (dots), errors ×\(Int(exaggeration))"
                try writePNG(CameraPositionPlot.render(cameras, options: options), to: folder.appendingPathComponent(file))
                page.addImage(file: file, caption: "Camera centres, \(view.name); estimated positions after similarity alignment, their error drawn \(Int(exaggeration))× larger.")
            }
            let positionErrors = poses.accuracy.cameras.compactMap(\.positionError).map { $0 * 1000 }
            try histogram(positionErrors, title: "Position error", label: "mm",
                          threshold: run.dataset.thresholds[Metric.positionErrorMedian]?.max.map { $0 * 1000 },
                          file: folder.appendingPathComponent("position-errors.png"))
            page.addImage(file: "position-errors.png", caption: "Camera position errors (mm) after alignment.")
            let rotationErrors = poses.accuracy.cameras.compactMap(\.rotationErrorDegrees)
            try histogram(rotationErrors, title: "Rotation error", label: "degrees",
                          threshold: run.dataset.thresholds[Metric.rotationErrorMedian]?.max,
                          file: folder.appendingPathComponent("rotation-errors.png"))
            page.addImage(file: "rotation-errors.png", caption: "Camera rotation errors (degrees) after alignment.")
            if let view = SparseModelView.render(poses.estimation.scene) {
                try writePNG(view, to: folder.appendingPathComponent("sparse-model.png"))
                page.addSection("Reconstruction")
                page.addImage(file: "sparse-model.png", caption: "The sparse model (\(poses.estimation.scene.points.count) points) rendered through the first registered camera.")
            }
            let unregistered = poses.estimation.scene.images.filter { !$0.isRegistered }
            if !unregistered.isEmpty {
                page.addPreformatted(unregistered.map { "\($0.name): \($0.unregisteredReason ?? "not registered")" }.joined(separator: "\n"))
            }
        }
        if let model = run.model {
            page.addSection("Textured model")
            page.addParagraph("The reduced model (\(model.modelFile.lastPathComponent)) rendered unlit from the cameras of photos that did not colour it, right of each photo.")
            for (i, comparison) in model.comparisons.enumerated() {
                try writePNG(comparison.image, to: folder.appendingPathComponent("model-view-\(i + 1).png"))
                page.addImage(file: "model-view-\(i + 1).png", caption: "\(comparison.name): photo (left) and the textured model (right).")
            }
        }
        try AtomicFileWriter.write(Data(page.render().utf8), to: folder.appendingPathComponent("index.html"))
    }

    /// Thresholded metrics for the HTML tables (a two-sided bound shows its upper side).
    static func judgedMetrics(_ run: DatasetRun) -> [HTMLReport.Metric] {
        run.dataset.thresholds.keys.sorted().map { name in
            let bound = run.dataset.thresholds[name]!
            let threshold: HTMLReport.Threshold? = bound.max.map { .atMost($0) } ?? bound.min.map { .atLeast($0) }
            return HTMLReport.Metric(name: name, value: run.outcome.metrics[name] ?? .nan, threshold: threshold)
        }
    }

    /// Errors are tiny next to camera spacing: draw them large enough to see (a power of ten).
    static func exaggerationFactor(_ accuracy: PoseAccuracyReport) -> Double {
        let typical = max(accuracy.medianPositionError, 1e-12)
        let wanted = accuracy.sceneSize * 0.03 / typical
        guard wanted > 1 else { return 1 }
        return pow(10, floor(log10(wanted)))
    }

    static func histogram(_ values: [Double], title: String, label: String, threshold: Double?, file: URL) throws {
        var options = HistogramPlot.Options()
        options.title = title
        options.valueLabel = label
        options.countLabel = "cameras"
        options.threshold = threshold
        try writePNG(HistogramPlot.render(values, options: options), to: file)
    }

    static func writePNG(_ image: RGBImage, to url: URL) throws {
        try AtomicFileWriter.write(try ImageCodec.encode(image, as: .png), to: url)
    }
}
