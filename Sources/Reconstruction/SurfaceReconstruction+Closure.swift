import Foundation
import Meshing
import ReconstructionCore

extension SurfaceReconstruction {
    /// When the surface stage closes openings that no camera could see (`OpeningClosure`).
    public enum ClosureMode: String, Sendable, CaseIterable {
        /// When some depth map comes with an object mask: an object capture, whose unseen
        /// underside should be closed (masks from sidecars, or from `ObjectIsolation`). Open
        /// scenes (a wall with a fountain) have no masks and are left as seen.
        case whenObjectMasked = "auto"
        /// Always look for openings to close (the tests of `OpeningClosure` still apply).
        case always
        /// Never: the surface is what the cameras saw.
        case never
    }

    /// Whether openings are closed: with `.whenObjectMasked`, when some depth map has a mask or
    /// masks come as `silhouettes` (a point cloud of an object with masks and no depth maps).
    func closes(_ inputs: [DepthInput], silhouettes: [Silhouette] = []) -> Bool {
        switch options.closesOpenings {
        case .always: return true
        case .never: return false
        case .whenObjectMasked: return !silhouettes.isEmpty || inputs.contains { $0.mask != nil }
        }
    }

    /// The support plane in the depth around the object, if there is one.
    func supportPlane(_ inputs: [DepthInput], bounds: BoundingBox, voxelSize: Float) -> Plane? {
        let samples = Self.supportSamples(inputs, near: bounds)
        var estimator = options.supportPlane
        estimator.inlierDistance = options.supportPlaneInlierVoxels * voxelSize
        return SupportPlaneEstimator(options: estimator).estimate(background: samples.background, object: samples.object)
    }

    /// Closes the mesh's unseen openings, on `result.supportPlane` when there is one; where the
    /// depth maps show the space below an opening empty, its skirt is drawn in (`OpeningClosure`).
    func closeOpenings(_ result: inout Result, viewpoints: [SIMD3<Float>], inputs: [DepthInput], margin: Float) {
        let freeSpace = Self.freeSpace(inputs, margin: margin)
        var closure = options.closure
        // A floor taken where the walls end holds only the rim; a hole higher up is not dropped onto it.
        if result.floorFromRim { closure.maximumSkirtEdges = closure.maximumSkirtEdges ?? 3 }
        let closed = OpeningClosure(options: closure).close(result.mesh, supportPlane: result.supportPlane, viewpoints: viewpoints,
                                                                    showsEmpty: freeSpace.probes.isEmpty ? nil : freeSpace.showsEmpty)
        result.mesh = closed.mesh
        result.closure = closed.report
    }

    /// The depth maps of `inputs` as evidence of free space (all their depth, the support's too).
    static func freeSpace(_ inputs: [DepthInput], margin: Float) -> FreeSpace {
        FreeSpace(probes: inputs.compactMap { FreeSpaceProbe(depth: $0.depth, intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera) },
                  margin: margin)
    }

    /// Depth samples of masked inputs: outside the mask but within the object's box widened by half
    /// its size on every side (the support around the object), and inside the mask (the object).
    static func supportSamples(_ inputs: [DepthInput], near bounds: BoundingBox) -> (background: [SIMD3<Float>], object: [SIMD3<Float>]) {
        let reach = AxisBox(bounds).grown(by: 2)
        var background: [SIMD3<Float>] = [], object: [SIMD3<Float>] = []
        for input in inputs {
            guard let mask = input.mask, mask.width > 0, mask.height > 0 else { continue }
            let width = input.depth.width, height = input.depth.height
            let step = max(1, max(width, height) / 256)
            for y in stride(from: 0, to: height, by: step) {
                for x in stride(from: 0, to: width, by: step) {
                    guard let point = input.worldPoint(x: x, y: y) else { continue }
                    if mask.keeps(x: x, y: y, imageWidth: width, imageHeight: height) {
                        object.append(point)
                    } else if reach.contains(point) {
                        background.append(point)
                    }
                }
            }
        }
        return (background, object)
    }
}
