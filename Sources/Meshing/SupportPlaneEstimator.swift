import Foundation
import ReconstructionCore

/// Finds the plane an object rests on (a table, the floor) from depth samples around it.
///
/// RANSAC over the background samples (depth outside the object's masks, near the object):
/// planes through three random samples are scored by the background samples (at most 20 000,
/// evenly strided) within `inlierDistance`; a candidate is allowed only when at most `maximumObjectBelowFraction` of the
/// object's samples lie more than `inlierDistance` beneath it. The best one is refitted to its
/// inliers by least squares (twice). It is returned only when it carries at least
/// `minimumInlierFraction` of the background and the object stands on it: the object's lowest
/// samples (2nd percentile) are within `maximumGapFraction` of its height (98th percentile) above
/// it — an object hanging in the air, or a wall behind it, is not a support. Deterministic for a
/// given seed.
///
/// Without masks nothing is known to be on the object, only a point above its support (where the
/// cameras look): `estimate(samples:below:up:maximumTiltDegrees:)` runs the same RANSAC among
/// all the samples around it, allowing only level planes below that point.
public struct SupportPlaneEstimator: Sendable {
    public struct Options: Sendable, Equatable {
        /// Samples within this distance of a plane support it, metres.
        public var inlierDistance: Float = 0.01
        /// Candidate planes tried.
        public var iterations = 400
        /// The plane must carry at least this fraction of the background samples.
        public var minimumInlierFraction: Float = 0.2
        /// At most this fraction of the object's samples may lie more than `inlierDistance` below the plane.
        public var maximumObjectBelowFraction: Float = 0.02
        /// The object's lowest samples must be within this fraction of its height above the plane.
        public var maximumGapFraction: Float = 0.1
        /// Seed of the sampling.
        public var seed: UInt64 = 1
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// The support plane, its normal pointing towards the object; nil when there is none.
    /// - Parameters:
    ///   - background: samples of the surroundings near the object (world, metres).
    ///   - object: samples of the object.
    public func estimate(background: [SIMD3<Float>], object: [SIMD3<Float>]) -> Plane? {
        guard background.count >= 30, object.count >= 30 else { return nil }
        let threshold = max(options.inlierDistance, 1e-6)
        let objectSample = Self.subsample(object, count: 2000)
        guard let plane = bestPlane(among: background, threshold: threshold, candidate: {
            oriented($0, towards: objectSample, threshold: threshold)
        }) else { return nil }
        let heights = objectSample.map { plane.signedDistance($0) }.sorted()
        let low = heights[heights.count / 50], high = heights[heights.count - 1 - heights.count / 50]
        guard high > 0, low <= max(threshold, options.maximumGapFraction * high) else { return nil }
        return plane
    }

    /// The support of an object known only by a point above it (`focus`, where the cameras look)
    /// when no sample is known to lie on the object (no masks): among `samples` around it, the
    /// plane within `maximumTiltDegrees` of level (normal towards `up`) and more than
    /// `inlierDistance` below `focus` that carries the most of them. Nil when the best carries
    /// fewer than `minimumInlierFraction` of them.
    public func estimate(samples: [SIMD3<Float>], below focus: SIMD3<Float>, up: SIMD3<Float>, maximumTiltDegrees: Float) -> Plane? {
        guard samples.count >= 30, simdLength(up) > 0 else { return nil }
        let threshold = max(options.inlierDistance, 1e-6)
        let upward = up / simdLength(up), minimumAlignment = cos(maximumTiltDegrees * .pi / 180)
        return bestPlane(among: samples, threshold: threshold) { plane in
            let level = simdDot(plane.normal, upward) >= 0 ? plane : plane.flipped
            return simdDot(level.normal, upward) >= minimumAlignment && level.signedDistance(focus) > threshold ? level : nil
        }
    }

    /// RANSAC: planes through three random `samples`, kept as `candidate` turns them (oriented, or
    /// nil when not allowed), scored by the samples (at most 20 000, evenly strided) within
    /// `threshold`; the best refitted to its inliers by least squares twice (still a candidate),
    /// and returned when it carries at least `minimumInlierFraction` of the samples.
    private func bestPlane(among samples: [SIMD3<Float>], threshold: Float, candidate: (Plane) -> Plane?) -> Plane? {
        let scoringSample = Self.subsample(samples, count: 20000)
        var random = SeededGenerator(seed: options.seed)
        var best: (plane: Plane, inliers: Int)?
        for _ in 0..<max(1, options.iterations) {
            let a = samples[Int(random.next() % UInt64(samples.count))]
            let b = samples[Int(random.next() % UInt64(samples.count))]
            let c = samples[Int(random.next() % UInt64(samples.count))]
            guard let raw = Plane(through: a, normal: simdCross(b - a, c - a)), let plane = candidate(raw) else { continue }
            let inliers = scoringSample.reduce(0) { $0 + (abs(plane.signedDistance($1)) <= threshold ? 1 : 0) }
            if inliers > (best?.inliers ?? 0) { best = (plane, inliers) }
        }
        guard var plane = best?.plane else { return nil }
        for _ in 0..<2 {
            let inliers = samples.filter { abs(plane.signedDistance($0)) <= threshold }
            guard let (fit, _) = Plane.fitted(to: inliers), let refined = candidate(fit) else { return nil }
            plane = refined
        }
        let inliers = samples.reduce(0) { $0 + (abs(plane.signedDistance($1)) <= threshold ? 1 : 0) }
        return Float(inliers) >= options.minimumInlierFraction * Float(samples.count) ? plane : nil
    }

    /// `plane` with its normal towards the object, or nil when too much of the object lies below it.
    private func oriented(_ plane: Plane, towards object: [SIMD3<Float>], threshold: Float) -> Plane? {
        var above = 0, below = 0
        for p in object {
            let d = plane.signedDistance(p)
            if d > threshold { above += 1 } else if d < -threshold { below += 1 }
        }
        let up = above >= below ? plane : plane.flipped
        let wrongSide = min(above, below)
        return Float(wrongSide) <= options.maximumObjectBelowFraction * Float(object.count) ? up : nil
    }

    /// At most `count` of `points`, evenly strided.
    static func subsample(_ points: [SIMD3<Float>], count: Int) -> [SIMD3<Float>] {
        guard points.count > count else { return points }
        let step = Double(points.count) / Double(count)
        return (0..<count).map { points[Int(Double($0) * step)] }
    }
}
