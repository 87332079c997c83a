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
        public init() {}
    }

    /// The inputs, with the focal length of each camera group that starts from the default guess
    /// replaced by the estimate from its pairs where there is a reliable one; and the geometries,
    /// with those groups' pairs verified again by `verifier` with essential matrices at the new
    /// focal length (pairs that no longer pass are dropped).
    public static func refineGuesses(_ inputs: [IncrementalMapper.ImageInput], geometries: [TwoViewGeometry],
                                     verifier: PairVerifier, workers: Int = 1, options: Options = Options())
        -> (inputs: [IncrementalMapper.ImageInput], geometries: [TwoViewGeometry])
    {
        var out = inputs
        var estimated: Set<Int> = []
        let groups = Set(inputs.filter { $0.intrinsicsSource == .defaultGuess }.map(\.cameraGroup))
        for group in groups.sorted() {
            let pairs = geometries
                .filter { inputs[$0.pair.first].cameraGroup == group && inputs[$0.pair.second].cameraGroup == group }
                .filter { $0.inlierCount >= options.minInliers }
                .sorted { $0.inlierCount > $1.inlierCount }
                .prefix(options.maxPairs)
            let fundamentals = pairs.compactMap { fundamental(of: $0, inputs: inputs, options: options) }
            let intrinsics = inputs.first { $0.cameraGroup == group }!.intrinsics
            guard let focal = estimate(fundamentals: fundamentals, intrinsics: intrinsics, options: options) else { continue }
            for i in out.indices where out[i].cameraGroup == group {
                out[i].intrinsics.fx = focal
                out[i].intrinsics.fy = focal
            }
            estimated.insert(group)
        }
        guard !estimated.isEmpty else { return (inputs, geometries) }
        let refined = out, groupsRefined = estimated
        let verified = parallelMap(geometries.count, workers: workers) { k -> TwoViewGeometry? in
            let g = geometries[k]
            let a = refined[g.pair.first], b = refined[g.pair.second]
            guard groupsRefined.contains(a.cameraGroup), groupsRefined.contains(b.cameraGroup) else { return g }
            return verifier.verifyCalibrated(g, features1: a.features, features2: b.features,
                                             intrinsics1: a.intrinsics, intrinsics2: b.intrinsics)
        }
        return (out, verified.compactMap { $0 })
    }

    /// The focal length that best explains `fundamentals` (pixel coordinates, x2ᵀ F x1 = 0) with
    /// the principal point of `intrinsics`; nil with too few pairs or no clear minimum.
    public static func estimate(fundamentals: [Matrix3], intrinsics: CameraIntrinsics, options: Options = Options()) -> Double? {
        guard fundamentals.count >= options.minPairs else { return nil }
        let side = Double(max(intrinsics.width, intrinsics.height))
        func cost(_ f: Double) -> Double {
            Statistics.median(fundamentals.map { criterion($0, focal: f, cx: intrinsics.cx, cy: intrinsics.cy) })
        }
        // A log-spaced grid, then a finer one around its best point.
        let steps = 120
        let low = log(options.searchRange.lowerBound * side), high = log(options.searchRange.upperBound * side)
        let grid = (0...steps).map { exp(low + (high - low) * Double($0) / Double(steps)) }
        let costs = grid.map(cost)
        let best = costs.indices.min { costs[$0] < costs[$1] }!
        guard best > 0, best < steps else { return nil }  // at the edge: no minimum inside the range
        let fine = (0...20).map { grid[best - 1] * pow(grid[best + 1] / grid[best - 1], Double($0) / 20) }
        let (focal, minimum) = fine.map { ($0, cost($0)) }.min { $0.1 < $1.1 }!
        for neighbour in [cost(focal * 1.5), cost(focal / 1.5)] {
            guard neighbour >= options.minContrast * minimum, neighbour - minimum >= options.minRise else { return nil }
        }
        return focal
    }

    /// (σ₁ − σ₂) / (σ₁ + σ₂) of Kᵀ·F·K: 0 for an essential matrix.
    static func criterion(_ f: Matrix3, focal: Double, cx: Double, cy: Double) -> Double {
        let k = Matrix3(rowMajor: [focal, 0, cx, 0, focal, cy, 0, 0, 1])
        let e = k.transposed * f * k
        let ete = e.transposed * e
        let values = SymmetricEigen((0..<3).map { i in (0..<3).map { j in ete[i, j] } }).values
        let s1 = max(0, values[0]).squareRoot(), s2 = max(0, values[1]).squareRoot()
        return s1 + s2 > 0 ? (s1 - s2) / (s1 + s2) : 1
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
