import Foundation
import Meshing
import ReconstructionCore

/// The surface stage: fuses depth maps (multi-view stereo, and LiDAR where present, each weighted
/// by its confidence) and oriented point clouds into a truncated signed distance volume, extracts
/// the surface with marching cubes, and cleans it: cropped to the object's bounding box, small
/// floating fragments removed, small holes filled. For an object capture (depth with object
/// masks) it then closes the openings no camera could see — the underside resting on a table
/// or floor — on the support plane found in the depth around the object (`OpeningClosure`,
/// `SupportPlaneEstimator`), so the surface is watertight.
public struct SurfaceReconstruction: Sendable {
    public struct Options: Sendable, Equatable {
        /// Voxel edge in scene units; nil chooses it from the depth maps' pixel footprint.
        public var voxelSize: Float?
        /// With automatic voxels: voxel edge = this × the median pixel footprint (depth / focal length).
        public var voxelsPerPixelFootprint: Float = 1.5
        /// Signed distances are truncated at this many voxels.
        public var truncationInVoxels: Float = 4
        /// Crop box; nil estimates it from the fused points (or the depth samples).
        public var bounds: BoundingBox?
        /// Components smaller than this fraction of the largest (by area) are removed.
        public var minimumComponentFraction = 0.05
        /// Holes with at most this many boundary edges are filled.
        public var maximumHoleEdges = 16
        /// When to close unseen openings (default: for object captures, i.e. when depth comes with masks).
        public var closesOpenings: ClosureMode = .whenObjectMasked
        /// Which openings are closed and how (cap edge length defaults to the mesh's).
        public var closure = OpeningClosure.Options()
        /// Support-plane search; its `inlierDistance` is replaced by `supportPlaneInlierVoxels` voxels.
        public var supportPlane = SupportPlaneEstimator.Options()
        /// Depth samples within this many voxels of a candidate support plane lie on it.
        public var supportPlaneInlierVoxels: Float = 2
        /// For object captures (when openings are closed): where no depth reached the object,
        /// complete it with the visual hull of its masks (`SilhouetteHull`), and grow the
        /// automatic box to the hull, so parts stereo could not match (grazing, few views) are
        /// not cut off or continued straight down.
        public var fillsFromSilhouettes = true
        /// The hull counts only where at least this many masked views see a point (have it in
        /// their frame) …
        public var silhouetteMinimumViews = 3
        /// … and at least this fraction of them: a point few views have in their frame is
        /// constrained by those alone, which leaves long cones behind the object.
        public var silhouetteMinimumViewFraction = 0.5
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    /// One depth map to fuse.
    public struct DepthInput: Sendable {
        public var depth: DepthMap
        /// Per-pixel weight (0 ignores a pixel); nil weighs every pixel 1.
        public var weights: [Float]?
        /// Intrinsics at the depth map's resolution.
        public var intrinsics: CameraIntrinsics
        public var worldFromCamera: RigidTransform
        public var colour: RGBImage?
        public var mask: GrayImage?

        public init(depth: DepthMap, weights: [Float]?, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform,
                    colour: RGBImage? = nil, mask: GrayImage? = nil) {
            self.depth = depth
            self.weights = weights
            self.intrinsics = intrinsics
            self.worldFromCamera = worldFromCamera
            self.colour = colour
            self.mask = mask
        }

        /// The world point of pixel (x, y) (its centre at depth), nil where the map has no depth.
        @inline(__always)
        public func worldPoint(x: Int, y: Int) -> SIMD3<Float>? {
            let d = Double(depth[x, y])
            guard d > 0, d.isFinite else { return nil }
            let k = intrinsics
            let p = worldFromCamera.apply(Vector3((Double(x) + 0.5 - k.cx) / k.fx * d, (Double(y) + 0.5 - k.cy) / k.fy * d, d))
            return SIMD3(Float(p.x), Float(p.y), Float(p.z))
        }

        /// A stereo depth map, weighted by its confidence.
        public init(_ view: ViewDepth) {
            self.init(depth: view.depth, weights: view.confidence.isEmpty ? nil : view.confidence, intrinsics: view.intrinsics,
                      worldFromCamera: view.worldFromCamera, colour: view.image)
        }
    }

    /// An object mask seen from a camera: with the masks of every photo, also those stereo gave
    /// no depth, the surface stage completes the object from its visual hull.
    public struct Silhouette: Sendable {
        /// Non-zero on the object, any size (stretched over the photo).
        public var mask: GrayImage
        public var intrinsics: CameraIntrinsics
        public var worldFromCamera: RigidTransform

        public init(mask: GrayImage, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform) {
            self.mask = mask
            self.intrinsics = intrinsics
            self.worldFromCamera = worldFromCamera
        }
    }

    public struct Result: Sendable {
        public var mesh: TriangleMesh
        public var bounds: BoundingBox
        public var voxelSize: Float
        public var cleanup: MeshCleanup.Report
        /// What closing unseen openings did (all zero when it did not run).
        public var closure = OpeningClosure.Report()
        /// The plane the object rests on, normal up towards it, when one was found.
        public var supportPlane: Plane?
        /// Whether `supportPlane` is where the walls end (`RimFloor`), no support having been seen.
        public var floorFromRim = false
        /// Voxels no depth reached that took their distance from the masks' visual hull.
        public var silhouetteVoxels = 0
        /// Points of the clouds left out for lying outside the masks' visual hull.
        public var pointsOutsideSilhouettes = 0
        public var seconds: Double
    }

    public enum SurfaceError: Error, CustomStringConvertible {
        case noDepth
        /// No depth maps, and every point of the clouds lies outside the masks' visual hull.
        case cloudsOutsideMasks(points: Int)
        /// No depth, stereo not having been asked for: every depth sidecar was refused or missing.
        case noDepthWithoutStereo
        /// No depth, and too few registered photos for stereo to give any.
        case tooFewViews(registered: Int)
        case emptySurface
        public var description: String {
            switch self {
            case .noDepth: return "no depth to fuse: dense stereo found no depth and there is no LiDAR depth or point cloud"
            case .cloudsOutsideMasks(let points):
                return "no depth to fuse: all \(points) points of the point clouds lie outside the masks' visual hull "
                    + "(are the masks inverted, white where the background is, or the cloud in another frame or units?)"
            case .noDepthWithoutStereo:
                return "no depth to fuse: stereo was switched off and no depth sidecar or point cloud is usable (see the warnings above)"
            case .tooFewViews(let registered):
                return "no depth to fuse: stereo keeps a depth only where at least two other photos agree, so it needs at least "
                    + "3 registered photos of the surface (\(registered) registered), and there is no LiDAR depth or point cloud"
            case .emptySurface: return "the fused volume has no surface inside the bounding box"
            }
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Fuses `inputs` and `points`; `guidePoints` (e.g. the fused stereo points) set the automatic
    /// bounding box; `silhouettes` (default: the inputs' masks) give the visual hull; `up` (the
    /// world's up direction, when known) lets the hull find the support where the depth does not;
    /// `floorUp` (default `up`) levels the floor taken from the walls' rim when neither finds one
    /// (`RimFloor`); `support` is the plane the object rests on when it is already known (`ObjectIsolation`),
    /// else it is looked for in the depth around the object.
    /// `progress` gets the fraction done (0…1) as the steps finish, from the calling thread.
    public func run(_ inputs: [DepthInput], points: [PointInput] = [], guidePoints: [SIMD3<Float>] = [],
                    silhouettes: [Silhouette] = [], up: Vector3? = nil, floorUp: Vector3? = nil, support: Plane? = nil,
                    progress: (Double) -> Void = { _ in }) throws -> Result {
        let started = Date()
        let usable = inputs.filter { $0.depth.metres.contains { $0 > 0 } }
        let clouds = points.filter { $0.cloud.count > 0 }
        guard !usable.isEmpty || !clouds.isEmpty else { throw SurfaceError.noDepth }
        let viewpoints = usable.map { Self.centre($0.worldFromCamera) } + clouds.flatMap(\.viewpoints)
        let hull = silhouetteHull(usable, silhouettes: silhouettes)
        var pointsOutsideSilhouettes = 0
        var masked = clouds
        if let hull, !clouds.isEmpty { (masked, pointsOutsideSilhouettes) = insideHull(clouds, hull: hull) }
        let oriented = masked.filter { $0.cloud.count > 0 }.map { $0.oriented(defaultViewpoints: viewpoints, workers: options.workers) }
        guard !usable.isEmpty || !oriented.isEmpty else { throw SurfaceError.cloudsOutsideMasks(points: pointsOutsideSilhouettes) }
        let depthBounds = try options.bounds ?? automaticBounds(usable, points: oriented, guidePoints: guidePoints)
        var bounds = depthBounds
        if options.bounds == nil, let hull { bounds = self.bounds(depthBounds, grownToEnclose: hull) }
        let voxel = options.voxelSize ?? automaticVoxelSize(usable, points: oriented, bounds: bounds)
        var tsdfOptions = TSDFVolume.Options()
        tsdfOptions.voxelSize = voxel
        tsdfOptions.truncationInVoxels = options.truncationInVoxels
        tsdfOptions.bounds = bounds
        tsdfOptions.workers = options.workers
        var volume = TSDFVolume(options: tsdfOptions)
        let steps = Self.fusionSteps(hull: hull != nil)
        progress(steps.fraction(.preparation, 1))
        for (i, input) in usable.enumerated() {
            _ = try volume.integrate(depth: input.depth, weights: input.weights, intrinsics: input.intrinsics,
                                     worldFromCamera: input.worldFromCamera, colour: input.colour, mask: input.mask)
            progress(steps.fraction(.integration, Double(i + 1) / Double(usable.count + oriented.count)))
        }
        for (i, input) in oriented.enumerated() {
            let radius = input.footprintRadius ?? max(2 * voxel, 1.5 * (input.cloud.medianSpacing() ?? 0))
            _ = try volume.integrate(points: input.cloud, weight: input.weight, footprintRadius: radius)
            progress(steps.fraction(.integration, Double(usable.count + i + 1) / Double(usable.count + oriented.count)))
        }
        let closing = closes(usable, silhouettes: silhouettes)
        // Around the object as the depth shows it: the hull may reach below its support.
        var supportPlane = closing ? support ?? supportPlane(usable, bounds: depthBounds, voxelSize: voxel) : nil
        if supportPlane == nil, let hull, let up {
            supportPlane = silhouetteFloor(hull, up: up, inputs: usable, bounds: bounds, voxelSize: voxel)
        }
        var silhouetteVoxels = 0
        if let hull {
            silhouetteVoxels = fillFromSilhouettes(&volume, hull: hull, inputs: usable, bounds: bounds, supportPlane: supportPlane)
            progress(steps.fraction(.silhouettes, 1))
        }
        var cleaned = extractSurface(volume, bounds: bounds)
        progress(steps.fraction(.extraction, 1))
        // No support seen in the depth (a plain floor): the walls' rim gives the floor, and the
        // surface is cut there (what reached below it is depth carried onto the floor).
        var floorFromRim = false
        if closing, supportPlane == nil, let u = floorUp ?? up,
           let floor = RimFloor().estimate(cleaned.mesh, up: SIMD3(Float(u.x), Float(u.y), Float(u.z)), viewpoints: viewpoints) {
            supportPlane = floor
            floorFromRim = true
            // Pieces left apart below the floor's level by the cut are dropped as cleanup drops them.
            cleaned.mesh = cleaned.mesh.clipped(below: floor)
                .removingSmallComponents(minimumFraction: options.minimumComponentFraction, byArea: true).mesh
        }
        guard cleaned.mesh.triangleCount > 0 else { throw SurfaceError.emptySurface }
        if silhouetteVoxels > 0 {
            // The hull's surface has no colour of its own: take it from the photos that see it, and
            // where none does (the underside), from the colours around it.
            let views = usable.compactMap { input in
                input.colour.flatMap { TriangleMesh.ColourView(colour: $0, depth: input.depth, intrinsics: input.intrinsics,
                                                               worldFromCamera: input.worldFromCamera) }
            }
            cleaned.mesh.colourUncoloured(from: views, occlusionMargin: 2 * voxel)
        }
        var result = Result(mesh: cleaned.mesh, bounds: bounds, voxelSize: voxel, cleanup: cleaned.report, supportPlane: supportPlane,
                            floorFromRim: floorFromRim, silhouetteVoxels: silhouetteVoxels,
                            pointsOutsideSilhouettes: pointsOutsideSilhouettes, seconds: 0)
        if closing { closeOpenings(&result, viewpoints: viewpoints, inputs: usable, margin: volume.truncationDistance) }
        progress(steps.fraction(.cleanup, 1))
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// The volume's surface, cropped to `bounds` and cleaned (`MeshCleanup`).
    func extractSurface(_ volume: TSDFVolume, bounds: BoundingBox) -> MeshCleanup.Result {
        var mcOptions = MarchingCubes.Options()
        mcOptions.workers = options.workers
        let raw = MarchingCubes(options: mcOptions).extractMesh(from: volume)
        var cleanupOptions = MeshCleanup.Options()
        cleanupOptions.crop = bounds
        cleanupOptions.minimumComponentFraction = options.minimumComponentFraction
        cleanupOptions.maximumHoleEdges = options.maximumHoleEdges
        return MeshCleanup(options: cleanupOptions).clean(raw)
    }

    /// The bulk of the guide points, or else of the depth samples back-projected, or else of the
    /// point clouds, with a margin.
    func automaticBounds(_ inputs: [DepthInput], points clouds: [PointInput] = [], guidePoints: [SIMD3<Float>]) throws -> BoundingBox {
        var points = guidePoints
        if points.count < 100 {
            for input in inputs { points += Self.backProjected(input, stride: 8) }
        }
        if points.count < 100 {
            for input in clouds { points += input.cloud.positions }
        }
        guard let box = BoundingBox.estimate(enclosing: points, trimmedFraction: 0.01, marginFraction: 0.05) else {
            throw SurfaceError.noDepth
        }
        return box
    }

    /// 1.5 × the median pixel footprint (depth / focal length) of the depth maps, inside their
    /// masks when they have them (without depth maps, 1.5 × the point clouds' median spacing), but
    /// never finer than the bounding box's diagonal / 1500 (memory).
    func automaticVoxelSize(_ inputs: [DepthInput], points: [PointInput] = [], bounds: BoundingBox) -> Float {
        var footprints: [Float] = inputs.isEmpty ? points.compactMap { $0.cloud.medianSpacing() } : []
        for input in inputs {
            let f = Float((input.intrinsics.fx + input.intrinsics.fy) / 2)
            let depths = input.depth.metres, width = input.depth.width, height = input.depth.height
            for i in stride(from: 0, to: depths.count, by: 97) where depths[i] > 0 {
                if let mask = input.mask, mask.width > 0, mask.height > 0,
                   !mask.keeps(x: i % width, y: i / width, imageWidth: width, imageHeight: height) { continue }
                footprints.append(depths[i] / f)
            }
        }
        footprints.sort()
        let median = footprints.isEmpty ? Float(bounds.diagonal) / 500 : footprints[footprints.count / 2]
        return max(median * options.voxelsPerPixelFootprint, Float(bounds.diagonal) / 1500)
    }

    /// A camera's centre in world coordinates.
    static func centre(_ worldFromCamera: RigidTransform) -> SIMD3<Float> {
        let t = worldFromCamera.translation
        return SIMD3(Float(t.x), Float(t.y), Float(t.z))
    }

    /// Every `step`-th depth pixel of `input`, back-projected to world coordinates.
    public static func backProjected(_ input: DepthInput, stride step: Int) -> [SIMD3<Float>] {
        var out: [SIMD3<Float>] = []
        for y in Swift.stride(from: 0, to: input.depth.height, by: step) {
            for x in Swift.stride(from: 0, to: input.depth.width, by: step) {
                if let point = input.worldPoint(x: x, y: y) { out.append(point) }
            }
        }
        return out
    }
}

extension SurfaceReconstruction.Result {
    /// A result with no cleanup, closure or support to report (one restored from a checkpoint).
    /// In an extension, so that the memberwise initialiser stays.
    public init(mesh: TriangleMesh, bounds: BoundingBox, voxelSize: Float, seconds: Double) {
        self.init(mesh: mesh, bounds: bounds, voxelSize: voxelSize, cleanup: MeshCleanup.Report(), seconds: seconds)
    }
}
