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
        /// The initial pair's median triangulation angle must reach this (degrees).
        public var minInitialPairAngleDegrees = 4.0
        /// The initial pair is rejected when a homography explains more than this share of its inliers.
        public var maxInitialPairHomographyInlierRatio = 0.95
        /// Homography inlier threshold in pixels for that test.
        public var homographyMaxErrorPixels = 6.0
        /// PnP RANSAC inlier threshold in pixels.
        public var absolutePoseMaxErrorPixels = 4.0
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
        /// The last pass, on inliers only: plain least squares (the maximum-likelihood estimate
        /// for Gaussian keypoint noise once outliers are gone).
        public var polishAdjustment: BundleAdjuster.Options = {
            var o = BundleAdjuster.Options()
            o.maxIterations = 20
            o.functionTolerance = 1e-6
            o.loss = .trivial
            return o
        }()
        /// Weigh residuals by inverse keypoint scale (larger SIFT keypoints are less precisely located).
        public var scaleWeighting = true
        /// Keypoints at or below this quantile of an image's keypoint sizes get full weight.
        public var fullWeightScaleQuantile = 0.25
        /// Refine given (known) intrinsics too.
        public var refineGivenIntrinsics = false
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
    let tracks: FeatureTracks
    let geometries: [TwoViewGeometry]
    /// Groups of images joined by verified pairs.
    let viewGraph: ViewGraphGroups

    // State.
    var cameraIntrinsics: [Int: CameraIntrinsics] = [:]
    var cameraFromWorld: [RigidTransform?]
    var failureReason: [String?]
    /// Images whose last PnP attempt had too small a share of inliers (a sign of wrong 2D–3D
    /// matches): registration through a pair is not tried for them.
    var inlierRatioRejected: [Bool]
    var points: [Vector3?]
    /// Per track, per observation: does it support the track's point.
    var inlier: [[Bool]]
    var fixedImage = -1
    var scaleAnchorImage = -1
    var registeredAtLastGlobalAdjustment = 0
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

    // MARK: Initialisation

    /// Starts in the largest group of images joined by verified pairs (one connected scene is
    /// reconstructed, and it should be the one most photos show); a group that cannot start one
    /// gives way to the next largest.
    mutating func initialize() throws {
        var firstError: Error?
        for group in viewGraph.bySize() where group.count >= 2 {
            do {
                try initialize(in: Set(group))
                return
            } catch {
                firstError = firstError ?? error
                resetModel()
            }
        }
        throw firstError ?? MapperError.noInitialPair("no verified pair with a relative pose")
    }

    /// Forgets every pose and point (after an initial pair that did not work out).
    mutating func resetModel() {
        cameraFromWorld = Array(repeating: nil, count: images.count)
        points = Array(repeating: nil, count: tracks.tracks.count)
        inlier = tracks.tracks.map { Array(repeating: false, count: $0.count) }
        fixedImage = -1
        scaleAnchorImage = -1
    }

    mutating func initialize(in group: Set<Int>) throws {
        let candidates = geometries.filter { group.contains($0.pair.first) }.sorted { $0.inlierCount > $1.inlierCount }
        var best: (TwoViewGeometry, RigidTransform, Double)?
        for g in candidates.prefix(30) {
            guard let pose = relativePose(g) else { continue }
            let angle = g.medianTriangulationAngleDegrees ?? PairVerifier.medianTriangulationAngle(
                pose: pose, features1: images[g.pair.first].features, features2: images[g.pair.second].features,
                keypoints1: g.keypoints1, keypoints2: g.keypoints2,
                intrinsics1: intrinsics(of: g.pair.first), intrinsics2: intrinsics(of: g.pair.second))
            // Prefer many inliers on a non-planar, well-conditioned pair.
            if angle >= options.minInitialPairAngleDegrees
                && homographyInlierRatio(g) < options.maxInitialPairHomographyInlierRatio {
                best = (g, pose, angle)
                break
            }
            if best == nil || angle > best!.2 { best = (g, pose, angle) }
        }
        guard let (pair, pose, _) = best else {
            throw MapperError.noInitialPair("no verified pair with a relative pose")
        }
        let first = pair.pair.first, second = pair.pair.second
        cameraFromWorld[first] = .identity
        cameraFromWorld[second] = pose
        fixedImage = first
        scaleAnchorImage = second
        for (t, track) in tracks.tracks.enumerated() where track.contains(where: { $0.imageIndex == first })
            && track.contains(where: { $0.imageIndex == second }) {
            triangulate(track: t)
        }
        let count = points.lazy.compactMap { $0 }.count
        guard count >= options.minRegistrationInliers else {
            throw MapperError.noInitialPair("the best pair \(pair.pair) triangulates only \(count) points")
        }
        globalAdjustment(options.growthAdjustment, refineIntrinsics: false)
        filterObservations(maxError: options.maxReprojectionErrorPixels)
    }

    /// The share of a pair's inliers that a homography also explains (near 1: a planar scene or a
    /// pure rotation, which cannot start a reconstruction). Computed only for the candidates examined.
    func homographyInlierRatio(_ g: TwoViewGeometry) -> Double {
        g.homographyInlierShare(images[g.pair.first].features, images[g.pair.second].features,
                                maxErrorPixels: options.homographyMaxErrorPixels)
    }

    /// The pair's relative pose: from verification, or from an essential matrix on its inliers.
    func relativePose(_ g: TwoViewGeometry) -> RigidTransform? {
        if let pose = g.secondFromFirst { return pose }
        let n = g.normalized(images[g.pair.first].features, images[g.pair.second].features,
                             intrinsics(of: g.pair.first), intrinsics(of: g.pair.second))
        let focal = intrinsics(of: g.pair.first).meanFocalLength
        return try? GeometryEstimators.relativePose(
            normalized1: n.first, normalized2: n.second, options: RansacOptions(maxError: 8 / focal)).model
    }

    // MARK: Registration

    /// Unregistered images ordered by how many triangulated points they see.
    func nextImageCandidates() -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for image in images.indices where cameraFromWorld[image] == nil {
            let visible = visiblePointCount(image)
            if visible >= options.minRegistrationInliers { out.append((image, visible)) }
        }
        return out.sorted { $0.1 > $1.1 }
    }

    /// How many of the image's keypoints belong to tracks with a reconstructed point.
    func visiblePointCount(_ image: Int) -> Int {
        var visible = 0
        for t in tracks.trackOfKeypoint[image] where t >= 0 && points[Int(t)] != nil { visible += 1 }
        return visible
    }

    mutating func register(_ image: Int) -> Bool {
        let k = intrinsics(of: image)
        var world: [Vector3] = [], normalized: [Double] = []
        for (keypoint, t) in tracks.trackOfKeypoint[image].enumerated() where t >= 0 {
            guard let x = points[Int(t)] else { continue }
            let p = images[image].features.position(keypoint)
            let n = k.normalized(x: p.x, y: p.y)
            world.append(x)
            normalized += [n.u, n.v]
        }
        do {
            let estimate = try GeometryEstimators.absolutePose(
                worldPoints: world, normalized: normalized, focalLengthPixels: k.meanFocalLength,
                options: RansacOptions(maxError: options.absolutePoseMaxErrorPixels / k.meanFocalLength))
            let inliers = estimate.inlierCount
            inlierRatioRejected[image] = Double(inliers) < options.minRegistrationInlierRatio * Double(world.count)
            guard inliers >= options.minRegistrationInliers, !inlierRatioRejected[image] else {
                failureReason[image] = "pose estimation found only \(inliers) inliers among \(world.count) 2D-3D correspondences"
                return false
            }
            cameraFromWorld[image] = estimate.model
            failureReason[image] = nil
            return true
        } catch {
            failureReason[image] = "pose estimation failed with \(world.count) 2D-3D correspondences: \(error)"
            return false
        }
    }

    // MARK: Triangulation

    /// (Re)triangulates a track from its observations in registered images; true if it has a point.
    @discardableResult
    mutating func triangulate(track t: Int) -> Bool {
        let track = tracks.tracks[t]
        var rays: [Triangulation.Ray] = []
        var used: [Int] = []
        for (i, o) in track.enumerated() {
            guard let pose = cameraFromWorld[o.imageIndex] else { continue }
            let k = keypoint(o)
            let n = intrinsics(of: o.imageIndex).normalized(x: k.x, y: k.y)
            rays.append(Triangulation.Ray(origin: pose.cameraCentreInWorld, direction: pose.rotation.transposed * Vector3(n.u, n.v, 1)))
            used.append(i)
        }
        guard rays.count >= 2, let x = Triangulation.point(closestTo: rays) else { return false }
        points[t] = x
        return updateInliers(track: t, maxError: options.maxReprojectionErrorPixels)
    }

    /// Marks which observations support track `t`'s point; drops the point if fewer than two do
    /// or if its supporting rays are too close to parallel.
    @discardableResult
    mutating func updateInliers(track t: Int, maxError: Double) -> Bool {
        guard let x = points[t] else { return false }
        let track = tracks.tracks[t]
        var centres: [Vector3] = []
        for (i, o) in track.enumerated() {
            let ok = (reprojectionError(x, o) ?? .infinity) <= maxError
            inlier[t][i] = ok
            if ok { centres.append(cameraFromWorld[o.imageIndex]!.cameraCentreInWorld) }
        }
        var maxAngle = 0.0
        if centres.count >= 2 {
            outer: for a in 0..<centres.count {
                for b in (a + 1)..<centres.count {
                    maxAngle = max(maxAngle, Triangulation.angleDegrees(point: x, centre1: centres[a], centre2: centres[b]))
                    if maxAngle >= options.minTriangulationAngleDegrees { break outer }
                }
            }
        }
        if centres.count < 2 || maxAngle < options.minTriangulationAngleDegrees {
            points[t] = nil
            for i in inlier[t].indices { inlier[t][i] = false }
            return false
        }
        return true
    }

    /// After registering `image`: continue existing points into it and triangulate new tracks.
    mutating func extendTracks(into image: Int) {
        for t in tracks.trackOfKeypoint[image] where t >= 0 {
            let track = Int(t)
            if points[track] != nil {
                updateInliers(track: track, maxError: options.maxReprojectionErrorPixels)
            } else {
                triangulate(track: track)
            }
        }
    }

    // MARK: Adjustment

    mutating func adjustAfterRegistration(of image: Int) {
        let count = registered.count
        if Double(count) >= options.globalAdjustmentGrowth * Double(registeredAtLastGlobalAdjustment) {
            globalAdjustment(options.growthAdjustment, refineIntrinsics: count >= 3)
            filterObservations(maxError: options.maxReprojectionErrorPixels)
        } else {
            localAdjustment(around: image)
        }
    }

    /// Refines the new image and the points it sees; other cameras stay fixed.
    mutating func localAdjustment(around image: Int) {
        var trackSet: [Int] = []
        for t in tracks.trackOfKeypoint[image] where t >= 0 && points[Int(t)] != nil { trackSet.append(Int(t)) }
        adjust(tracks: trackSet, variableImages: [image], options: options.growthAdjustment, refineIntrinsics: false)
        for t in trackSet { updateInliers(track: t, maxError: options.maxReprojectionErrorPixels) }
    }

    mutating func globalAdjustment(_ o: BundleAdjuster.Options, refineIntrinsics: Bool) {
        let all = points.indices.filter { points[$0] != nil }
        adjust(tracks: all, variableImages: Set(registered), options: o, refineIntrinsics: refineIntrinsics)
        registeredAtLastGlobalAdjustment = registered.count
    }

    mutating func adjust(tracks trackSet: [Int], variableImages: Set<Int>, options o: BundleAdjuster.Options,
                         refineIntrinsics: Bool) {
        var problem = BundleAdjustmentProblem()
        var cameraIndex: [Int: Int] = [:]
        var imageIndex: [Int: Int] = [:]
        for group in Set(registered.map { images[$0].cameraGroup }).sorted() {
            let source = images.first { $0.cameraGroup == group }!.intrinsicsSource
            let refinable = source != .given || options.refineGivenIntrinsics
            let refine: BundleAdjustmentProblem.Refinement = refineIntrinsics && refinable ? [.focalLength, .k1] : []
            cameraIndex[group] = problem.addCamera(cameraIntrinsics[group]!, refine: refine)
        }
        func ensureImage(_ image: Int) -> Int {
            if let i = imageIndex[image] { return i }
            let fixed = !variableImages.contains(image) || image == fixedImage
            let i = problem.addImage(cameraFromWorld: cameraFromWorld[image]!, camera: cameraIndex[images[image].cameraGroup]!, fixed: fixed)
            imageIndex[image] = i
            return i
        }
        var pointIndex: [Int] = []
        for t in trackSet {
            guard let x = points[t] else { continue }
            let p = problem.addPoint(x)
            pointIndex.append(t)
            for (i, o) in tracks.tracks[t].enumerated() where inlier[t][i] {
                let k = keypoint(o)
                problem.addObservation(image: ensureImage(o.imageIndex), point: p, x: k.x, y: k.y, weight: weight(o))
            }
        }
        guard !problem.observationImage.isEmpty else { return }
        if let anchor = imageIndex[scaleAnchorImage], variableImages.contains(scaleAnchorImage), fixedImage >= 0,
           imageIndex[fixedImage] != nil {
            let t = cameraFromWorld[scaleAnchorImage]!.translation
            let axis = [abs(t.x), abs(t.y), abs(t.z)].enumerated().max { $0.element < $1.element }!.offset
            problem.scaleAnchor = (anchor, axis)
        }
        do {
            try BundleAdjuster(options: o).solve(&problem)
        } catch {
            return  // keep the previous estimate; the caller's filtering still applies
        }
        for (group, c) in cameraIndex { cameraIntrinsics[group] = problem.cameras[c] }
        for (image, i) in imageIndex where variableImages.contains(image) { cameraFromWorld[image] = problem.cameraFromWorld[i] }
        for (p, t) in pointIndex.enumerated() { points[t] = problem.points[p] }
    }

    mutating func filterObservations(maxError: Double) {
        for t in points.indices where points[t] != nil { updateInliers(track: t, maxError: maxError) }
    }

    // MARK: Finishing

    /// Finishing step `step` (1…`MappingProgress.finishingStepCount`), once every image that can
    /// register has.
    mutating func finish(step: Int) {
        switch step {
        case 1:
            // Retriangulate tracks that lost or never had a point, now that all cameras are known.
            for t in points.indices where points[t] == nil { triangulate(track: t) }
        case 2:
            globalAdjustment(options.finalAdjustment, refineIntrinsics: true)
            filterObservations(maxError: options.finalMaxReprojectionErrorPixels)
        default:
            globalAdjustment(options.polishAdjustment, refineIntrinsics: true)
            filterObservations(maxError: options.finalMaxReprojectionErrorPixels)
        }
    }

    /// Why image `i` did not register: its own failure, or where it stands in the view graph.
    func unregisteredReason(_ i: Int) -> String {
        let members = viewGraph.members(of: i)
        if members.count == 1 {
            return "no verified pair with any other image (no geometrically consistent matches)"
        }
        if !members.contains(where: { cameraFromWorld[$0] != nil }) {
            return "one of \(members.count) images that match each other but share no verified pair with the "
                + "reconstructed images (a separate scene or a disconnected part; reconstruct them on their own)"
        }
        if let reason = failureReason[i] { return reason }
        return tooFewMatchesReason(i) + ": PnP needs \(options.minRegistrationInliers); registration through a verified pair needs "
            + "\(options.minPairRegistrationPoints) that both photos see, fitting one baseline length)"
    }

    /// The start of the reason an image that sees few reconstructed points gives (an open parenthesis).
    func tooFewMatchesReason(_ image: Int) -> String {
        "too few matches to the reconstructed scene to estimate a pose (it sees \(visiblePointCount(image)) reconstructed points"
    }

    func makeScene() -> SparseScene {
        var scenePoints: [SparseScene.Point] = []
        var pointOfKeypoint = images.map { [Int](repeating: -1, count: $0.features.count) }
        for (t, track) in tracks.tracks.enumerated() {
            guard let x = points[t] else { continue }
            var observations: [SparseScene.Observation] = []
            var errorSum = 0.0
            for (i, o) in track.enumerated() where inlier[t][i] {
                observations.append(o)
                errorSum += reprojectionError(x, o) ?? 0
                pointOfKeypoint[o.imageIndex][o.keypointIndex] = scenePoints.count
            }
            let c = images[observations[0].imageIndex].features.colors
            let k = observations[0].keypointIndex
            scenePoints.append(SparseScene.Point(position: x, rgb: (c[3 * k], c[3 * k + 1], c[3 * k + 2]),
                                                 meanReprojectionErrorPixels: errorSum / Double(observations.count),
                                                 track: observations))
        }
        let sceneImages = images.indices.map { i -> SparseScene.Image in
            let f = images[i].features
            let keypoints = (0..<f.count).map { SparseScene.Keypoint(x: f.positions[2 * $0], y: f.positions[2 * $0 + 1]) }
            let reason = cameraFromWorld[i] == nil ? unregisteredReason(i) : nil
            return SparseScene.Image(name: "", intrinsics: intrinsics(of: i), intrinsicsSource: images[i].intrinsicsSource,
                                     cameraFromWorld: cameraFromWorld[i], unregisteredReason: reason,
                                     keypoints: keypoints, pointIndexOfKeypoint: pointOfKeypoint[i])
        }
        return SparseScene(images: sceneImages, points: scenePoints)
    }
}
