import Foundation
import ReconstructionCore

/// Writes nerfstudio's `transforms.json` (the format `ns-process-data` produces; see
/// docs.nerf.studio, "Data conventions").
///
/// Only registered images are listed. Intrinsics (pixels, same origin as COLMAP's, written
/// unchanged) go at the top level when all registered images share one `CameraIntrinsics`, else
/// in every frame; the model is always "OPENCV" with p1 = p2 = 0. Each frame's
/// `transform_matrix` is the 4×4 camera-to-world matrix in nerfstudio's (OpenGL) camera axes —
/// x right, y up, z back — i.e. worldFromCamera with its camera y and z columns negated.
/// `applied_transform` is the 3×4 identity: the world frame is not re-oriented. `ply_file_path`,
/// when given, names the sparse points' PLY (relative to the file, in the same world frame), from
/// which nerfstudio's Gaussian splatting starts.
public enum TransformsJSONWriter {
    public static let fileName = "transforms.json"

    /// Writes the file `url` (parent directories created, written atomically).
    /// - Parameter imagesDirectory: the folder holding the images (their names in the scene are
    ///   relative to it); each frame's `file_path` is relative to `url`'s directory.
    /// - Throws: `ModelExportError` naming the file.
    public static func write(scene: SparseScene, imagesDirectory: URL, to url: URL, plyFilePath: String? = nil) throws {
        let outputDirectory = url.deletingLastPathComponent()
        do {
            // Created first so that symbolic links in the output path resolve when computing relative paths.
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw ModelExportError(file: outputDirectory, "cannot create the output directory: \(error.localizedDescription)")
        }
        let data: Data
        do {
            data = try jsonData(scene: scene, imagesDirectory: imagesDirectory, outputDirectory: outputDirectory, plyFilePath: plyFilePath)
        } catch {
            throw ModelExportError(file: url, "cannot encode transforms as JSON: \(error)")
        }
        try AtomicFileWriter.write(data, to: url)
    }

    /// The JSON document (pretty-printed, sorted keys, full double precision), with file paths
    /// relative to `outputDirectory`.
    public static func jsonData(scene: SparseScene, imagesDirectory: URL, outputDirectory: URL, plyFilePath: String? = nil) throws -> Data {
        let registered = scene.images.indices.filter { scene.images[$0].isRegistered }
        let sharedIntrinsics: CameraIntrinsics? = registered.first.flatMap { first in
            let k = scene.images[first].intrinsics
            return registered.allSatisfy { scene.images[$0].intrinsics == k } ? k : nil
        }
        let colmapIDs = COLMAPTextWriter.imageIDs(of: scene)
        var frames: [Frame] = []
        frames.reserveCapacity(registered.count)
        for index in registered {
            let image = scene.images[index]
            guard let cameraFromWorld = image.cameraFromWorld, let colmapID = colmapIDs[index] else { continue }
            let worldFromCamera = cameraFromWorld.inverse
            let r = worldFromCamera.rotation
            let t = worldFromCamera.translation
            // + 0 turns -0 into 0 (the same number; tidier output).
            let matrix: [[Double]] = [
                [r[0, 0] + 0, -r[0, 1] + 0, -r[0, 2] + 0, t.x + 0],
                [r[1, 0] + 0, -r[1, 1] + 0, -r[1, 2] + 0, t.y + 0],
                [r[2, 0] + 0, -r[2, 1] + 0, -r[2, 2] + 0, t.z + 0],
                [0, 0, 0, 1],
            ]
            let imageURL = imagesDirectory.appendingPathComponent(image.name, isDirectory: false)
            frames.append(Frame(filePath: RelativePath.of(imageURL, relativeTo: outputDirectory),
                                transformMatrix: matrix, colmapImageID: colmapID,
                                camera: sharedIntrinsics == nil ? CameraFields(image.intrinsics) : nil))
        }
        let document = Document(
            cameraModel: "OPENCV",
            camera: sharedIntrinsics.map(CameraFields.init),
            frames: frames,
            appliedTransform: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]],
            plyFilePath: plyFilePath)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }

    /// nerfstudio's OPENCV camera fields (pixels; p1, p2 tangential distortion always 0).
    private struct CameraFields: Encodable {
        var flX: Double
        var flY: Double
        var cx: Double
        var cy: Double
        var w: Int
        var h: Int
        var k1: Double
        var k2: Double
        var p1: Double = 0
        var p2: Double = 0

        init(_ k: CameraIntrinsics) {
            flX = k.fx
            flY = k.fy
            cx = k.cx
            cy = k.cy
            w = k.width
            h = k.height
            k1 = k.k1
            k2 = k.k2
        }

        enum CodingKeys: String, CodingKey {
            case cx, cy, w, h, k1, k2, p1, p2
            case flX = "fl_x"
            case flY = "fl_y"
        }
    }

    private struct Frame: Encodable {
        var filePath: String
        var transformMatrix: [[Double]]
        var colmapImageID: Int
        /// Per-frame intrinsics when the images do not share one camera.
        var camera: CameraFields?

        enum CodingKeys: String, CodingKey {
            case filePath = "file_path"
            case transformMatrix = "transform_matrix"
            case colmapImageID = "colmap_im_id"
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(filePath, forKey: .filePath)
            try container.encode(transformMatrix, forKey: .transformMatrix)
            try container.encode(colmapImageID, forKey: .colmapImageID)
            try camera?.encode(to: encoder)  // flattened into the frame object
        }
    }

    private struct Document: Encodable {
        var cameraModel: String
        /// Shared intrinsics, flattened into the top level; nil when they vary per frame.
        var camera: CameraFields?
        var frames: [Frame]
        var appliedTransform: [[Double]]
        var plyFilePath: String?

        enum CodingKeys: String, CodingKey {
            case frames
            case cameraModel = "camera_model"
            case appliedTransform = "applied_transform"
            case plyFilePath = "ply_file_path"
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cameraModel, forKey: .cameraModel)
            try container.encode(frames, forKey: .frames)
            try container.encode(appliedTransform, forKey: .appliedTransform)
            try container.encodeIfPresent(plyFilePath, forKey: .plyFilePath)
            try camera?.encode(to: encoder)  // flattened into the top-level object
        }
    }
}
