import ReconstructionCore

/// A plane `normal · p = offset` in world coordinates (metres); `normal` is a unit vector and
/// points to the plane's positive side.
public struct Plane: Sendable, Equatable, Codable {
    public private(set) var normal: SIMD3<Float>
    public private(set) var offset: Float

    /// The plane with the given normal (any non-zero length; it is normalised) and offset scaled
    /// with it; nil for a zero or non-finite normal.
    public init?(normal: SIMD3<Float>, offset: Float) {
        let length = simdLength(normal)
        guard length.isFinite, length > 1e-12, offset.isFinite else { return nil }
        self.normal = normal / length
        self.offset = offset / length
    }

    /// The plane through `point` with the given normal (normalised); nil for a zero or non-finite normal.
    public init?(through point: SIMD3<Float>, normal: SIMD3<Float>) {
        let length = simdLength(normal)
        guard length.isFinite, length > 1e-12 else { return nil }
        self.normal = normal / length
        self.offset = simdDot(self.normal, point)
    }

    /// Distance of `point` from the plane, positive on the side the normal points to (metres).
    @inline(__always)
    public func signedDistance(_ point: SIMD3<Float>) -> Float { simdDot(normal, point) - offset }

    /// The foot of the perpendicular from `point` onto the plane.
    @inline(__always)
    public func projected(_ point: SIMD3<Float>) -> SIMD3<Float> { point - signedDistance(point) * normal }

    /// The same plane with its sides swapped.
    public var flipped: Plane {
        var plane = self
        plane.normal = -normal
        plane.offset = -offset
        return plane
    }

    /// The parallel plane moved by `distance` along the normal.
    public func shifted(by distance: Float) -> Plane {
        var plane = self
        plane.offset += distance
        return plane
    }

    /// Two unit vectors spanning the plane with `u × v = normal`, so polygons that turn
    /// counter-clockwise in `(u, v)` coordinates face along the normal.
    public var basis: (u: SIMD3<Float>, v: SIMD3<Float>) {
        let helper: SIMD3<Float> = abs(normal.x) < 0.6 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
        let u = simdCross(helper, normal)
        let unitU = u / simdLength(u)
        return (unitU, simdCross(normal, unitU))
    }

    /// The least-squares plane of `points` (through their centroid, normal along the direction of
    /// least spread), with the root-mean-square distance of the points from it; nil for fewer than
    /// three points or points that do not span a plane. The normal's sign is arbitrary.
    public static func fitted(to points: [SIMD3<Float>]) -> (plane: Plane, rms: Float)? {
        guard points.count >= 3 else { return nil }
        var centroid = SIMD3<Double>(repeating: 0)
        for p in points { centroid += SIMD3<Double>(p) }
        centroid /= Double(points.count)
        var c = [[Double]](repeating: [0, 0, 0], count: 3)
        for p in points {
            let d = SIMD3<Double>(p) - centroid
            for i in 0..<3 { for j in 0..<3 { c[i][j] += d[i] * d[j] } }
        }
        let eigen = SymmetricEigen(c)
        guard eigen.values.count == 3, eigen.values[1] > 1e-18 else { return nil }
        let n = eigen.vectors[2]
        guard let plane = Plane(through: SIMD3<Float>(centroid), normal: SIMD3<Float>(Float(n[0]), Float(n[1]), Float(n[2]))) else {
            return nil
        }
        let rms = (max(0, eigen.values[2]) / Double(points.count)).squareRoot()
        return (plane, Float(rms))
    }
}
