import Foundation
import ReconstructionCore

/// Plans dense stereo from the sparse scene: for each view, the source views to match against and
/// the depth range to search.
public struct StereoViewSelection: Sendable {
    public struct Options: Sendable, Equatable {
        /// Most source views per reference view.
        public var maxSourceViews = 6
        /// Triangulation angles outside this range (degrees) do not count for a pair.
        public var minTriangulationAngleDegrees: Double = 3
        public var maxTriangulationAngleDegrees: Double = 45
        /// Angle a pair's shared points score best at, degrees; the score falls off as a Gaussian
        /// (σ = a third of the distance to the nearer limit) on either side.
        public var preferredTriangulationAngleDegrees: Double = 12
        /// A source view needs this many shared points within the angle range …
        public var minSharedPoints = 8
        /// … and at least this fraction of the best source's score.
        public var minRelativeScore: Double = 0.1
        /// Depth range: these quantiles of the depths of the points a view sees …
        public var depthQuantile: Double = 0.01
        /// … widened by this fraction on both sides.
        public var depthMargin: Double = 0.25
        /// Without sparse points: candidate source views look at most this far away from the
        /// reference's viewing direction, degrees.
        public var maxViewingAngleDegrees: Double = 60
        /// A view with fewer sources than this within the triangulation angles above takes the
        /// best of the views up to `widestTriangulationAngleDegrees` too, until it has this many
        /// (never more than `maxSourceViews`); they follow its own sources in `Plan.sources`.
        /// Depth needs two neighbours to agree (`DepthConsistencyFilter`), so a view with one
        /// source keeps none. Photos 45° apart round an object see its points at 45–50°: in a
        /// capture whose lowest orbit has 8 photos, some of that orbit's views had one source, and
        /// the object's foot, which the orbits above see hidden behind its belly, had no depth.
        public var minSourceViews = 4
        /// Largest triangulation angle of those added sources, degrees (equal to
        /// `maxTriangulationAngleDegrees` or less turns the filling off).
        public var widestTriangulationAngleDegrees: Double = 60
        public init() {}
    }

    /// A view as the planner sees it: its camera and pose.
    public struct Camera: Sendable {
        public var intrinsics: CameraIntrinsics
        public var worldFromCamera: RigidTransform
        public init(intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform) {
            self.intrinsics = intrinsics
            self.worldFromCamera = worldFromCamera
        }
    }

    /// The plan for one reference view.
    public struct Plan: Sendable, Equatable {
        /// Source view indices, best first, then any added by `minSourceViews` (empty: the view
        /// gets no depth map).
        public var sources: [Int]
        /// Depth range (metres along the view's z axis), nil when the scene gives none.
        public var depthRange: ClosedRange<Float>?
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Plans every view. `points` are sparse world points with the views that observe them; with
    /// none, sources come from the cameras' geometry at the geometric mean of
    /// `fallbackDepthRange` and every range is `fallbackDepthRange`.
    public func plan(cameras: [Camera], points: [DenseStereo.SparsePoint],
                     fallbackDepthRange: ClosedRange<Float>? = nil) -> [Plan] {
        let centres = cameras.map { $0.worldFromCamera.translation }
        var observed = [[Int]](repeating: [], count: cameras.count)
        for (p, point) in points.enumerated() {
            for v in Set(point.viewIndices) where cameras.indices.contains(v) { observed[v].append(p) }
        }
        return cameras.indices.map { r in
            let range = depthRange(of: r, cameras: cameras, points: points, observed: observed[r]) ?? fallbackDepthRange
            let sources: [Int]
            if observed[r].count >= options.minSharedPoints {
                sources = sparseSources(of: r, centres: centres, points: points, observed: observed[r])
            } else if let range {
                sources = geometricSources(of: r, cameras: cameras, depth: Double(range.lowerBound * range.upperBound).squareRoot())
            } else {
                sources = []
            }
            return Plan(sources: sources, depthRange: range)
        }
    }

    /// Score of one triangulation angle (degrees), 0 outside `minTriangulationAngleDegrees`…`high`
    /// (`maxTriangulationAngleDegrees` unless given).
    func angleScore(_ degrees: Double, high: Double? = nil) -> Double {
        let low = options.minTriangulationAngleDegrees, high = high ?? options.maxTriangulationAngleDegrees
        guard degrees >= low, degrees <= high else { return 0 }
        let preferred = min(max(options.preferredTriangulationAngleDegrees, low), high)
        let sigma = max(1e-3, (degrees < preferred ? preferred - low : high - preferred) / 3)
        let z = (degrees - preferred) / sigma
        return Foundation.exp(-0.5 * z * z)
    }

    private func sparseSources(of r: Int, centres: [Vector3], points: [DenseStereo.SparsePoint], observed: [Int]) -> [Int] {
        func ranked(high: Double, relativeToBest: Bool) -> [Int] {
            var score = [Double](repeating: 0, count: centres.count)
            var shared = [Int](repeating: 0, count: centres.count)
            for p in observed {
                let x = points[p].position
                let rayR = (centres[r] - x).normalized
                for v in Set(points[p].viewIndices) where v != r && centres.indices.contains(v) {
                    let rayV = (centres[v] - x).normalized
                    let s = angleScore(acos(max(-1, min(1, rayR.dot(rayV)))) * 180 / Double.pi, high: high)
                    if s > 0 {
                        score[v] += s
                        shared[v] += 1
                    }
                }
            }
            let best = score.max() ?? 0
            guard best > 0 else { return [] }
            return score.indices
                .filter { $0 != r && shared[$0] >= options.minSharedPoints && (!relativeToBest || score[$0] >= options.minRelativeScore * best) }
                .sorted { score[$0] > score[$1] }
        }
        return filled(Array(ranked(high: options.maxTriangulationAngleDegrees, relativeToBest: true).prefix(options.maxSourceViews))) {
            ranked(high: options.widestTriangulationAngleDegrees, relativeToBest: false)
        }
    }

    /// `sources`, followed, when they are fewer than `minSourceViews`, by the best of `wider`
    /// (the candidates up to `widestTriangulationAngleDegrees`, best first) until there are.
    private func filled(_ sources: [Int], wider: () -> [Int]) -> [Int] {
        let wanted = min(options.minSourceViews, options.maxSourceViews)
        guard sources.count < wanted, options.widestTriangulationAngleDegrees > options.maxTriangulationAngleDegrees else { return sources }
        return sources + wider().filter { !sources.contains($0) }.prefix(wanted - sources.count)
    }

    /// Without points: views whose direction is close to the reference's, scored by the
    /// triangulation angle at the point `depth` ahead of the reference, which they must see.
    private func geometricSources(of r: Int, cameras: [Camera], depth: Double) -> [Int] {
        filled(geometricSources(of: r, cameras: cameras, depth: depth, high: options.maxTriangulationAngleDegrees)) {
            geometricSources(of: r, cameras: cameras, depth: depth, high: options.widestTriangulationAngleDegrees)
        }
    }

    private func geometricSources(of r: Int, cameras: [Camera], depth: Double, high: Double) -> [Int] {
        let reference = cameras[r].worldFromCamera
        let axis = reference.rotation.column(2)
        let target = reference.translation + depth * axis
        let maxViewing = options.maxViewingAngleDegrees * Double.pi / 180
        var scored: [(view: Int, score: Double)] = []
        for v in cameras.indices where v != r {
            let pose = cameras[v].worldFromCamera
            let otherAxis = pose.rotation.column(2)
            guard acos(max(-1, min(1, axis.dot(otherAxis)))) <= maxViewing else { continue }
            let inCamera = pose.inverse.apply(target)
            guard let pixel = cameras[v].intrinsics.project(inCamera),
                  pixel.x >= 0, pixel.y >= 0, pixel.x <= Double(cameras[v].intrinsics.width),
                  pixel.y <= Double(cameras[v].intrinsics.height) else { continue }
            let a = (reference.translation - target).normalized, b = (pose.translation - target).normalized
            let s = angleScore(acos(max(-1, min(1, a.dot(b)))) * 180 / Double.pi, high: high)
            if s > 0 { scored.append((v, s)) }
        }
        return scored.sorted { $0.score > $1.score }.prefix(options.maxSourceViews).map(\.view)
    }

    /// Quantiles of the depths of the points the view observes, widened by the margin.
    private func depthRange(of r: Int, cameras: [Camera], points: [DenseStereo.SparsePoint], observed: [Int]) -> ClosedRange<Float>? {
        let cameraFromWorld = cameras[r].worldFromCamera.inverse
        let depths = observed.map { cameraFromWorld.apply(points[$0].position).z }.filter { $0 > 0 }.sorted()
        guard depths.count >= max(2, options.minSharedPoints) else { return nil }
        let q = min(max(options.depthQuantile, 0), 0.5)
        let low = depths[Int(q * Double(depths.count - 1))]
        let high = depths[Int(((1 - q) * Double(depths.count - 1)).rounded())]
        let lower = low * (1 - options.depthMargin), upper = high * (1 + options.depthMargin)
        guard lower > 0, upper > lower else { return nil }
        return Float(lower)...Float(upper)
    }
}
