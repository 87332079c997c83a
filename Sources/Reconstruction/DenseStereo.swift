import Foundation
import ReconstructionCore

/// Dense stereo: posed photos to per-view depth maps (with normals and confidence) and a fused,
/// oriented, coloured point cloud.
///
/// 1. Plan: source views and a depth range per view from the sparse points (`StereoViewSelection`).
/// 2. Load: photos at the working resolution, undistorted, with their masks; pixels that keep
///    their place from a view to its neighbours (`StillPixels`) are masked out.
/// 3. Photometric pass: PatchMatch per view (`DepthMapEstimator`), views in parallel.
/// 4. Geometric pass: PatchMatch again from the photometric result, with the sources' depth maps
///    adding a forward-backward reprojection term (geometric consistency).
/// 5. Filter: drop costly depths and those fewer than k neighbours confirm (`DepthConsistencyFilter`).
/// 6. Fuse the filtered depth maps into points (`DepthMapFusion`).
public struct DenseStereo: Sendable {
    public struct Options: Sendable, Equatable {
        /// Photos are scaled down until their longer side is at most this, pixels (JPEG decodes
        /// at 1/2, 1/4 or 1/8 directly; area resampling does the rest). Stereo time grows with the
        /// pixel count: 768 gives fountain-P11's 3072 × 2048 photos 768 × 512.
        public var maxImageDimension = 768
        public var viewSelection = StereoViewSelection.Options()
        /// Iterations of a first photometric pass at half the working resolution, whose result
        /// starts the full-resolution one (0: start that one from random hypotheses). The pass
        /// otherwise uses the `photometric` options.
        public var coarseIterations = 3
        /// The photometric pass at the working resolution. It tries random hypotheses only
        /// when there is no coarse pass to start from; with a coarse pass, 0 iterations skip it
        /// (the coarse result, carried up, stands in for it).
        public var photometric: DepthMapEstimator.Options = {
            var options = DepthMapEstimator.Options()
            options.iterations = 1
            options.randomHypotheses = false
            return options
        }()
        /// The geometric-consistency pass (starts from the photometric result).
        public var geometric: DepthMapEstimator.Options = {
            var options = DepthMapEstimator.Options()
            options.iterations = 1
            options.randomHypotheses = false
            return options
        }()
        /// Run the geometric-consistency pass.
        public var geometricPass = true
        /// Fill the pixels the working resolution leaves empty after filtering with the coarse
        /// pass's depths, themselves filtered against the neighbours' coarse depths (needs a
        /// coarse pass). Weakly textured surfaces often match only at the coarse resolution.
        public var fillsFromCoarse = true
        /// Confidence of a filled pixel relative to its coarse confidence.
        public var coarseFillConfidence: Float = 0.5
        /// Coarse depths with a matching cost above this do not fill (stricter than the filter's
        /// `maxCost`: at 0.6, a nearly textureless wall beside fountain-P11 filled with noise and
        /// one held-out photo lost 0.9 dB of PSNR; at 0.4 it stays out and dark doors still fill).
        public var coarseFillMaxCost: Float = 0.4
        public var filter = DepthConsistencyFilter.Options()
        public var fusion = DepthMapFusion.Options()
        /// Pixels that show one texture at one place in a view and its neighbours are left out.
        public var stillPixels = StillPixels.Options()
        /// Depth range (metres) for views the sparse points give none for (e.g. known poses and
        /// no points); such views are skipped when this is nil.
        public var fallbackDepthRange: ClosedRange<Float>?
        /// Worker threads.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public enum Stage: String, Sendable, CaseIterable {
        case loading, coarse, photometric, geometric, filtering, fusion
    }

    /// The stages' shares of stereo's time, for one fraction over the whole run. Measured
    /// 2026-11-25 on fountain-P11 at 1024 px (45 s) and a 24-view synthetic vase at 768 px (6 s),
    /// which agree within 0.03: loading 0.005–0.03, coarse 0.28, photometric 0.32–0.33, geometric
    /// 0.32–0.35, filtering 0.01–0.02, fusion to points 0.02–0.03.
    public static let stageShares = StepShares<Stage>([(.loading, 0.02), (.coarse, 0.28), (.photometric, 0.33),
                                                       (.geometric, 0.33), (.filtering, 0.015), (.fusion, 0.025)])

    /// A progress report: the stage and the fraction of it done (0…1).
    public struct Progress: Sendable {
        public var stage: Stage
        public var fraction: Double
    }

    /// A view that got no depth map, and why.
    public struct SkippedView: Sendable, Equatable {
        public var name: String
        public var reason: String
    }

    public struct Result: Sendable {
        /// Filtered depth maps, one per view that has one, in input order. Their `neighbours`
        /// index this array.
        public var views: [ViewDepth]
        /// For each entry of `views`, its index in the input.
        public var inputIndices: [Int]
        public var skippedViews: [SkippedView]
        /// The fused point cloud (world frame, normals, colours 0…1).
        public var pointCloud: PointCloud
        /// Wall time per stage, seconds.
        public var stageSeconds: [Stage: Double]
        /// Fraction of the views' pixels left out as still (`StillPixels`): what keeps its place
        /// from a photo to its neighbours, such as a turntable's backdrop.
        public var stillFraction: Double = 0
    }

    public enum DenseStereoError: Error, CustomStringConvertible {
        case noUsableViews([SkippedView])
        case unreadableImage(name: String, reason: String)

        public var description: String {
            switch self {
            case .noUsableViews(let skipped):
                return "no view can get a depth map" + skipped.map { "\n  \($0.name): \($0.reason)" }.joined()
            case .unreadableImage(let name, let reason):
                return "\(name): \(reason)"
            }
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Runs stereo on `input`, reporting `progress`; `isCancelled` is checked between views (a
    /// view takes about a second at 1024 px), and a cancelled run throws `CancellationError`.
    public func run(_ input: Input, isCancelled: () -> Bool = { false },
                    progress: @Sendable (Progress) -> Void = { _ in }) throws -> Result {
        var seconds: [Stage: Double] = [:]
        func timed<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
            let start = Date()
            defer { seconds[stage, default: 0] += Date().timeIntervalSince(start) }
            return try body()
        }
        let views = input.views
        let workers = max(1, options.workers)

        // Plan: which views get a depth map, against which sources, in which range.
        let cameras = views.map { StereoViewSelection.Camera(intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera) }
        let plans = StereoViewSelection(options: options.viewSelection)
            .plan(cameras: cameras, points: input.points, fallbackDepthRange: options.fallbackDepthRange)
        var activeViews: [Int] = []
        var skipped: [SkippedView] = []
        for (v, plan) in plans.enumerated() {
            if plan.depthRange == nil {
                skipped.append(SkippedView(name: views[v].name, reason: "no depth range (too few sparse points and no fallback range)"))
            } else if plan.sources.isEmpty {
                skipped.append(SkippedView(name: views[v].name, reason: "no source view shares enough points at a usable angle"))
            } else {
                activeViews.append(v)
            }
        }
        let active = activeViews
        guard !active.isEmpty else { throw DenseStereoError.noUsableViews(skipped) }

        // Load every view that is a reference or a source.
        let needed = Set(active + active.flatMap { plans[$0].sources }).sorted()
        let maxDimension = options.maxImageDimension
        let loadedCount = AtomicCounter()
        let loadedList = try timed(.loading) { () throws -> [StereoImage] in
            let results = parallelMap(needed.count, workers: workers) { n -> Swift.Result<StereoImage, DenseStereoError> in
                defer { progress(Progress(stage: .loading, fraction: Double(loadedCount.next() + 1) / Double(needed.count))) }
                let view = views[needed[n]]
                do {
                    return .success(try StereoImageLoader.load(view, maxDimension: maxDimension))
                } catch let error as ShimError {
                    return .failure(.unreadableImage(name: view.name, reason: error.message))
                } catch {
                    let reason: String
                    if case .file(let url) = view.image { reason = FileReadFailure.reason(url, error) } else { reason = error.localizedDescription }
                    return .failure(.unreadableImage(name: view.name, reason: "cannot read file: \(reason)"))
                }
            }
            return try results.map { try $0.get() }
        }
        var images = [StereoImage?](repeating: nil, count: views.count)
        for (n, v) in needed.enumerated() { images[v] = loadedList[n] }
        // What keeps its place in every photo (a turntable's backdrop) is no surface: left out.
        let (loaded, stillFraction) = timed(.loading) { withoutStillPixels(images, active: active, plans: plans, workers: workers) }

        // PatchMatch passes, one view at a time with all workers inside the kernel (its
        // checkerboard rows share out evenly, so no core idles at the end of a pass). Each pass
        // hands its estimates on and drops what the next one does not need, so memory stays at
        // about one depth map, normal map and cost map per view.
        func pass(_ stage: Stage, options passOptions: DepthMapEstimator.Options, coarse: Bool, sourceDepths: [DepthMap?]?,
                  initial: (Int) -> DepthMapEstimator.Estimate?, consume: (Int, DepthMapEstimator.Estimate) -> Void) throws {
            var estimatorOptions = passOptions
            estimatorOptions.threads = workers
            let estimator = DepthMapEstimator(options: estimatorOptions)
            func view(_ v: Int) -> DepthMapEstimator.View {
                let level = coarse ? loaded[v]!.halved : loaded[v]!.level
                return DepthMapEstimator.View(image: level.gray, intrinsics: level.intrinsics,
                                              cameraFromWorld: views[v].worldFromCamera.inverse, depth: sourceDepths?[v])
            }
            try timed(stage) {
                for (a, v) in active.enumerated() {
                    if isCancelled() { throw CancellationError() }
                    let estimate = try estimator.estimate(
                        reference: view(v), sources: plans[v].sources.map(view), depthRange: plans[v].depthRange!,
                        mask: coarse ? loaded[v]!.halved.mask : loaded[v]!.level.mask, initial: initial(a))
                    consume(a, estimate)
                    progress(Progress(stage: stage, fraction: Double(a + 1) / Double(active.count)))
                }
            }
        }

        // Coarse photometric pass at half resolution, carried up to start the full-resolution one.
        var coarse = [DepthMapEstimator.Estimate?](repeating: nil, count: active.count)
        var photometricOptions = options.photometric
        if options.coarseIterations > 0 {
            var coarseOptions = options.photometric
            coarseOptions.iterations = options.coarseIterations
            coarseOptions.randomHypotheses = true
            try pass(.coarse, options: coarseOptions, coarse: true, sourceDepths: nil, initial: { _ in nil },
                     consume: { a, estimate in coarse[a] = estimate })
        } else {
            photometricOptions.randomHypotheses = true
        }
        // The coarse depths that neighbours confirm, kept to fill what the finer passes leave empty.
        var coarseFilled = [ViewDepth?](repeating: nil, count: active.count)
        if options.fillsFromCoarse && options.coarseIterations > 0 {
            coarseFilled = timed(.filtering) {
                filteredCoarse(coarse, active: active, views: views, plans: plans, loaded: loaded, workers: workers)
            }
        }
        // The next pass starts from the depths and normals only (the kernel rescores them).
        var estimates = [DepthMapEstimator.Estimate?](repeating: nil, count: active.count)
        func upsampledCoarse(_ a: Int) -> DepthMapEstimator.Estimate? {
            defer { coarse[a] = nil }
            let level = loaded[active[a]]!
            return coarse[a].map { $0.upsampled(from: level.halved.intrinsics, to: level.level.intrinsics) }
        }
        if photometricOptions.iterations > 0 || options.coarseIterations == 0 {
            photometricOptions.iterations = max(1, photometricOptions.iterations)
            try pass(.photometric, options: photometricOptions, coarse: false, sourceDepths: nil, initial: upsampledCoarse,
                     consume: { a, estimate in
                         estimates[a] = estimate
                         if options.geometricPass { estimates[a]!.costs = [] }
                     })
        } else {
            // No full-resolution photometric iteration: the coarse result, carried up, is the
            // photometric estimate.
            for a in active.indices { estimates[a] = upsampledCoarse(a) }
        }
        if options.geometricPass {
            var depths = [DepthMap?](repeating: nil, count: views.count)
            for (a, v) in active.enumerated() { depths[v] = estimates[a]!.depth }
            var photometric = estimates
            try pass(.geometric, options: options.geometric, coarse: false, sourceDepths: depths, initial: { a in
                defer { photometric[a] = nil }
                return photometric[a]
            }, consume: { a, estimate in estimates[a] = estimate })
        }

        // Filter against the neighbours' unfiltered depth maps (neighbours index the result's views).
        var resultIndexOf = [Int](repeating: -1, count: views.count)
        for (a, v) in active.enumerated() { resultIndexOf[v] = a }
        let rawDepths = estimates.map { $0!.depth }
        let filter = DepthConsistencyFilter(options: options.filter)
        var filtered: [ViewDepth] = []
        timed(.filtering) {
            for (a, v) in active.enumerated() {
                let neighbours = plans[v].sources.map { resultIndexOf[$0] }.filter { $0 >= 0 }
                let estimate = estimates[a]!
                estimates[a] = nil
                let view = ViewDepth(name: views[v].name, intrinsics: loaded[v]!.level.intrinsics,
                                     worldFromCamera: views[v].worldFromCamera, depth: estimate.depth,
                                     normalsInCamera: estimate.normalsInCamera, image: loaded[v]!.rgb, neighbours: neighbours)
                let others = neighbours.map {
                    DepthConsistencyFilter.Neighbour(intrinsics: loaded[active[$0]]!.level.intrinsics,
                                                     worldFromCamera: views[active[$0]].worldFromCamera, depth: rawDepths[$0])
                }
                var kept = filter.filter(view, costs: estimate.costs, neighbours: others, workers: workers)
                if let coarseView = coarseFilled[a] {
                    kept = kept.fillingEmptyPixels(from: coarseView, mask: loaded[v]!.level.mask,
                                                   confidenceScale: options.coarseFillConfidence).view
                    coarseFilled[a] = nil
                }
                filtered.append(kept)
                progress(Progress(stage: .filtering, fraction: Double(a + 1) / Double(active.count)))
            }
        }

        let cloud = timed(.fusion) { DepthMapFusion(options: options.fusion).fuse(filtered) }
        progress(Progress(stage: .fusion, fraction: 1))
        return Result(views: filtered, inputIndices: active, skippedViews: skipped, pointCloud: cloud, stageSeconds: seconds,
                      stillFraction: stillFraction)
    }
}
