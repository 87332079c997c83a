/// An axis-aligned box as float corners, for fast tests on float points (depth samples, mesh
/// samples); `BoundingBox` is the double-precision box of results and requests.
public struct AxisBox: Sendable, Equatable {
    public var lower: SIMD3<Float>
    public var upper: SIMD3<Float>

    public init(lower: SIMD3<Float>, upper: SIMD3<Float>) {
        self.lower = lower
        self.upper = upper
    }

    public init(_ box: BoundingBox) {
        let c = box.centre, h = box.halfExtents
        lower = SIMD3(Float(c.x - abs(h.x)), Float(c.y - abs(h.y)), Float(c.z - abs(h.z)))
        upper = SIMD3(Float(c.x + abs(h.x)), Float(c.y + abs(h.y)), Float(c.z + abs(h.z)))
    }

    /// The box about the same centre, `factor` times as large.
    public func grown(by factor: Float) -> AxisBox {
        let centre = (lower + upper) / 2, half = (upper - lower) / 2 * factor
        return AxisBox(lower: centre - half, upper: centre + half)
    }

    @inline(__always)
    public func contains(_ p: SIMD3<Float>) -> Bool { all(p .>= lower) && all(p .<= upper) }

    /// How far from `p` (inside the box) along the unit `direction` the box's surface lies; 0 for
    /// a point outside it.
    public func exitDistance(from p: SIMD3<Float>, along direction: SIMD3<Float>) -> Float {
        guard contains(p) else { return 0 }
        var t = Float.infinity
        for i in 0..<3 where direction[i] != 0 {
            t = min(t, ((direction[i] > 0 ? upper[i] : lower[i]) - p[i]) / direction[i])
        }
        return t.isFinite ? max(0, t) : 0
    }

    /// Whether the box `otherLower … otherUpper` overlaps this one.
    public func intersects(lower otherLower: SIMD3<Float>, upper otherUpper: SIMD3<Float>) -> Bool {
        all(otherUpper .>= lower) && all(otherLower .<= upper)
    }
}
