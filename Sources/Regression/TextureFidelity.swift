import Foundation
import ReconstructionCore
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
        let world = worldMesh(model.mesh, modelFromWorld: modelFromWorld)
        let renderer = TexturedModelRenderer()
        let scores = parallelMap(views.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> ViewScore in
            let view = views[i]
            let (image, covered) = renderer.render(mesh: world, diffuse: diffuse, intrinsics: view.intrinsics,
                                                   cameraFromWorld: view.cameraFromWorld)
            var include = covered
            if let mask = view.mask {
                for k in include.indices where include[k] {
                    let x = (k % image.width) * mask.width / image.width, y = (k / image.width) * mask.height / image.height
                    if mask.pixels[y * mask.width + x] == 0 { include[k] = false }
                }
            }
            let pixels = include.reduce(0) { $0 + ($1 ? 1 : 0) }
            return ViewScore(name: view.name, psnr: TexturedModelRenderer.psnr(image, view.image, include: include), pixels: pixels)
        }
        return Result(views: scores)
    }

    /// The model's mesh moved back into the world frame.
    static func worldMesh(_ mesh: TexturedMesh, modelFromWorld: SimilarityTransform) -> TexturedMesh {
        var out = mesh
        let r = modelFromWorld.rotation
        let s = Float(modelFromWorld.scale)
        let t = SIMD3<Float>(Float(modelFromWorld.translation.x), Float(modelFromWorld.translation.y), Float(modelFromWorld.translation.z))
        // p_world = Rᵀ (p_model − t) / s: the columns of R are the rows of Rᵀ.
        func column(_ j: Int) -> SIMD3<Float> { SIMD3(Float(r[0, j]), Float(r[1, j]), Float(r[2, j])) }
        let (c0, c1, c2) = (column(0), column(1), column(2))
        out.positions = mesh.positions.map { p in
            let q = (p - t) / s
            return SIMD3(simdDot(c0, q), simdDot(c1, q), simdDot(c2, q))
        }
        out.normals = mesh.normals.map { n in SIMD3(simdDot(c0, n), simdDot(c1, n), simdDot(c2, n)) }
        return out
    }
}
