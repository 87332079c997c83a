import Foundation
import SyntheticCapture

/// Synthetic captures for regression runs, regenerated only when their settings change.
enum SyntheticCaptureCache {
    static func prepare(_ source: RegressionManifest.SyntheticSource, in folder: URL,
                        log: @Sendable (String) -> Void) throws -> PreparedCapture {
        guard let kind = SyntheticSceneKind(rawValue: source.scene) else {
            throw RegressionError.dataset(source.scene, "unknown synthetic scene (known: \(SyntheticSceneKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var settings = SyntheticCapture.Settings(scene: kind, views: source.views, seed: source.seed,
                                                 imageWidth: source.width, imageHeight: source.height)
        if let name = source.surroundings {
            guard let surroundings = SyntheticCapture.Surroundings(rawValue: name) else {
                throw RegressionError.dataset(source.scene, "unknown surroundings \"\(name)\" (known: "
                                              + SyntheticCapture.Surroundings.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            settings.surroundings = surroundings
        }
        let capture = SyntheticCapture(settings: settings)
        let sidecars = source.sidecars ?? true
        let expected = try SyntheticCaptureWriter.description(capture, photoFormat: .jpeg, sidecars: sidecars)
        let descriptionURL = folder.appendingPathComponent("capture.json")
        if (try? Data(contentsOf: descriptionURL)) != expected {
            log("generating \(source.scene): \(source.views) views at \(source.width)×\(source.height), seed \(source.seed)"
                + (settings.surroundings == .studio ? "" : " in a \(settings.surroundings.rawValue)") + (sidecars ? "" : ", photos only"))
            try? FileManager.default.removeItem(at: folder)
            try SyntheticCaptureWriter.write(capture, to: folder, sidecars: sidecars)
        }
        let truth = try GroundTruth.load(folder)
        let k = capture.intrinsics
        return PreparedCapture(imagesDirectory: folder.appendingPathComponent("images", isDirectory: true),
                               intrinsics: .init(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy),
                               groundTruthPoses: truth.poses, groundTruthMesh: truth.meshURL)
    }
}
