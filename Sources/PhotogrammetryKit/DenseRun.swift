import CaptureIO
import Foundation
import Meshing
import Reconstruction
import ReconstructionCore

/// Dense geometry after poses: multi-view stereo, LiDAR/depth sidecars registered to the poses
/// (which also gives the metric scale; without depth, a capture's tracked poses may), point
/// clouds in the poses' metric frame, and fusion into a cleaned mesh (watertight for masked
/// object captures, see `SurfaceReconstruction`).
public struct DenseRun: Sendable {
    public var stereo: DenseStereo.Result?
    public var surface: SurfaceReconstruction.Result
    /// Metres per scene unit when depth sidecars (or, without them, tracked poses) fixed the scale,
    /// 1 for known metric poses (the mesh is then in metres); nil when the scale is unknown.
    public var metresPerUnit: Double?
    /// The world's up direction (`ModelRun.up`: gravity sidecars, else how the cameras were held),
    /// read once here for the model's frame.
    public var up: Vector3?
    /// Depth sidecars that were not used, each naming its file.
    public var warnings: [String]
    public var stereoSeconds: Double
    public var lidarViews: Int
    /// Photos whose tracked poses (`TrackedPoses`) gave `metresPerUnit`; 0 when they did not.
    public var trackedScaleCameras: Int
    /// Points fused from point clouds.
    public var fusedPoints: Int
    /// Whether this is a run loaded from a checkpoint (`init(restoring:)`): its times are those of
    /// the run that saved it.
    public var isRestored = false

    public struct Options: Sendable {
        public var stereo = DenseStereo.Options()
        public var surface = SurfaceReconstruction.Options()
        /// Use images (multi-view stereo); off fuses LiDAR depth only.
        public var useStereo = true
        /// Use depth sidecars (`NNNN_depth.png` …) when present.
        public var useDepthSidecars = true
        /// Use `NNNN_mask` and `NNNN_matte` sidecars (`MaskSidecars`) to restrict stereo to the object.
        public var useMasks = true
        /// The masks were checked as a set when the photos were read (`CaptureSamples.read`):
        /// the dense stage does not check them again (nor warn twice).
        public var masksCheckedWhenRead = false
        /// Without masks, keep an object capture's surface to the object (`ObjectRegion`,
        /// `ObjectIsolation`), as Object Capture's object masking does; off keeps the surroundings.
        public var isolatesObject = true
        /// How the object is told from its surroundings then.
        public var isolation = ObjectIsolation.Options()
        /// The poses are metric (known poses from a device): depth sidecars need no scale estimate.
        public var posesAreMetric = false
        public init() {}
    }

    /// Runs the dense stages on a posed scene whose photos are in `imagesDirectory`.
    /// - Parameters:
    ///   - frameDepth: depth per photo name (e.g. from an RGB-D keyframe folder), used instead of
    ///     looking for depth sidecars for those photos.
    ///   - points: point clouds in metres, in the poses' world frame; they need metric poses
    ///     (`posesAreMetric`) or a metric scale from depth sidecars, else they are not used (warning).
    ///   - progress: the stage (`.dense` for stereo, `.surface` for fusion and meshing) and its
    ///     fraction done; called from stereo's worker threads too.
    public static func run(scene: SparseScene, imagesDirectory: URL, options: Options = Options(),
                           frameDepth: [String: DepthSidecar] = [:], points: [SurfaceReconstruction.PointInput] = [],
                           log: @Sendable (String) -> Void = { _ in },
                           isCancelled: () -> Bool = { false },
                           progress: @Sendable (ProcessingStage, Double) -> Void = { _, _ in }) throws -> DenseRun {
        var warnings: [String] = []
        let registered = scene.images.filter(\.isRegistered)
        let masks = options.useMasks ? objectMasks(of: registered, in: imagesDirectory, warnings: &warnings) : [:]
        if !options.masksCheckedWhenRead {
            do { try MaskSidecars.checkSet(masks, photos: registered.count, in: imagesDirectory, warnings: &warnings) } catch {
                for w in warnings { log("warning: \(w)") }  // a mask that could not be used may be why
                throw error
            }
        }
        // Gravity sidecars set the model's up; those that cannot be used are named.
        let (up, gravityWarnings) = ModelRun.up(scene: scene, imagesDirectory: imagesDirectory)
        warnings += gravityWarnings

        // An object capture without masks: stereo looks only where the object can be, and the
        // surface keeps to the object.
        let isolates = options.isolatesObject && masks.isEmpty
        var isolation = isolates && !scene.points.isEmpty ? objectRegion(scene: scene, up: up, points: scene.points.map(\.position)) : nil
        var stereoMasks = masks
        if let found = isolation {
            log(Self.isolationNote(found.region))
            // With sparse points, whether the object can be isolated is decided on them, once,
            // before stereo; stereo then matches only around the object.
            switch ObjectIsolation(options: options.isolation).sparseObjectPoints(scene.points.map(\.position), region: found.region, up: found.up) {
            case .success(let points): stereoMasks = Self.stereoMasks(scene: scene, objectPoints: points, log: log)
            case .failure(let refusal):
                log("kept the surroundings: \(refusal)")
                isolation = nil
            }
        }

        // LiDAR / depth sidecars and the scale they give: median ratio of sidecar depth to the
        // sparse points' depth, over every point seen by a view with depth.
        var sidecars = options.useDepthSidecars
            ? depthSidecars(scene: scene, imagesDirectory: imagesDirectory, frameDepth: frameDepth, warnings: &warnings) : []
        // Known poses and their depth must describe one scene (axes, units, intrinsics).
        if options.posesAreMetric { sidecars = try agreeingDepth(sidecars, imagesDirectory: imagesDirectory, warnings: &warnings) }
        // Estimated poses take their scale from the depth: depth in other units would make a
        // "metric" model 1000 times off, which nothing else would show.
        if !options.posesAreMetric {
            let checked = DepthSidecar.plausibleUnits(sidecars.map { ($0.image.name, $0.sidecar) })
            if let warning = checked.warning { warnings.append(warning) }
            sidecars = checked.kept.map { sidecars[$0] }
        }
        // Known poses are in metres, with depth or without; otherwise the depth gives the scale,
        // and without depth the poses a capture device tracked (`TrackedPoses`) do.
        let depthMetresPerUnit = options.posesAreMetric ? 1
            : sidecars.isEmpty ? nil : scale(scene: scene, sidecars: sidecars.map { ($0.index, $0.sidecar) })
        if !sidecars.isEmpty && depthMetresPerUnit == nil {
            warnings.append("depth sidecars found but too few sparse points fall on them to register their scale; depth is not used")
        }
        let tracked = depthMetresPerUnit == nil && sidecars.isEmpty
            ? TrackedPoses.metricScale(scene: scene, imagesDirectory: imagesDirectory, warnings: &warnings, log: log) : nil
        let metresPerUnit = depthMetresPerUnit ?? tracked?.metresPerUnit
        // Clouds are in the poses' world frame: only a scale the depth gives or known poses place them.
        let pointsMetresPerUnit = depthMetresPerUnit
        if !points.isEmpty && pointsMetresPerUnit == nil {
            warnings.append("point clouds need metric poses (known poses, or a scale from depth sidecars); they are not used")
        }
        var clouds: [SurfaceReconstruction.PointInput] = []
        if let pointsMetresPerUnit {
            let unitsPerMetre = Float(1 / pointsMetresPerUnit)
            clouds = points.map { input in
                var scaled = input
                scaled.cloud = input.cloud.scaled(by: unitsPerMetre)
                scaled.footprintRadius = input.footprintRadius.map { $0 * unitsPerMetre }
                scaled.viewpoints = input.viewpoints.map { $0 * unitsPerMetre }
                return scaled
            }
        }
        if !clouds.isEmpty {
            // Clouds in other units or another frame would add a ghost surface: checked against
            // the cameras and the frames' depth before any stereo runs.
            let unitsPerMetre = Float(1 / (metresPerUnit ?? 1))
            let depth = sidecars.map { depthInput($0.image, $0.sidecar, unitsPerMetre: unitsPerMetre) }
            clouds = try usableClouds(clouds, scene: scene, depth: depth, warnings: &warnings)
        }
        for w in warnings { log("warning: \(w)") }
        // Stereo keeps a depth only where two other photos agree: with fewer than 3 registered
        // photos and no depth sidecar or point cloud to fuse, it is said before stereo runs.
        if options.useStereo, registered.count < 3, clouds.isEmpty, sidecars.isEmpty {
            throw SurfaceReconstruction.SurfaceError.tooFewViews(registered: registered.count)
        }

        var inputs: [SurfaceReconstruction.DepthInput] = []
        var stereo: DenseStereo.Result?
        var guide: [SIMD3<Float>] = []
        let stereoStarted = Date()
        func stereoDepth(masks stereoMasks: [String: GrayImage], reportsProgress: Bool = true) throws -> [SurfaceReconstruction.DepthInput] {
            let result = try DenseStereo(options: options.stereo).run(
                DenseStereo.Input(scene: scene, imagesDirectory: imagesDirectory, masks: stereoMasks), isCancelled: isCancelled) {
                if reportsProgress { progress(.dense, DenseStereo.stageShares.fraction($0.stage, $0.fraction)) }
            }
            stereo = result
            guide = result.pointCloud.positions
            for view in result.skippedViews { log("stereo gave \(view.name) no depth map: \(view.reason)") }
            if result.stillFraction > 0 {
                log(String(format: "stereo left out %.0f %% of the photos' pixels: they keep their place from photo to photo "
                           + "(something fixed to the camera, such as a turntable's backdrop)", 100 * result.stillFraction))
            }
            return result.views.map { view in
                var input = SurfaceReconstruction.DepthInput(view)
                input.mask = masks[view.name]  // marks an object capture; stereo already kept to the mask
                return input
            }
        }
        // Stereo kept to the object's sparse points: should its depth still show that the object
        // cannot be isolated, stereo runs again on the whole photos, for the surroundings.
        var stereoKeptToObject = false
        if options.useStereo {
            let largest = registered.map { max($0.intrinsics.width, $0.intrinsics.height) }.max() ?? 0
            log("dense stereo on \(registered.count) views" + (largest > options.stereo.maxImageDimension
                ? ", photos scaled to at most \(options.stereo.maxImageDimension) px" : ", photos at their size (at most \(largest) px)"))
            do {
                inputs += try stereoDepth(masks: stereoMasks)
                stereoKeptToObject = isolation != nil && !stereoMasks.isEmpty
            } catch where !(error is CancellationError) && !sidecars.isEmpty && metresPerUnit != nil {
                // Texture-poor objects: stereo may find nothing; depth sidecars still give a surface.
                warnings.append("dense stereo gave no depth (\(error)); using the depth sidecars alone")
                log("warning: \(warnings.last!)")
            }
        }
        var stereoSeconds = Date().timeIntervalSince(stereoStarted)
        if isCancelled() { throw CancellationError() }
        progress(.dense, 1)
        if let metresPerUnit {
            for (image, _, sidecar) in sidecars {
                inputs.append(depthInput(image, sidecar, unitsPerMetre: Float(1 / metresPerUnit), weighted: true, mask: masks[image.name]))
            }
            if guide.count < 100, !masks.isEmpty {
                guide = []  // object bounds from LiDAR samples on the masks
                for input in inputs.suffix(sidecars.count) {
                    var masked = input
                    masked.depth = maskedDepth(input.depth, mask: input.mask)
                    guide += SurfaceReconstruction.backProjected(masked, stride: 4)
                }
            }
        }
        if isolates && scene.points.isEmpty {
            // Known poses come without sparse points: where the cameras look is found in the depth.
            isolation = objectRegion(scene: scene, up: up, points: Self.depthSamples(inputs))
            if let isolation { log(Self.isolationNote(isolation.region)) }
        }
        var surfaceOptions = options.surface
        var support: Plane?
        if let isolation {
            switch ObjectIsolation(options: options.isolation).isolate(inputs, region: isolation.region, up: isolation.up) {
            case .success(let object):
                support = Self.keep(object, inputs: &inputs, surface: &surfaceOptions, log: log)
            case .failure(let refusal):
                log("kept the surroundings: \(refusal)")
                if stereoKeptToObject {
                    log("dense stereo again on the whole photos, for the surroundings")
                    let started = Date()
                    let stereoViews = stereo?.views.count ?? 0
                    inputs.replaceSubrange(0..<stereoViews, with: try stereoDepth(masks: masks, reportsProgress: false))
                    stereoSeconds += Date().timeIntervalSince(started)
                    stereoKeptToObject = false
                }
            }
        }
        // Stereo the only depth, and almost none kept where it looked (the masks' share of each
        // photo): the poses or the photos are wrong.
        if let stereo, sidecars.isEmpty || metresPerUnit == nil,
           let warning = Self.littleStereoDepthWarning(stereo, masks: stereoKeptToObject ? stereoMasks : masks, knownPoses: scene.points.isEmpty) {
            warnings.append(warning)
            log("warning: \(warning)")
        }
        let fusedPoints = clouds.reduce(0) { $0 + $1.cloud.count }
        if !options.useStereo && inputs.isEmpty && fusedPoints == 0 { throw SurfaceReconstruction.SurfaceError.noDepthWithoutStereo }
        log("fusing \(inputs.count) depth maps" + (fusedPoints > 0 ? " and \(fusedPoints) points" : ""))
        if let metresPerUnit, let voxel = surfaceOptions.voxelSize { surfaceOptions.voxelSize = voxel / Float(metresPerUnit) }
        var surface: SurfaceReconstruction.Result
        do {
            let silhouettes = registered.compactMap { image -> SurfaceReconstruction.Silhouette? in
                guard let mask = masks[image.name], let cameraFromWorld = image.cameraFromWorld else { return nil }
                return .init(mask: mask, intrinsics: image.intrinsics, worldFromCamera: cameraFromWorld.inverse)
            }
            surface = try SurfaceReconstruction(options: surfaceOptions).run(
                inputs, points: clouds, guidePoints: guide, silhouettes: silhouettes,
                up: silhouettes.isEmpty ? nil : up, floorUp: up, support: support) {
                progress(.surface, $0)
            }
        } catch SurfaceReconstruction.SurfaceError.noDepth where registered.count < 3 {
            throw SurfaceReconstruction.SurfaceError.tooFewViews(registered: registered.count)
        }
        if surface.pointsOutsideSilhouettes > 0 {
            log("left out \(surface.pointsOutsideSilhouettes) of the point clouds' \(fusedPoints) points: outside the masks' visual hull "
                + "(the floor and surroundings the masks keep out of the depth)")
        }
        if surface.silhouetteVoxels > 0 {
            log("completed the object from its masks' outlines where no depth reached it (\(surface.silhouetteVoxels) voxels)")
        }
        if surface.floorFromRim {
            log("no support seen under the object: its floor is taken where its walls end, level across the up direction")
        }
        if surface.closure.closedOpenings > 0 {
            log("closed \(surface.closure.closedOpenings) unseen opening(s)"
                + (surface.closure.closedOnSupport > 0 ? " on the support plane" : "")
                + " with \(surface.closure.capTriangles + surface.closure.skirtTriangles) triangles")
        }
        if let metresPerUnit {
            let s = Float(metresPerUnit)
            surface.mesh.positions = surface.mesh.positions.map { $0 * s }
            surface.bounds = BoundingBox(centre: surface.bounds.centre * metresPerUnit, halfExtents: surface.bounds.halfExtents * metresPerUnit)
            surface.voxelSize *= s
            if let plane = surface.supportPlane { surface.supportPlane = Plane(normal: plane.normal, offset: plane.offset * s) }
        }
        return DenseRun(stereo: stereo, surface: surface, metresPerUnit: metresPerUnit, up: up, warnings: warnings,
                        stereoSeconds: stereoSeconds, lidarViews: sidecars.count, trackedScaleCameras: tracked?.cameras ?? 0,
                        fusedPoints: fusedPoints)
    }

    /// Stereo's and fusion's shares of a dense run's time, for one fraction over both: fusion took
    /// 7 % of it on fountain-P11 at 1024 px and 33 % on a 24-view vase at 768 px with its masks'
    /// hull (2026-11-25).
    public static let stereoAndFusionShares = StepShares<ProcessingStage>([(.dense, 0.85), (.surface, 0.15)])

    static func maskedDepth(_ depth: DepthMap, mask: GrayImage?) -> DepthMap {
        guard let mask else { return depth }
        var out = depth
        for y in 0..<depth.height {
            for x in 0..<depth.width {
                if !mask.keeps(x: x, y: y, imageWidth: depth.width, imageHeight: depth.height) { out[x, y] = 0 }
            }
        }
        return out
    }

    /// Metres per scene unit: the median over sparse points of sidecar depth / scene depth.
    static func scale(scene: SparseScene, sidecars: [(index: Int, sidecar: DepthSidecar)]) -> Double? {
        let byImage = Dictionary(sidecars.map { ($0.index, $0.sidecar) }, uniquingKeysWith: { a, _ in a })
        var ratios: [Double] = []
        for point in scene.points {
            for observation in point.track {
                guard let sidecar = byImage[observation.imageIndex],
                      let cameraFromWorld = scene.images[observation.imageIndex].cameraFromWorld else { continue }
                let k = scene.images[observation.imageIndex].intrinsics
                let p = cameraFromWorld.apply(point.position)
                guard p.z > 0, let pixel = k.project(p) else { continue }
                let x = Int(pixel.x / Double(k.width) * Double(sidecar.depth.width))
                let y = Int(pixel.y / Double(k.height) * Double(sidecar.depth.height))
                guard x >= 0, y >= 0, x < sidecar.depth.width, y < sidecar.depth.height else { continue }
                let metres = Double(sidecar.depth[x, y])
                if metres > 0 { ratios.append(metres / p.z) }
            }
        }
        guard ratios.count >= 10 else { return nil }
        return Statistics.median(ratios)
    }
}
