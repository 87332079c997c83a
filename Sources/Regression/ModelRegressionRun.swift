import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Texturing

/// The dense and model stages of a regression dataset, after its poses: the surface scored against
/// the true mesh (when there is one), a reduced model with every fifth photo held out of texturing,
/// its texture fidelity on those photos, and pictures of the model next to the photos for the report.
public struct ModelRegressionRun: Sendable {
    public var metrics: [String: Double]
    /// Held-out photo and the model rendered from its camera, side by side (photo left).
    public var comparisons: [(name: String, image: RGBImage)]
    public var modelFile: URL

    /// Whether `dataset` asks for anything past the poses.
    public static func isNeeded(for dataset: RegressionManifest.Dataset) -> Bool {
        dataset.thresholds.keys.contains { $0.hasPrefix("surface.") || $0.hasPrefix("model.") }
    }

    public static func run(capture: PreparedCapture, poses: PoseRun, outputDirectory: URL, detail: DetailLevel = .reduced,
                           holdOutEvery: Int = 5, log: @escaping @Sendable (String) -> Void = { _ in }) throws -> ModelRegressionRun {
        let scene = poses.estimation.scene
        var metrics: [String: Double] = [:]
        let denseStarted = Date()
        var options = DenseRun.Options()
        options.stereo.maxImageDimension = detail.budget().stereoImageDimension
        let dense = try DenseRun.run(scene: scene, imagesDirectory: capture.imagesDirectory, options: options, log: log)
        metrics[Metric.denseSeconds] = Date().timeIntervalSince(denseStarted)
        if let meshURL = capture.groundTruthMesh {
            let truth = GroundTruth(poses: capture.groundTruthPoses, meshURL: meshURL)
            let estimated = scene.scaled(by: dense.metresPerUnit ?? 1).namedPoses
            let accuracy = try SurfaceEvaluation.evaluate(mesh: dense.surface.mesh, estimated: estimated, groundTruth: truth)
            metrics[Metric.surfacePrecision] = accuracy.precision
            metrics[Metric.surfaceRecall] = accuracy.recall
            metrics[Metric.surfaceFScore] = accuracy.fScore
            metrics[Metric.surfaceOutsideFraction] = accuracy.outsideCropFraction
        }
        let modelStarted = Date()
        let built = try ModelRun.build(scene: scene, surface: dense.surface.mesh, metresPerUnit: dense.metresPerUnit,
                                       imagesDirectory: capture.imagesDirectory, budget: detail.budget(), up: dense.up, holdOutEvery: holdOutEvery, log: log)
        let modelFile = outputDirectory.appendingPathComponent("model-\(detail.rawValue).usdz")
        _ = try ModelRun.write(built.model, textureFormat: .png, to: modelFile)
        metrics[Metric.modelSeconds] = Date().timeIntervalSince(modelStarted)
        metrics[Metric.modelTriangles] = Double(built.model.mesh.triangleCount)
        if let psnr = built.fidelity?.meanPSNR { metrics[Metric.texturePSNR] = psnr }

        // Two held-out views for the report.
        var comparisons: [(String, RGBImage)] = []
        if let diffuse = built.model.textures.diffuseColor {
            let world = built.model.mesh.transformed(by: built.modelFromWorld.inverse)
            for view in built.heldOutViews.prefix(2) {
                let rendered = TexturedModelRenderer().render(mesh: world, diffuse: diffuse, intrinsics: view.intrinsics,
                                                              cameraFromWorld: view.cameraFromWorld).image
                comparisons.append((view.name, sideBySide(view.image, rendered)))
            }
        }
        return ModelRegressionRun(metrics: metrics, comparisons: comparisons, modelFile: modelFile)
    }

    static func sideBySide(_ a: RGBImage, _ b: RGBImage) -> RGBImage {
        var out = RGBImage(width: a.width + b.width, height: max(a.height, b.height))
        for y in 0..<a.height { for x in 0..<a.width { for c in 0..<3 { out.pixels[(y * out.width + x) * 3 + c] = a.pixels[(y * a.width + x) * 3 + c] } } }
        for y in 0..<b.height { for x in 0..<b.width { for c in 0..<3 { out.pixels[(y * out.width + a.width + x) * 3 + c] = b.pixels[(y * b.width + x) * 3 + c] } } }
        return out
    }
}
