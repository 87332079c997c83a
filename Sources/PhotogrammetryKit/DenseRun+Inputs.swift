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

    /// Checks the masks as a set before any stereo runs: masks that mark no pixel as object at all
    /// leave nothing to reconstruct (an error, at once rather than after stereo and fusion), and
    /// masks most of which mark their photo's whole border as object look inverted (a warning: a
    /// disc 7 mm thick came out of inverted masks, without a word).
    /// `photos`: the registered photos' count (a photo without a mask is used whole).
    static func checkMasks(_ masks: [String: GrayImage], photos: Int, in imagesDirectory: URL, warnings: inout [String]) throws {
        guard !masks.isEmpty else { return }
        let names = masks.keys.sorted()
        let sidecars = MaskSidecars(directory: imagesDirectory)
        func file(_ photo: String) -> String { sidecars.maskOrMatte(of: photo)?.lastPathComponent ?? photo }
        if masks.count == photos, names.allSatisfy({ !masks[$0]!.pixels.contains { $0 != 0 } }) {
            throw ModelRunError("\(imagesDirectory.path): every object mask (\(names.count), e.g. \(file(names[0]))) marks no pixel as the "
                                + "object (non-zero = object): nothing to reconstruct; fix the masks, or use --no-object-masking to ignore them")
        }
        let bordered = names.filter { name in
            let mask = masks[name]!
            let w = mask.width, h = mask.height
            var border: [Int] = []
            for x in 0..<w { border += [x, (h - 1) * w + x] }
            for y in 0..<h { border += [y * w, y * w + w - 1] }
            let object = border.filter { mask.pixels[$0] != 0 }.count
            return Double(object) >= 0.95 * Double(border.count)
        }
        if 2 * bordered.count > names.count {
            warnings.append("\(bordered.count) of \(names.count) object masks (e.g. \(file(bordered[0]))) mark their photo's whole border "
                            + "as the object: are they inverted? Non-zero marks the object, zero the background (right for an "
                            + "object larger than the photos, or masks that only cut out a backdrop)")
        }
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
}
