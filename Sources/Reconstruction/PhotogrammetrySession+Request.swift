import Foundation
import ReconstructionCore

extension PhotogrammetrySession {
    /// What a session is asked to produce. Several requests in one `process` call share the
    /// stages they have in common.
    public enum Request: Hashable, Sendable, CustomStringConvertible {
        public typealias Detail = DetailLevel

        /// A model file: a `.usdz` file, or an OBJ with its material and textures when `url` is a
        /// directory. Needs the dense, surface, model and export stages.
        case modelFile(url: URL, detail: Detail = .reduced, geometry: Geometry? = nil)
        /// Each sample's camera pose and intrinsics.
        case poses
        /// The sparse points with their colours.
        case pointCloud
        /// A box around the reconstructed object (world frame): around the sparse points, or, for an
        /// object capture without masks when the session isolates the object, around the object's
        /// sparse points above its support and their feet on it, or, with no support plane found,
        /// down to where the region every photo frames ends below them (`ObjectIsolation.sparseObjectPoints`).
        case bounds

        /// The stages this request needs, in order.
        public var stages: [ProcessingStage] {
            switch self {
            case .poses, .pointCloud, .bounds: return [.features, .matching, .mapping]
            case .modelFile: return ProcessingStage.allCases
            }
        }

        public var description: String {
            switch self {
            case .modelFile(let url, let detail, _): return "modelFile(\(url.path), \(detail.rawValue))"
            case .poses: return "poses"
            case .pointCloud: return "pointCloud"
            case .bounds: return "bounds"
            }
        }
    }

    /// A crop box and a transform for a model request, both in the frame and units of the
    /// session's `poses` and `bounds` results (structure from motion's own), so a box from
    /// `bounds` crops what it bounds. The model itself comes out in metres when depth sidecars or
    /// tracked poses give the scale: the box and the transform's translation are then scaled with
    /// it (`inMetres(metresPerUnit:)`).
    public struct Geometry: Hashable, Sendable {
        /// Only geometry inside this box (world coordinates) is kept.
        public var bounds: BoundingBox
        /// Maps the reconstruction's world frame to the output model's frame.
        public var modelFromWorld: SimilarityTransform

        public init(bounds: BoundingBox, modelFromWorld: SimilarityTransform) {
            self.bounds = bounds
            self.modelFromWorld = modelFromWorld
        }

        /// The same crop and placement for a surface `metresPerUnit` times larger than the session's
        /// world (its metric scale): the box scaled about the origin, the transform's translation
        /// scaled (its scale and rotation unchanged). Itself when `metresPerUnit` is nil.
        public func inMetres(metresPerUnit: Double?) -> Geometry {
            guard let s = metresPerUnit else { return self }
            return Geometry(bounds: BoundingBox(centre: bounds.centre * s, halfExtents: bounds.halfExtents * s),
                            modelFromWorld: SimilarityTransform(scale: modelFromWorld.scale, rotation: modelFromWorld.rotation,
                                                                translation: modelFromWorld.translation * s))
        }

        public static func == (a: Geometry, b: Geometry) -> Bool {
            a.bounds == b.bounds && a.modelFromWorld == b.modelFromWorld
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(bounds.centre)
            hasher.combine(bounds.halfExtents)
            hasher.combine(modelFromWorld.scale)
            hasher.combine(modelFromWorld.rotation.m)
            hasher.combine(modelFromWorld.translation)
        }
    }
}
