import Foundation
import Reconstruction
import ReconstructionCore

/// Known poses with depth that do not describe one scene: a mistake in the input, refused rather
/// than fused into a surface that matches nothing.
public struct DepthDisagreement: Error, CustomStringConvertible, Equatable {
    public var folder: String
    /// The median share of samples agreeing with their best other view; nil when no view's
    /// depth fell inside another view at all.
    public var agreement: Double?
    /// The likely mistake, and how many times more of the depth agrees with it undone (nil when
    /// almost none agrees as given).
    public var mistake: DepthAgreement.Mistake?
    public var improvement: Double?

    public var description: String {
        let check = "Check the poses' camera axes (keyframes: \"axes\": \"arkit\" or \"opencv\"), that the intrinsics are "
            + "for the colour photo's size, and the depth units (16-bit PNG: millimetres; float TIFF: metres)"
        if let mistake {
            let times = improvement.map { String(format: " (undone, %.1f times as much of the depth agrees)", $0) }
                ?? " (undone, the depth agrees; as given, almost none of it does)"
            return "\(folder): the depth maps do not agree with each other under their poses: \(mistake)\(times). \(check)"
        }
        let measured = agreement.map { "at most \(Int(($0 * 100).rounded())) % of a frame's depth samples agree with another frame's depth (median); consistent captures agree on most" }
            ?? "no frame's depth falls inside another frame's view"
        return "\(folder): the depth maps do not agree with each other under their poses: \(measured). \(check)"
    }
}

extension DenseRun {
    /// A frame's depth agreeing with no other frame's on less than this share is not used
    /// (consistent captures measure 0.8–1; wrong axes, units or intrinsics 0–0.1).
    static let leastDepthAgreement = 0.25

    /// Known metric poses with depth: the depth maps must agree with each other under the poses
    /// (`DepthAgreement`). When most do not, the input is refused, naming the likely mistake;
    /// a frame whose depth agrees with no other frame's is named and its depth is not used.
    /// - Returns: the sidecars to keep.
    static func agreeingDepth(_ sidecars: [(image: SparseScene.Image, index: Int, sidecar: DepthSidecar)], imagesDirectory: URL,
                              warnings: inout [String]) throws -> [(image: SparseScene.Image, index: Int, sidecar: DepthSidecar)] {
        guard sidecars.count >= 2 else { return sidecars }
        let inputs = sidecars.map { depthInput($0.image, $0.sidecar) }
        let neighbours = DepthAgreement.neighbourLists(inputs)
        let result = DepthAgreement.measure(inputs, neighbours: neighbours)
        let median = result.median
        let sizes = sidecars.map { (width: $0.image.intrinsics.width, height: $0.image.intrinsics.height) }
        // A common mistake undone that makes the depth agree clearly better is refused, named;
        // so is depth that barely agrees anywhere.
        let diagnosis = DepthAgreement.diagnose(inputs, photoSizes: sizes, current: result, neighbours: neighbours)
        if diagnosis != nil || (median != nil && median! < leastDepthAgreement) {
            throw DepthDisagreement(folder: imagesDirectory.path, agreement: median, mistake: diagnosis?.mistake,
                                    improvement: result.support < 0.05 ? nil : diagnosis.map { $0.support / result.support })
        }
        if median == nil {
            // Depth frames that overlap nothing may be a capture of separate parts.
            warnings.append("no frame's depth falls inside another frame's view: the depth is fused as it is, unchecked")
            return sidecars
        }
        var kept: [(image: SparseScene.Image, index: Int, sidecar: DepthSidecar)] = []
        for (item, agreement) in zip(sidecars, result.perView) {
            if let agreement, agreement < leastDepthAgreement {
                warnings.append("\(item.image.name): its depth agrees with no other frame's (at most \(Int((agreement * 100).rounded())) % "
                                + "of its samples); its pose or depth is off, and its depth is not used")
            } else {
                kept.append(item)
            }
        }
        return kept
    }

    /// Point clouds as they can be fused: points that are not finite numbers left out, an empty
    /// cloud named and not used. A cloud that another tool's units (millimetres) or axes (Y up
    /// against Z up), undone, make agree with the frames' depth, one whose points mostly lie in
    /// space the frames saw empty, or one outside every photo's view is refused naming its file:
    /// it would otherwise put a ghost surface in the model.
    /// - Parameter depth: the frames' depth (intrinsics at the maps' size), in the poses' units.
    static func usableClouds(_ clouds: [SurfaceReconstruction.PointInput], scene: SparseScene,
                             depth: [SurfaceReconstruction.DepthInput], warnings: inout [String]) throws -> [SurfaceReconstruction.PointInput] {
        let cameras = scene.images.compactMap { image in image.cameraFromWorld.map { (image.intrinsics, $0.inverse) } }
        var usable: [SurfaceReconstruction.PointInput] = []
        for (index, input) in clouds.enumerated() {
            let name = input.name ?? "point cloud \(index + 1)"
            var cloud = input
            let finite = input.cloud.positions.indices.filter { i in
                let p = input.cloud.positions[i]
                return p.x.isFinite && p.y.isFinite && p.z.isFinite
            }
            if finite.count < input.cloud.count {
                warnings.append("\(name): \(input.cloud.count - finite.count) of its \(input.cloud.count) points are not finite numbers and are left out")
                cloud.cloud = input.cloud.keeping(finite)
            }
            guard cloud.cloud.count > 0 else {
                warnings.append("\(name): has no points; it is not used")
                continue
            }
            let fit = DepthAgreement.fit(points: cloud.cloud.positions, cameras: cameras, depth: depth)
            let check = "it must be in metres, in the known poses' world frame"
            // The units or axes of another tool, undone, make the cloud agree with the depth: named.
            if let mistake = DepthAgreement.diagnose(points: cloud.cloud.positions, cameras: cameras, depth: depth, current: fit) {
                throw CloudDisagreement(file: name, problem: "its points do not agree with the frames' depth: \(mistake); \(check)")
            }
            // Points hidden behind the frames' surfaces may be parts of a larger scan; points in
            // space the frames saw empty cannot be.
            if let free = fit.inFreeSpace, free > 0.5 {
                throw CloudDisagreement(file: name, problem: "\(Int((free * 100).rounded())) % of its points that fall on the frames' depth "
                                        + "lie in front of it, in space the frames saw empty; \(check)")
            }
            if fit.inView < 0.01 {
                throw CloudDisagreement(file: name, problem: "none of its points is in front of a camera and inside its photo; \(check)")
            }
            usable.append(cloud)
        }
        return usable
    }
}

/// A point cloud that does not sit in the cameras' scene.
public struct CloudDisagreement: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var problem: String
    public var description: String { "\(file): \(problem)" }
}
