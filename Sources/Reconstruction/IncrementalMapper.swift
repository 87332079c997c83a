import Foundation
import ReconstructionCore

/// Incremental structure from motion: initialise from the best two-view geometry, then register
/// images one by one (PnP), triangulate new tracks, and bundle-adjust as the model grows.
public struct IncrementalMapper {
    public struct Options: Sendable, Equatable {
        /// Reprojection error (pixels) above which an observation is an outlier.
        public var maxReprojectionErrorPixels = 4.0
        /// Outlier threshold of the final filtering pass, in pixels.
        public var finalMaxReprojectionErrorPixels = 2.0
        /// Points seen under a smaller angle (degrees) are too poorly conditioned to keep.
        public var minTriangulationAngleDegrees = 1.5
        /// The initial pair's median triangulation angle should reach this (degrees); when no
        /// candidate does, the widest starts.
        public var minInitialPairAngleDegrees = 4.0
        /// The initial pair is rejected when a homography explains more than this share of its inliers.
        public var maxInitialPairHomographyInlierRatio = 0.95
        /// Homography inlier threshold in pixels for that test.
        public var homographyMaxErrorPixels = 6.0
        /// PnP RANSAC inlier threshold in pixels.
        public var absolutePoseMaxErrorPixels = 4.0
        /// The first image of a camera group whose focal length is only guessed takes the focal
        /// length of a search when PnP finds this many times the guess's inliers with it.
        public var focalSearchMinGain = 1.25
        /// An image registers only with at least this many 2D–3D inliers.
        public var minRegistrationInliers = 30
        /// …and at least this fraction of its 2D–3D correspondences as inliers.
        public var minRegistrationInlierRatio = 0.2
        /// Registration through one verified pair (once PnP can register nothing more) needs a
        /// pair with at least this many inliers…
        public var minPairRegistrationInliers = 100
        /// …and, among the reconstructed points both images see, at least this many (and at least
        /// half) that reproject into the new image within `maxReprojectionErrorPixels` at one
        /// baseline length.
        public var minPairRegistrationPoints = 6
        /// An image is tried at most this many times (each time only after the model has grown).
        public var maxRegistrationAttempts = 5
        /// A global bundle adjustment runs when the registered count has grown by this factor
        /// (COLMAP's 1.1). Between them only the new image moves, so drift builds up; on a loop,
        /// where the model grows from the first pair in both directions and the two ends meet,
        /// too much drift at the meeting makes the closing adjustment settle in a twisted local
        /// minimum (Benchmarks/pose-loops.md: 1.25 gave 76 mm median error on a courtyard walk, 1.1
        /// gives 3.8 mm).
        public var globalAdjustmentGrowth = 1.1
        /// Bundle adjustment during growth.
        public var growthAdjustment: BundleAdjuster.Options = {
            var o = BundleAdjuster.Options()
            o.maxIterations = 20
            o.functionTolerance = 1e-4
            return o
        }()
        /// The final, converged bundle adjustment.
        public var finalAdjustment: BundleAdjuster.Options = {
            var o = BundleAdjuster.Options()
            o.maxIterations = 50
            o.functionTolerance = 1e-5
            return o
        }()
        /// The last pass, on the observations the final adjustment kept.
        public var polishAdjustment: BundleAdjuster.Options = {
            var o = BundleAdjuster.Options()
            o.maxIterations = 20
            o.functionTolerance = 1e-6
            o.loss = .trivial
            return o
        }()
        /// When set, the final and polishing adjustments use a Cauchy loss whose scale is this
        /// multiple of the keypoint noise, measured once on the grown model (1.4826 × the median
        /// absolute weighted residual); nil keeps the losses of `finalAdjustment` and
        /// `polishAdjustment` (Huber at 1 px, then least squares). Keypoint errors are far from
        /// Gaussian: on rendered scenes with exact ground truth their rms is 2.7 times what their
        /// median implies, and least squares let that tail bend the cameras (castle-shaped
        /// courtyards: 9.2 mm median error, 2.6 mm at 10 σ; Benchmarks/pose-loops.md). 10 σ beat
        /// least squares on eleven of thirteen scenes measured there (real, rendered, rendered with
        /// camera noise). Tighter scales (5 σ, 2.385 σ) did better still on most renders but worse
        /// on Herz-Jesus-P8, a real scene, so they are left to callers with castle-like captures.
        public var finalLossNoiseMultiple: Double? = 10
        /// Weigh residuals by inverse keypoint scale (larger SIFT keypoints are less precisely located).
        public var scaleWeighting = true
        /// Keypoints at or below this quantile of an image's keypoint sizes get full weight.
        public var fullWeightScaleQuantile = 0.25
        /// Refine given (known) intrinsics too.
        public var refineGivenIntrinsics = false
        /// Refine the principal point too wherever intrinsics are refined (COLMAP's
        /// `refine_principal_point`). Off by default, as in COLMAP: most captures determine it
        /// poorly, and a wrong one tilts every camera.
        public var refinesPrincipalPoint = false
        public init() {}
    }

    /// Per-image input: features and the camera model it starts from.
    public struct ImageInput: Sendable {
        public var features: ImageFeatures
        public var intrinsics: CameraIntrinsics
        public var intrinsicsSource: IntrinsicsSource
        /// Images with equal `cameraGroup` share one set of intrinsics in bundle adjustment.
        public var cameraGroup: Int

        public init(features: ImageFeatures, intrinsics: CameraIntrinsics, intrinsicsSource: IntrinsicsSource, cameraGroup: Int) {
            self.features = features
            self.intrinsics = intrinsics
            self.intrinsicsSource = intrinsicsSource
            self.cameraGroup = cameraGroup
        }
    }

    public let options: Options
    let images: [ImageInput]
    /// The images' names, for messages (`#index` where not given).
    public var imageNames: [String] = []
    let tracks: FeatureTracks
    let geometries: [TwoViewGeometry]
    /// Groups of images joined by verified pairs.
    let viewGraph: ViewGraphGroups

    // State.
    var cameraIntrinsics: [Int: CameraIntrinsics] = [:]
    var cameraFromWorld: [RigidTransform?]
    /// Why PnP last failed for an image (nil when it did not run or succeeded).
    var failureReason: [String?]
    /// Why registration through a verified pair last failed for an image, after PnP had.
    var pairFailureReason: [String?]
    /// Images whose last PnP attempt had too small a share of inliers (a sign of wrong 2D–3D
    /// matches): registration through a pair is not tried for them.
    var inlierRatioRejected: [Bool]
    var points: [Vector3?]
    /// Per track, per observation: does it support the track's point.
    var inlier: [[Bool]]
    var fixedImage = -1
    var scaleAnchorImage = -1
    var registeredAtLastGlobalAdjustment = 0
    /// The image registered last took its focal length from `focalSearch`.
    var focalFoundBySearch = false
    /// The Cauchy loss scale of the final adjustments (pixels), once measured.
    var finalLossScale: Double?
    /// Per image, the keypoint size (pixels) at and below which residuals have full weight.
    let referenceScale: [Double]

    public init(images: [ImageInput], tracks: FeatureTracks, geometries: [TwoViewGeometry], options: Options = Options()) {
        self.images = images
        self.tracks = tracks
        self.geometries = geometries
        self.options = options
        viewGraph = ViewGraphGroups(imageCount: images.count, pairs: geometries.map { ($0.pair.first, $0.pair.second) })
        referenceScale = images.map { image in
            let sorted = image.features.scales.sorted()
            let index = min(sorted.count - 1, Int(options.fullWeightScaleQuantile * Double(sorted.count)))
            return sorted.isEmpty ? 1 : Double(sorted[index])
        }
        cameraFromWorld = Array(repeating: nil, count: images.count)
        failureReason = Array(repeating: nil, count: images.count)
        pairFailureReason = Array(repeating: nil, count: images.count)
        inlierRatioRejected = Array(repeating: false, count: images.count)
        points = Array(repeating: nil, count: tracks.tracks.count)
        inlier = tracks.tracks.map { Array(repeating: false, count: $0.count) }
        for image in images where cameraIntrinsics[image.cameraGroup] == nil {
            cameraIntrinsics[image.cameraGroup] = image.intrinsics
        }
    }

    public enum MapperError: Error, CustomStringConvertible {
        case noInitialPair(String)
        public var description: String {
            switch self {
            case .noInitialPair(let why): return "no image pair could start the reconstruction: \(why)"
            }
        }
    }

    func intrinsics(of image: Int) -> CameraIntrinsics { cameraIntrinsics[images[image].cameraGroup]! }
    func name(of image: Int) -> String { image < imageNames.count ? imageNames[image] : "#\(image)" }
    var registered: [Int] { cameraFromWorld.indices.filter { cameraFromWorld[$0] != nil } }

    func keypoint(_ o: SparseScene.Observation) -> (x: Double, y: Double) {
        images[o.imageIndex].features.position(o.keypointIndex)
    }

    /// SIFT localisation noise grows with keypoint scale; keypoints up to `referenceScale` count fully.
    func weight(_ o: SparseScene.Observation) -> Double {
        guard options.scaleWeighting else { return 1 }
        let size = Double(images[o.imageIndex].features.scales[o.keypointIndex])
        return max(0.1, min(1, referenceScale[o.imageIndex] / size))
    }

    func reprojectionError(_ point: Vector3, _ o: SparseScene.Observation) -> Double? {
        guard let pose = cameraFromWorld[o.imageIndex],
              let p = intrinsics(of: o.imageIndex).project(pose.apply(point)) else { return nil }
        let k = keypoint(o)
        return ((p.x - k.x) * (p.x - k.x) + (p.y - k.y) * (p.y - k.y)).squareRoot()
    }

    // MARK: Running

    /// Runs the whole reconstruction, reporting the registered count after each registration.
    public mutating func run(progress: (Int) -> Void = { _ in }) throws -> SparseScene {
        try run(isCancelled: { false }) { step in
            if step.finishingStepsDone == 0 { progress(step.registeredCount) }
        }
    }

    /// Runs the whole reconstruction, reporting each registration and each finishing step, and
    /// checking `isCancelled` between steps (throws `CancellationError` when it turns true).
    /// Cancellation checks do not change the result of a run that is not cancelled.
    public mutating func run(isCancelled: () -> Bool, progress: (MappingProgress) -> Void) throws -> SparseScene {
        func checkCancellation() throws { if isCancelled() { throw CancellationError() } }
        func report(finished: Int = 0) {
            progress(MappingProgress(registeredCount: registered.count, imageCount: images.count, finishingStepsDone: finished))
        }
        try checkCancellation()
        try initialize()
        report()
        // An image that failed to register is tried again only once the model has grown since.
        var failedAtModelSize = [Int](repeating: -1, count: images.count)
        var attempts = [Int](repeating: 0, count: images.count)
        while true {
            try checkCancellation()
            let modelSize = registered.count
            let candidates = nextImageCandidates().filter {
                failedAtModelSize[$0.0] != modelSize && attempts[$0.0] < options.maxRegistrationAttempts
            }
            guard !candidates.isEmpty else {
                // PnP can register nothing more: try a pair with a registered image instead.
                guard registerThroughPair() != nil else { break }
                globalAdjustment(options.growthAdjustment, refineIntrinsics: registered.count >= 3)
                filterObservations(maxError: options.maxReprojectionErrorPixels)
                report()
                continue
            }
            for (image, _) in candidates {
                try checkCancellation()
                attempts[image] += 1
                if register(image) {
                    extendTracks(into: image)
                    adjustAfterRegistration(of: image)
                    report()
                    break
                }
                failedAtModelSize[image] = modelSize
            }
        }
        for step in 1...MappingProgress.finishingStepCount {
            try checkCancellation()
            finish(step: step)
            report(finished: step)
        }
        return makeScene()
    }
}
