import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore

extension DenseRun {
    /// The registered photos' object masks (`MaskSidecars`) by photo name. A mask that cannot be
    /// read, or that has another shape than its photo (stretching it over the photo would cut the
    /// object wrongly), is named in `warnings` and its photo used whole.
    static func objectMasks(of registered: [SparseScene.Image], in imagesDirectory: URL, warnings: inout [String]) -> [String: GrayImage] {
        let sidecars = MaskSidecars(directory: imagesDirectory)
        var masks: [String: GrayImage] = [:]
        for image in registered {
            let mask: GrayImage
            do {
                guard let found = try sidecars.objectMask(of: image.name) else { continue }
                mask = found
            } catch {
                warnings.append("\(imagesDirectory.path): \(error); the photo is used whole")
                continue
            }
            let photoAspect = Double(image.intrinsics.width) / Double(max(1, image.intrinsics.height))
            guard mask.width > 0, mask.height > 0, abs(photoAspect / (Double(mask.width) / Double(mask.height)) - 1) < 0.01 else {
                let file = sidecars.maskOrMatte(of: image.name)?.path ?? image.name
                warnings.append("\(file): the mask is \(mask.width)×\(mask.height), which does not have the shape of its "
                                + "\(image.intrinsics.width)×\(image.intrinsics.height) photo; the photo is used whole")
                continue
            }
            masks[image.name] = mask
        }
        return masks
    }

    /// The registered photos' depth: `frameDepth` by photo name where given, else their depth
    /// sidecars. Sidecars that cannot be used, and (without `frameDepth`) sidecars of no photo,
    /// are named in `warnings`.
    static func depthSidecars(scene: SparseScene, imagesDirectory: URL, frameDepth: [String: DepthSidecar],
                              warnings: inout [String]) -> [(image: SparseScene.Image, index: Int, sidecar: DepthSidecar)] {
        if frameDepth.isEmpty {
            // Every photo of the scene owns its sidecars, registered or not.
            let photos = scene.images.map { imagesDirectory.appendingPathComponent($0.name) }
            warnings += DepthSidecar.orphans(in: imagesDirectory, photos: photos).map(\.description)
        }
        var sidecars: [(image: SparseScene.Image, index: Int, sidecar: DepthSidecar)] = []
        for (index, image) in scene.images.enumerated() where image.isRegistered {
            if let known = frameDepth[image.name] {
                sidecars.append((image, index, known))
                continue
            }
            do {
                if let sidecar = try DepthSidecar.load(besides: imagesDirectory.appendingPathComponent(image.name),
                                                       photoWidth: image.intrinsics.width, photoHeight: image.intrinsics.height) {
                    sidecars.append((image, index, sidecar))
                    if let problem = sidecar.confidenceProblem { warnings.append("\(problem); the depth is used with equal weight everywhere") }
                }
            } catch {
                warnings.append("\(error); the photo is used without depth")
            }
        }
        return sidecars
    }

    /// A photo's depth sidecar as a depth input: depth in scene units (`unitsPerMetre` per metre),
    /// intrinsics at the map's size; `weighted` takes the sidecar's confidence weights.
    static func depthInput(_ image: SparseScene.Image, _ sidecar: DepthSidecar, unitsPerMetre: Float = 1, weighted: Bool = false,
                           mask: GrayImage? = nil) -> SurfaceReconstruction.DepthInput {
        let depth = unitsPerMetre == 1 ? sidecar.depth
            : DepthMap(width: sidecar.depth.width, height: sidecar.depth.height, metres: sidecar.depth.metres.map { $0 * unitsPerMetre })
        return SurfaceReconstruction.DepthInput(depth: depth, weights: weighted ? sidecar.weights : nil,
                                                intrinsics: image.intrinsics.scaled(toWidth: depth.width, height: depth.height),
                                                worldFromCamera: image.cameraFromWorld!.inverse, mask: mask)
    }

    /// A warning when stereo kept almost no depth: fewer fused points than 1 in 1000 of the pixels
    /// it looked at (each view's pixels, or with `masks` the share of them the view's mask keeps).
    /// Poses of other photos given with `--poses` show that way (66 points from six 768 px views of
    /// fountain-P11 posed with Herz-Jesus-P8's poses; its own poses gave 630 000 from eleven, 15 %
    /// of the pixels), as do photos with almost no texture. Nil otherwise.
    static func littleStereoDepthWarning(_ stereo: DenseStereo.Result, masks: [String: GrayImage], knownPoses: Bool) -> String? {
        let pixels = stereo.views.reduce(0.0) { total, view in
            let share = masks[view.name].map { mask in Double(mask.pixels.count { $0 != 0 }) / Double(max(1, mask.pixels.count)) } ?? 1
            return total + share * Double(view.intrinsics.width * view.intrinsics.height)
        }
        let points = stereo.pointCloud.positions.count
        guard pixels > 0, Double(points) < 0.001 * pixels else { return nil }
        let share = String(format: "%.3g", 100 * Double(points) / pixels)
        return "dense stereo kept almost no depth: \(points) points from \(stereo.views.count) views (\(share) % of the pixels it looked at; "
            + (knownPoses ? "photos and their poses usually give 5–20 %): do the known poses belong to these photos (matched by file name)?"
                          : "photos usually give 5–20 %): do the photos show enough texture, and does the scene stand still?")
    }
}
