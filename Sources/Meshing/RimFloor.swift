import Foundation
import ReconstructionCore

/// The floor under an object whose support no depth map measured — a plain floor or table with no
/// texture for stereo — found from where the object's walls end.
///
/// Fusion leaves such an object open underneath, and its walls end in a rim a little below the
/// true contact: stereo near the foot carries the wall's depth a few pixels onto the plain floor,
/// unevenly. Capping on the rim's own plane at its lowest point (`OpeningClosure` without a
/// support plane) leaves the bottom tilted and below the floor by that overshoot. Objects rest on
/// floors across the up direction, so the floor is taken as the plane across `up` at the rim's
/// upper quartile (`floorQuantile`): level, and robust to the overshoot, which only ever reaches
/// down (stereo carries the wall onto the floor, and fusion's truncation band reaches below the
/// lowest depth). The median sat a whole overshoot low: 4–5 mm under the true floor of a 40 cm
/// vase on a plain floor (synthetic studio captures, seeds 1–3), the upper quartile 2–3 mm.
///
/// A loop qualifies when it opens downwards (its outward normal within `maximumTiltDegrees` of
/// −up), runs level (90 % of it within `maximumRimSpreadEdges` edge lengths above its median
/// height, so that it rests on the floor once cut there), every viewpoint lies above the floor (no
/// camera looked up through it), and the mesh lies above its median height but for an overshoot: at most
/// `maximumBelowFraction` of its vertices below the plane, and none deeper than
/// `maximumOvershootFraction` of the height above it, so an opening under a part held up by legs
/// (a chair's seat), or a second piece lower down, is never cut off. Of the qualifying loops, the
/// longest gives the floor.
public struct RimFloor: Sendable {
    public struct Options: Sendable, Equatable {
        /// Loops with fewer edges are not rims (small holes).
        public var minimumLoopEdges = 16
        /// Largest angle between the loop's outward normal and −up, degrees.
        public var maximumTiltDegrees: Float = 30
        /// Most of the mesh's vertices that may lie below the floor, as a fraction.
        public var maximumBelowFraction: Float = 0.05
        /// Deepest a vertex may lie below the floor, as a fraction of the mesh's height above it.
        public var maximumOvershootFraction: Float = 0.05
        /// 90 % of the rim must lie within this many edge lengths above the floor (as
        /// `OpeningClosure.Options.maximumSkirtEdges` then asks of a loop closed on it).
        public var maximumRimSpreadEdges: Float = 3
        /// Where among the rim's heights (sorted upwards, 0…1) the floor is taken, at most at the
        /// 90th percentile. The loop qualifies by its median (the checks below are made there),
        /// whatever this is; the floor is then at most `maximumRimSpreadEdges` edges above it.
        public var floorQuantile: Float = 0.75
        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The floor plane (normal `up`, pointing towards the object), or nil when no loop qualifies.
    public func estimate(_ mesh: TriangleMesh, up: SIMD3<Float>, viewpoints: [SIMD3<Float>]) -> Plane? {
        let length = simdLength(up)
        guard length > 0, length.isFinite else { return nil }
        let u = up / length
        let loops = mesh.boundaryLoops().filter { $0.count >= max(3, options.minimumLoopEdges) }
        guard !loops.isEmpty else { return nil }
        let edgeLength = mesh.medianEdgeLength()
        // Heights of every vertex a triangle uses: the cut reaches all of them.
        let heights = mesh.removingUnreferencedVertices().positions.map { simdDot($0, u) }
        guard let highest = heights.max(), edgeLength > 0 else { return nil }
        let minimumCosine = cos(options.maximumTiltDegrees * .pi / 180)
        var best: (plane: Plane, edges: Int)?
        for loop in loops where loop.count > (best?.edges ?? 0) {
            let points = loop.map { mesh.positions[Int($0)] }
            guard let outward = OpeningClosure.newellNormal(points), simdDot(outward, -u) >= minimumCosine else { continue }
            let rim = points.map { simdDot($0, u) }.sorted()
            // The loop qualifies by its median; the floor is then at `floorQuantile`.
            let median = rim[rim.count / 2]
            let high = rim[min(rim.count - 1, rim.count * 9 / 10)]
            guard high - median <= options.maximumRimSpreadEdges * edgeLength,
                  viewpoints.allSatisfy({ simdDot($0, u) > median }), highest > median else { continue }
            let below = heights.reduce(0) { $0 + ($1 < median ? 1 : 0) }
            let deepest = median - (heights.min() ?? median)
            guard Float(below) <= options.maximumBelowFraction * Float(heights.count),
                  deepest <= options.maximumOvershootFraction * (highest - median) else { continue }
            // No higher than the 90th percentile, which the spread check bounds.
            let level = min(high, rim[min(rim.count - 1, Int(Float(rim.count) * min(max(options.floorQuantile, 0), 1)))])
            guard viewpoints.allSatisfy({ simdDot($0, u) > level }), highest > level, let plane = Plane(normal: u, offset: level) else { continue }
            best = (plane, loop.count)
        }
        return best?.plane
    }
}
