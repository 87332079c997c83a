import Foundation
import ReconstructionCore
import ModelExport
import Reconstruction
import Texturing

/// Texture fidelity: the textured model's base colour rendered (unlit) through cameras whose photos
/// did not colour it, against those photos; PSNR over the pixels that show the model (and, when the
/// photo has one, lie inside its object mask). Lens distortion is not rendered, so photos should be
/// close to pinhole (synthetic captures are exactly).
public enum TextureFidelity {
    public struct ViewScore: Sendable, Codable, Equatable {
        public var name: String
        /// dB over the compared pixels; nil when the model covers none of them.
        public var psnr: Double?
        public var pixels: Int
    }

    public struct Result: Sendable, Codable, Equatable {
        public var views: [ViewScore]
        /// Mean of the views' PSNR (dB), nil when no view could be scored.
        public var meanPSNR: Double? {
            let scores = views.compactMap(\.psnr)
            return scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
        }
    }

    /// Scores `model` (in the model frame that `modelFromWorld` defines) against `views` (world frame).
    public static func evaluate(model: TexturedModel, modelFromWorld: SimilarityTransform, views: [BakingView]) -> Result {
        guard let diffuse = model.textures.diffuseColor else { return Result(views: []) }
        let world = model.mesh.transformed(by: modelFromWorld.inverse)
        let renderer = TexturedModelRenderer()
        let scores = parallelMap(views.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> ViewScore in
            let view = views[i]
            let (image, covered) = renderer.render(mesh: world, diffuse: diffuse, intrinsics: view.intrinsics,
                                                   cameraFromWorld: view.cameraFromWorld)
            var include = covered
            if let mask = view.mask {
                for k in include.indices where include[k] {
                    if !mask.keeps(x: k % image.width, y: k / image.width, imageWidth: image.width, imageHeight: image.height) { include[k] = false }
                }
            }
            let pixels = include.reduce(0) { $0 + ($1 ? 1 : 0) }
            return ViewScore(name: view.name, psnr: TexturedModelRenderer.psnr(image, view.image, include: include), pixels: pixels)
        }
        return Result(views: scores)
    }
}

extension TextureFidelity {
    /// Texture fidelity of a written GLB model: rendered through the cameras of `heldOut` photos
    /// as `posesFile` (a poses.json in the model's frame, e.g. from `reconstruct --poses-output`)
    /// records them, against those photos in `imagesDirectory` (and their `_mask` sidecars).
    /// - Throws: naming the file, when the model, the poses or a photo cannot be read, or a
    ///   held-out photo has no registered camera.
    public static func evaluate(modelFile: URL, posesFile: URL, imagesDirectory: URL, heldOut: [String]) throws -> Result {
        let contents = try GLBReader.read(modelFile)
        guard let encoded = contents.baseColor else { throw ModelRunError("\(modelFile.path): the model has no base-colour texture") }
        let diffuse = try ImageCodec.decodeRGB(Data(encoded.data))
        let poses = Dictionary(try PosesJSONReader.load(posesFile).map { ($0.name, $0.worldFromCamera) }, uniquingKeysWith: { a, _ in a })
        let intrinsics = try PosesJSONReader.loadIntrinsics(posesFile)
        var views: [BakingView] = []
        let sidecars = MaskSidecars(directory: imagesDirectory)
        for name in heldOut {
            guard let worldFromCamera = poses[name] ?? nil, let k = intrinsics[name] else {
                throw ModelRunError("\(posesFile.path): no registered camera with intrinsics for the held-out photo \(name)")
            }
            let url = imagesDirectory.appendingPathComponent(name)
            let photo: RGBImage
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw ModelRunError("held-out photo \(url.path) cannot be read: \(FileReadFailure.reason(url, error))")
            }
            do { photo = try ImageCodec.decodeRGB(data) } catch { throw ModelRunError("held-out photo \(url.path) does not decode: \(error)") }
            let mask = try? sidecars.objectMask(of: name)
            views.append(BakingView(name: name, image: photo, intrinsics: k.scaled(toWidth: photo.width, height: photo.height),
                                    cameraFromWorld: worldFromCamera.inverse, mask: mask))
        }
        let model = TexturedModel(mesh: contents.mesh, textures: ModelTextures(diffuseColor: diffuse))
        return evaluate(model: model, modelFromWorld: SimilarityTransform(scale: 1, rotation: .identity, translation: .zero), views: views)
    }
}
