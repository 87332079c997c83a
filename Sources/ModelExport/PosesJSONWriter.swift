import Foundation
import ReconstructionCore

/// Writes `poses.json`: every input image in scene order with, when registered, its
/// camera-to-world pose, intrinsics, observation count and mean reprojection error, and otherwise
/// the reason it is not registered; and under `sparse_model`, the model's point and observation
/// counts, mean track length and mean reprojection error.
///
/// Rotations are camera-to-world unit quaternions [w, x, y, z] with w ≥ 0; translations are
/// camera centres in world coordinates (scene units). Camera axes: x right, y down, z forward
/// (OpenCV/COLMAP). Pixel origin: the image's top-left corner; first pixel centre at (0.5, 0.5).
public enum PosesJSONWriter {
    /// Writes `scene`'s poses to the file `url` (parent directories created, written atomically).
    /// - Parameter world: the world frame (described under "axes"/"world"; "metric" says whether
    ///   its units are metres).
    ///   `warnings`: what the run warned about (a K that does not fit the photos…), kept with the
    ///   poses under "warnings" so that a pipeline reading the file alone sees them; omitted when empty.
    /// - Throws: `ModelExportError` naming the file.
    public static func write(scene: SparseScene, to url: URL, world: PosesWorld = .reconstruction, warnings: [String] = []) throws {
        let data: Data
        do {
            data = try jsonData(scene: scene, world: world, warnings: warnings)
        } catch {
            throw ModelExportError(file: url, "cannot encode poses as JSON: \(error)")
        }
        try AtomicFileWriter.write(data, to: url)
    }

    /// The JSON document (pretty-printed, sorted keys, full double precision).
    public static func jsonData(scene: SparseScene, world: PosesWorld = .reconstruction, warnings: [String] = []) throws -> Data {
        let fit = scene.fit()
        let images = zip(scene.images, fit.images).map { image, imageFit -> ImageEntry in
            guard let cameraFromWorld = image.cameraFromWorld else {
                return ImageEntry(file: image.name, registered: false,
                                  reason: image.unregisteredReason ?? "not registered")
            }
            let worldFromCamera = cameraFromWorld.inverse
            let k = image.intrinsics
            return ImageEntry(
                file: image.name, registered: true,
                rotation: UnitQuaternion(worldFromCamera.rotation).array.map(withoutNegativeZero),
                translation: worldFromCamera.translation.array.map(withoutNegativeZero),
                intrinsics: Intrinsics(model: k.hasDistortion ? "OPENCV" : "PINHOLE", width: k.width, height: k.height,
                                       fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, k1: k.k1, k2: k.k2,
                                       source: image.intrinsicsSource.rawValue),
                observations: imageFit.observations,
                reprojectionError: imageFit.meanReprojectionErrorPixels)
        }
        let document = Document(
            convention: "camera_to_world",
            axes: Axes(camera: "x right, y down, z forward (OpenCV/COLMAP)", world: world.description),
            metric: world.isMetric,
            pixelOrigin: "top-left corner; first pixel centre at (0.5, 0.5)",
            quaternionOrder: "wxyz",
            registeredCount: scene.registeredCount,
            imageCount: scene.images.count,
            sparseModel: SparseModel(points: fit.points, observations: fit.observations,
                                     meanTrackLength: fit.meanTrackLength,
                                     meanReprojectionError: fit.meanReprojectionErrorPixels),
            images: images,
            warnings: warnings.isEmpty ? nil : warnings)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }

    /// -0 written as 0 (the same number; tidier output).
    private static func withoutNegativeZero(_ value: Double) -> Double { value + 0 }

    private struct Document: Encodable {
        var convention: String
        var axes: Axes
        var metric: Bool
        var pixelOrigin: String
        var quaternionOrder: String
        var registeredCount: Int
        var imageCount: Int
        var sparseModel: SparseModel
        var images: [ImageEntry]
        var warnings: [String]?

        enum CodingKeys: String, CodingKey {
            case convention, axes, images, metric, warnings
            case pixelOrigin = "pixel_origin"
            case quaternionOrder = "quaternion_order"
            case registeredCount = "registered_count"
            case imageCount = "image_count"
            case sparseModel = "sparse_model"
        }
    }

    /// How well the model's points fit the photos (`SparseSceneFit`).
    private struct SparseModel: Encodable {
        var points: Int
        var observations: Int
        var meanTrackLength: Double
        /// Pixels; absent when no observation projects.
        var meanReprojectionError: Double?

        enum CodingKeys: String, CodingKey {
            case points, observations
            case meanTrackLength = "mean_track_length"
            case meanReprojectionError = "mean_reprojection_error_px"
        }
    }

    private struct Axes: Encodable {
        var camera: String
        var world: String
    }

    private struct ImageEntry: Encodable {
        var file: String
        var registered: Bool
        /// Camera-to-world quaternion [w, x, y, z], w ≥ 0.
        var rotation: [Double]? = nil
        /// Camera centre in world coordinates.
        var translation: [Double]? = nil
        var intrinsics: Intrinsics? = nil
        /// Reconstructed points this image observes.
        var observations: Int? = nil
        /// Their mean reprojection error, pixels.
        var reprojectionError: Double? = nil
        var reason: String? = nil

        enum CodingKeys: String, CodingKey {
            case file, registered, rotation, translation, intrinsics, observations, reason
            case reprojectionError = "reprojection_error_px"
        }
    }

    private struct Intrinsics: Encodable {
        var model: String
        var width: Int
        var height: Int
        var fx: Double
        var fy: Double
        var cx: Double
        var cy: Double
        var k1: Double
        var k2: Double
        var source: String
    }
}
