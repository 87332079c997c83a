import Foundation
import Meshing
import Reconstruction
import ReconstructionCore

extension DenseRun {
    /// An object capture's region (where its cameras look from around it, among `points`) and the
    /// world's up direction; nil when the capture is not of an object (see `ObjectRegion.find`).
    static func objectRegion(scene: SparseScene, up: Vector3?, points: [Vector3]) -> (region: ObjectRegion, up: Vector3)? {
        let cameras = scene.images.compactMap { image in
            image.cameraFromWorld.map { ObjectRegion.Camera(cameraFromWorld: $0, intrinsics: image.intrinsics) }
        }
        guard let up, let region = ObjectRegion.find(cameras: cameras, points: points, up: up) else { return nil }
        return (region, up)
    }

    /// Per registered photo, a mask of the rectangle around the object's sparse points as it shows
    /// them (the 1st to 99th percentiles of their projections, grown by `growth` of the rectangle's
    /// size on every side, so parts of the object without sparse points are kept): stereo need not
    /// match the rest. A photo that has fewer than 10 of the points in front of it gets no mask.
    /// Masks are a quarter of the photo's size (stereo scales them).
    static func stereoMasks(scene: SparseScene, objectPoints: [SIMD3<Float>], growth: Double = 0.15,
                            log: (String) -> Void = { _ in }) -> [String: GrayImage] {
        var masks: [String: GrayImage] = [:]
        for image in scene.images {
            guard let pose = image.cameraFromWorld else { continue }
            let k = image.intrinsics
            let pixels = objectPoints.compactMap { k.project(pose.apply(Vector3(Double($0.x), Double($0.y), Double($0.z)))) }
            guard pixels.count >= 10 else { continue }
            let xs = pixels.map(\.x).sorted(), ys = pixels.map(\.y).sorted()
            let lo = pixels.count / 100, hi = pixels.count - 1 - pixels.count / 100
            let padX = growth * (xs[hi] - xs[lo]), padY = growth * (ys[hi] - ys[lo])
            let width = max(1, k.width / 4), height = max(1, k.height / 4)
            let sx = Double(width) / Double(k.width), sy = Double(height) / Double(k.height)
            let x0 = max(0, Int(((xs[lo] - padX) * sx).rounded(.down))), x1 = min(width, Int(((xs[hi] + padX) * sx).rounded(.up)))
            let y0 = max(0, Int(((ys[lo] - padY) * sy).rounded(.down))), y1 = min(height, Int(((ys[hi] + padY) * sy).rounded(.up)))
            var mask = [UInt8](repeating: 0, count: width * height)
            if x0 < x1 && y0 < y1 {
                for y in y0..<y1 { for x in x0..<x1 { mask[y * width + x] = 255 } }
            }
            masks[image.name] = GrayImage(width: width, height: height, pixels: mask)
        }
        // Photos without a mask are matched whole.
        let registered = scene.registeredCount
        let covered = masks.values.reduce(Double(registered - masks.count)) { $0 + Double($1.pixels.filter { $0 != 0 }.count) / Double(max(1, $1.pixels.count)) }
        log(String(format: "stereo keeps to the object: %.0f %% of the photos' area", 100 * covered / Double(max(1, registered))))
        return masks
    }

    /// About 48 × 36 back-projected samples of each depth map (world frame).
    static func depthSamples(_ inputs: [SurfaceReconstruction.DepthInput]) -> [Vector3] {
        inputs.flatMap { input in
            SurfaceReconstruction.backProjected(input, stride: max(1, max(input.depth.width, input.depth.height) / 48))
                .map { Vector3(Double($0.x), Double($0.y), Double($0.z)) }
        }
    }

    /// Keeps the surface to `object`: the depth on it becomes each input's mask (so the surface
    /// stage treats the capture as a masked one), its box the surface's bounds (unless given).
    /// Returns the plane it stands on, when found.
    static func keep(_ object: ObjectIsolation.Result, inputs: inout [SurfaceReconstruction.DepthInput],
                     surface options: inout SurfaceReconstruction.Options, log: (String) -> Void) -> Plane? {
        for i in inputs.indices { inputs[i].mask = object.masks[i] }
        if options.bounds == nil { options.bounds = object.bounds }
        // Masks made from depth have holes wherever stereo found none, and stereo widens an
        // object's outline a little: no visual hull from them (measured: it bloats the surface).
        options.fillsFromSilhouettes = false
        log(String(format: "kept %.0f %% of the depth, on the object", 100 * object.keptFraction)
            + (object.supportPlane == nil ? " (no support plane found under it)" : ", above the plane it stands on"))
        return object.supportPlane
    }

    static func isolationNote(_ region: ObjectRegion) -> String {
        "object capture without masks: \(region.framingCameras) of \(region.cameraCount) photos look at one place from around it, "
            + "where the object is looked for (--no-object-masking keeps the surroundings)"
    }
}
