import Foundation
import ReconstructionCore

extension IncrementalMapper {
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

    /// Starts from the best pair of `group`: the one with most inliers whose triangulation angle is
    /// wide and that a homography does not explain; failing those, the widest of the others. A
    /// pair that triangulates too few points gives way to the next (as COLMAP tries further
    /// initial pairs): small photos of a textured object stopped at the first pair.
    mutating func initialize(in group: Set<Int>) throws {
        let candidates = geometries.filter { group.contains($0.pair.first) }.sorted { $0.inlierCount > $1.inlierCount }
        var fallbacks: [(TwoViewGeometry, RigidTransform, Double)] = []
        var rotationOnly = 0
        var best: (pair: ImagePair, points: Int)?
        var attempts = 0
        func start(_ g: TwoViewGeometry, _ pose: RigidTransform) -> Bool {
            attempts += 1
            let count = startModel(from: g.pair, pose: pose)
            if count >= options.minRegistrationInliers { return true }
            if best == nil || count > best!.points { best = (g.pair, count) }
            resetModel()
            return false
        }
        for g in candidates.prefix(30) where attempts < Self.maximumInitialPairAttempts {
            guard let pose = relativePose(g) else { continue }
            let angle = g.medianTriangulationAngleDegrees ?? PairVerifier.medianTriangulationAngle(
                pose: pose, features1: images[g.pair.first].features, features2: images[g.pair.second].features,
                keypoints1: g.keypoints1, keypoints2: g.keypoints2,
                intrinsics1: intrinsics(of: g.pair.first), intrinsics2: intrinsics(of: g.pair.second))
            // Prefer many inliers on a non-planar, well-conditioned pair.
            let wide = angle >= options.minInitialPairAngleDegrees
            let homographic = homographyInlierRatio(g) >= options.maxInitialPairHomographyInlierRatio
            if wide && !homographic {
                if start(g, pose) { return finishInitialization() }
                continue
            }
            // With focal lengths only guessed, a pair that a homography explains cannot start: a
            // turn on the spot looks like one, and its "baseline" is the noise of a pose fitted to
            // no translation, however wide it seems (seven turned views of one photo, without K,
            // made a model with an invented baseline and no warning). With known intrinsics the
            // pair's verification already refuses a pure rotation, and a narrow pair stays the
            // fallback (dense sequences: neighbouring frames are narrow and nearly homographic).
            let guessed = [g.pair.first, g.pair.second].contains { images[$0].intrinsicsSource == .defaultGuess }
            if homographic && guessed {
                rotationOnly += 1
                continue
            }
            fallbacks.append((g, pose, angle))
        }
        for (g, pose, _) in fallbacks.sorted(by: { $0.2 > $1.2 }) where attempts < Self.maximumInitialPairAttempts {
            if start(g, pose) { return finishInitialization() }
        }
        if let best {
            throw MapperError.noInitialPair("no pair triangulates the \(options.minRegistrationInliers) points a start needs; the best of "
                + "the \(attempts) tried, \(name(of: best.pair.first)) and \(name(of: best.pair.second)), triangulates \(best.points). "
                + "Photos that are small or show little texture give few matches: larger photos (at least 1000 px) or more overlap "
                + "between neighbouring photos may help")
        }
        if rotationOnly > 0 {
            throw MapperError.noInitialPair("every candidate pair (\(rotationOnly)) is what a camera turning on one spot sees, "
                + "and the focal length is only guessed: a homography explains at least "
                + "\(Int(options.maxInitialPairHomographyInlierRatio * 100)) % of each pair's matches. The photos seem to be taken "
                + "from one place (a panorama, a tripod) or show one plane; structure from motion needs the camera to move between "
                + "photos of a scene with depth, or known intrinsics (--intrinsics, an EXIF focal length)")
        }
        throw MapperError.noInitialPair("no verified pair with a relative pose")
    }

    /// Initial pairs tried before the mapper gives up on a group.
    static let maximumInitialPairAttempts = 10

    /// Places the pair's cameras and triangulates the tracks both see; returns how many points.
    private mutating func startModel(from pair: ImagePair, pose: RigidTransform) -> Int {
        let first = pair.first, second = pair.second
        cameraFromWorld[first] = .identity
        cameraFromWorld[second] = pose
        fixedImage = first
        scaleAnchorImage = second
        for (t, track) in tracks.tracks.enumerated() where track.contains(where: { $0.imageIndex == first })
            && track.contains(where: { $0.imageIndex == second }) {
            triangulate(track: t)
        }
        return points.lazy.compactMap { $0 }.count
    }

    private mutating func finishInitialization() {
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
}
