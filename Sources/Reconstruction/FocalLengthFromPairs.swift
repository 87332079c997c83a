import Foundation
import ReconstructionCore

/// A starting focal length for photos with none known (no K file, no EXIF), from the fundamental
/// matrices of their verified pairs. For the right focal length f, E = Kᵀ·F·K (K: f, principal
/// point at the centre) is an essential matrix, whose two non-zero singular values are equal
/// (the criterion of Mendonça and Cipolla's self-calibration); the estimate minimises the median
/// of (σ₁ − σ₂) / (σ₁ + σ₂) over the pairs.
///
/// The default guess (1.2 × the longer side) can be a third off, too far for self-calibration
/// to recover from on some scenes: a courtyard of planar walls reconstructs folded from it and
/// right from within about 20 % (`Benchmarks/pose-loops.md`). Pairs that a homography explains
/// (one plane, or a pure rotation) do not determine F and are left out. When the criterion has
/// no clear minimum (optical axes that meet, as in an orbit, make it flat), the guess is kept.
public enum FocalLengthFromPairs {
    public struct Options: Sendable, Equatable {
        /// At most this many pairs, those with the most inliers, are used.
        public var maxPairs = 100
        /// Pairs with fewer inliers are not used.
        public var minInliers = 30
        /// Pairs where a homography explains more than this share of the inliers are not used.
        public var maxHomographyShare = 0.8
        /// An estimate needs at least this many usable pairs.
        public var minPairs = 5
        /// Focal lengths searched, as multiples of the longer image side.
        public var searchRange = 0.3...3.0
        /// The minimum is kept only if the criterion at 1.5× and 1/1.5× the estimate is at least
        /// this many times larger (a clear minimum, not a flat or noisy curve)…
        public var minContrast = 1.5
        /// …and larger by at least this much. (Measured at the minimum and at 1.5× / 1/1.5×: a
        /// courtyard 0.012 and 0.074 / 0.042, fountain-P11 0.008 and 0.028 / 0.023; a 200-view orbit,
        /// whose optical axes meet, 0.016 and 0.018 / 0.017.)
        public var minRise = 0.005
        /// An EXIF focal length is set aside when the pairs' best focal length is more than this
        /// many times larger or smaller and fits them clearly better (`minContrast`, `minRise`):
        /// a photo cropped after it was taken keeps its camera's EXIF, and a tag can be wrong. Its
        /// photos then start from the pairs' focal length and are self-calibrated. Smaller
        /// disagreements are left to bundle adjustment, which recovers a focal length 1.5 times
        /// off (fountain-P11 cropped to 2048 × 1366 with the uncropped camera's 35 mm tag:
        /// 2759.5 px found, 2759.48 px true). Without this check, a 500 mm tag on fountain-P11
        /// at 1536 × 1024 registered every photo at 19 777 px with k1 = 115 (errors of 2 m).
        public var maxExifDisagreement = 2.0
        /// A focal length that pairs were verified with (EXIF) is checked on at most this many of
        /// them, those with the most inliers, matched again (`uncalibratedFundamentals`).
        public var maxCheckPairs = 12
        /// A given focal length is said to be contradicted (a warning; it is still held) when the
        /// pairs' best one is more than this many times larger or smaller and fits them clearly
        /// better: a K made for photos of another size with only its principal point scaled, say
        /// (fountain-P11 at half size with the full size's focal length: 0.55 px of reprojection
        /// error instead of 0.16 and half a metre off, without a word).
        public var maxGivenDisagreement = 1.5
        /// A given focal length is checked on at most this many pairs: the check costs every run
        /// with a K (0.8 s of fountain-P11's 11 s with 12 pairs).
        public var maxGivenCheckPairs = 8
        public init() {}
    }

    /// The inputs, with the focal length of each camera group that starts from the default guess
    /// replaced by the estimate from its pairs where there is a reliable one, and each EXIF group
    /// whose focal length its pairs clearly contradict (`exifContradicted`) turned into a
    /// self-calibrated group starting from theirs; and the geometries, with those groups' pairs
    /// verified again by `verifier` with essential matrices at the new focal length (pairs that
    /// no longer pass are dropped).
    public static func refineGuesses(_ inputs: [IncrementalMapper.ImageInput], geometries: [TwoViewGeometry],
                                     verifier: PairVerifier, workers: Int = 1, options: Options = Options())
        -> (inputs: [IncrementalMapper.ImageInput], geometries: [TwoViewGeometry])
    {
        var out = inputs
        var estimated: Set<Int> = [], setAside: Set<Int> = []
        let groups = Set(inputs.filter { $0.intrinsicsSource == .defaultGuess || $0.intrinsicsSource == .exif }.map(\.cameraGroup))
        for group in groups.sorted() {
            let pairs = strongestPairs(of: group, inputs, geometries, count: options.maxPairs, options: options)
            guard pairs.count >= options.minPairs else { continue }
            let first = inputs.first { $0.cameraGroup == group }!
            let isExif = first.intrinsicsSource == .exif
            let withPairs = isExif ? [] : pairs.compactMap { g in fundamental(of: g, inputs: inputs, options: options).map { (g.pair, $0) } }
            let fundamentals = isExif
                ? uncalibratedFundamentals(Array(pairs.prefix(options.maxCheckPairs)), inputs: inputs, verifier: verifier, workers: workers, options: options)
                : withPairs.map(\.1)
            if !isExif, let clusters = splitCamera(withPairs, start: first.intrinsics.fx, intrinsics: first.intrinsics, options: options) {
                // Two cameras (or zoom settings) under one guess: a camera for each cluster; the
                // group's other photos go with the first.
                var nextGroup = (out.map(\.cameraGroup).max() ?? 0) + 1
                let members = out.indices.filter { out[$0].cameraGroup == group }
                for (c, cluster) in clusters.enumerated() {
                    let newGroup = c == 0 ? group : nextGroup
                    if c > 0 { nextGroup += 1 }
                    for i in c == 0 ? members : cluster.images {
                        out[i].cameraGroup = newGroup
                        out[i].intrinsics.fx = cluster.focalLength
                        out[i].intrinsics.fy = cluster.focalLength
                    }
                    estimated.insert(newGroup)
                }
                continue
            }
            guard let focal = isExif ? exifContradicted(fundamentals: fundamentals, intrinsics: first.intrinsics, options: options)
                                     : estimate(fundamentals: fundamentals, intrinsics: first.intrinsics, options: options)
            else { continue }
            if isExif { setAside.insert(group) }
            for i in out.indices where out[i].cameraGroup == group {
                out[i].intrinsics.fx = focal
                out[i].intrinsics.fy = focal
                out[i].intrinsicsSource = .defaultGuess
            }
            estimated.insert(group)
        }
        guard !estimated.isEmpty else { return (inputs, geometries) }
        let refined = out, groupsRefined = estimated, groupsSetAside = setAside
        let verified = parallelMap(geometries.count, workers: workers) { k -> TwoViewGeometry? in
            let g = geometries[k]
            let a = refined[g.pair.first], b = refined[g.pair.second]
            // A pair verified with an essential matrix at a focal length now set aside carries a
            // pose made with it (the other photo's focal length is known: it was verified so).
            let calibratedBefore = inputs[g.pair.first].intrinsicsSource != .defaultGuess
                && inputs[g.pair.second].intrinsicsSource != .defaultGuess
            let madeWithSetAside = calibratedBefore
                && (groupsSetAside.contains(a.cameraGroup) || groupsSetAside.contains(b.cameraGroup))
            guard madeWithSetAside || (groupsRefined.contains(a.cameraGroup) && groupsRefined.contains(b.cameraGroup)) else { return g }
            // Its matches are those the set-aside focal length fitted, a biased part of them
            // (`uncalibratedFundamentals`): the pair is matched again.
            if madeWithSetAside {
                return try? verifier.verify(pair: g.pair, features1: a.features, features2: b.features, intrinsics1: a.intrinsics,
                                            intrinsics2: b.intrinsics, calibrated: true).get()
            }
            return verifier.verifyCalibrated(g, features1: a.features, features2: b.features,
                                             intrinsics1: a.intrinsics, intrinsics2: b.intrinsics)
        }
        return (out, verified.compactMap { $0 })
    }

    /// Each camera group with a given focal length whose pairs, matched again, clearly contradict
    /// it (`maxGivenDisagreement`, `minContrast`, `minRise`): the group, the given and the pairs'
    /// focal length. The given one is still held; this is for a warning.
    public static func givenContradicted(_ inputs: [IncrementalMapper.ImageInput], geometries: [TwoViewGeometry], verifier: PairVerifier,
                                         workers: Int = 1, options: Options = Options())
        -> [(group: Int, given: Double, found: Double)]
    {
        var found: [(group: Int, given: Double, found: Double)] = []
        for group in Set(inputs.filter { $0.intrinsicsSource == .given }.map(\.cameraGroup)).sorted() {
            let pairs = strongestPairs(of: group, inputs, geometries, count: options.maxGivenCheckPairs, options: options)
            guard pairs.count >= options.minPairs else { continue }
            let first = inputs.first { $0.cameraGroup == group }!
            let fundamentals = uncalibratedFundamentals(pairs, inputs: inputs, verifier: verifier, workers: workers, options: options)
            if let focal = contradicted(fundamentals: fundamentals, intrinsics: first.intrinsics,
                                        maxDisagreement: options.maxGivenDisagreement, options: options) {
                found.append((group, first.intrinsics.meanFocalLength, focal))
            }
        }
        return found
    }

    /// The pairs' best focal length when it contradicts the EXIF focal length of `intrinsics`:
    /// more than `maxExifDisagreement` times larger or smaller, a minimum inside the search range,
    /// and a clearly better fit than the EXIF one (by `minContrast` and `minRise`). Nil otherwise,
    /// and with too few pairs. A flat criterion (an orbit's meeting optical axes) never contradicts.
    public static func exifContradicted(fundamentals: [Matrix3], intrinsics: CameraIntrinsics, options: Options = Options()) -> Double? {
        contradicted(fundamentals: fundamentals, intrinsics: intrinsics, maxDisagreement: options.maxExifDisagreement, options: options)
    }

    /// The pairs' best focal length when it is more than `maxDisagreement` times larger or smaller
    /// than that of `intrinsics` and fits them clearly better (`exifContradicted`, `givenContradicted`).
    static func contradicted(fundamentals: [Matrix3], intrinsics: CameraIntrinsics, maxDisagreement: Double, options: Options) -> Double? {
        guard fundamentals.count >= options.minPairs, let (focal, minimum) = bestFocal(fundamentals, intrinsics, options) else { return nil }
        let held = intrinsics.meanFocalLength, ratio = focal / held
        guard max(ratio, 1 / ratio) > maxDisagreement else { return nil }
        let atHeld = cost(fundamentals, focal: held, intrinsics: intrinsics)
        guard atHeld >= options.minContrast * minimum, atHeld - minimum >= options.minRise else { return nil }
        return focal
    }

    /// The median criterion over `fundamentals` at focal length `focal`.
    static func cost(_ fundamentals: [Matrix3], focal: Double, intrinsics: CameraIntrinsics) -> Double {
        Statistics.median(fundamentals.map { criterion($0, focal: focal, cx: intrinsics.cx, cy: intrinsics.cy) })
    }

    /// The focal length in the search range with the lowest criterion, and that criterion; nil when
    /// the lowest is at an end of the range (no minimum inside it).
    static func bestFocal(_ fundamentals: [Matrix3], _ intrinsics: CameraIntrinsics, _ options: Options) -> (Double, Double)? {
        let side = Double(max(intrinsics.width, intrinsics.height))
        // A log-spaced grid, then a finer one around its best point.
        let steps = 120
        let low = log(options.searchRange.lowerBound * side), high = log(options.searchRange.upperBound * side)
        let grid = (0...steps).map { exp(low + (high - low) * Double($0) / Double(steps)) }
        let costs = grid.map { cost(fundamentals, focal: $0, intrinsics: intrinsics) }
        let best = costs.indices.min { costs[$0] < costs[$1] }!
        guard best > 0, best < steps else { return nil }
        let fine = (0...20).map { grid[best - 1] * pow(grid[best + 1] / grid[best - 1], Double($0) / 20) }
        return fine.map { ($0, cost(fundamentals, focal: $0, intrinsics: intrinsics)) }.min { $0.1 < $1.1 }!
    }

    /// The focal length that best explains `fundamentals` (pixel coordinates, x2ᵀ F x1 = 0) with
    /// the principal point of `intrinsics`; nil with too few pairs or no clear minimum.
    public static func estimate(fundamentals: [Matrix3], intrinsics: CameraIntrinsics, options: Options = Options()) -> Double? {
        guard fundamentals.count >= options.minPairs, let (focal, minimum) = bestFocal(fundamentals, intrinsics, options) else { return nil }
        func cost(_ f: Double) -> Double { Self.cost(fundamentals, focal: f, intrinsics: intrinsics) }
        for neighbour in [cost(focal * 1.5), cost(focal / 1.5)] {
            guard neighbour >= options.minContrast * minimum, neighbour - minimum >= options.minRise else { return nil }
        }
        return focal
    }

    /// (σ₁ − σ₂) / (σ₁ + σ₂) of Kᵀ·F·K: 0 for an essential matrix.
    static func criterion(_ f: Matrix3, focal: Double, cx: Double, cy: Double) -> Double {
        criterion(f, focal1: focal, focal2: focal, cx: cx, cy: cy)
    }

    /// Up to `count` pairs within camera group `group` with at least `minInliers` inliers, those with the most first.
    static func strongestPairs(of group: Int, _ inputs: [IncrementalMapper.ImageInput], _ geometries: [TwoViewGeometry], count: Int,
                               options: Options) -> [TwoViewGeometry] {
        Array(geometries
            .filter { inputs[$0.pair.first].cameraGroup == group && inputs[$0.pair.second].cameraGroup == group }
            .filter { $0.inlierCount >= options.minInliers }
            .sorted { $0.inlierCount > $1.inlierCount }
            .prefix(count))
    }

    /// Fundamental matrices of `pairs` matched again and verified with fundamental matrices alone.
    /// Pairs verified with an essential matrix at a focal length keep the matches that focal
    /// length fits; when it is wrong, that is a biased part of them (a plane, the middle of the
    /// photos) whose fundamental matrices point back at it: fountain-P11 with a 14 mm tag (2.3
    /// times short) had the criterion's minimum at the tag, and registered 6 of 11 photos 27 cm off.
    static func uncalibratedFundamentals(_ pairs: [TwoViewGeometry], inputs: [IncrementalMapper.ImageInput], verifier: PairVerifier,
                                         workers: Int, options: Options) -> [Matrix3] {
        parallelMap(pairs.count, workers: workers) { k -> Matrix3? in
            let pair = pairs[k].pair, a = inputs[pair.first], b = inputs[pair.second]
            guard let g = try? verifier.verify(pair: pair, features1: a.features, features2: b.features, intrinsics1: a.intrinsics,
                                               intrinsics2: b.intrinsics, calibrated: false).get(),
                  g.inlierCount >= options.minInliers else { return nil }
            return fundamental(of: g, inputs: inputs, options: options)
        }.compactMap { $0 }
    }

    /// The pair's fundamental matrix from its verified matches, unless a homography explains them.
    static func fundamental(of g: TwoViewGeometry, inputs: [IncrementalMapper.ImageInput], options: Options) -> Matrix3? {
        let features1 = inputs[g.pair.first].features, features2 = inputs[g.pair.second].features
        guard g.homographyInlierShare(features1, features2, maxErrorPixels: 6) <= options.maxHomographyShare else { return nil }
        let (pixels1, pixels2) = g.pixels(features1, features2)
        let ransac = RansacOptions(maxError: 3, confidence: 0.999, maxIterations: 2_000)
        return try? GeometryEstimators.fundamental(pixels1: pixels1, pixels2: pixels2, options: ransac).model
    }
}
