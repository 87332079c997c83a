extension BoundingBox {
    /// A box around the bulk of `points` (world, metres), robust to stray points: along each axis
    /// it spans the `trimmedFraction` to `1 − trimmedFraction` quantiles, then grows by
    /// `marginFraction` of its size on every side. Nil when no point is finite.
    public static func estimate(enclosing points: [SIMD3<Float>], trimmedFraction: Double = 0.01,
                                marginFraction: Double = 0.05) -> BoundingBox? {
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        guard !finite.isEmpty else { return nil }
        let trim = Swift.min(Swift.max(trimmedFraction, 0), 0.49)
        var lower = [Double](repeating: 0, count: 3), upper = [Double](repeating: 0, count: 3)
        for axis in 0..<3 {
            let values = finite.map { Double($0[axis]) }.sorted()
            let last = values.count - 1
            lower[axis] = values[Int((Double(last) * trim).rounded(.down))]
            upper[axis] = values[Int((Double(last) * (1 - trim)).rounded(.up))]
        }
        let margin = Swift.max(marginFraction, 0)
        let half = Vector3((upper[0] - lower[0]) / 2, (upper[1] - lower[1]) / 2, (upper[2] - lower[2]) / 2)
        let centre = Vector3((upper[0] + lower[0]) / 2, (upper[1] + lower[1]) / 2, (upper[2] + lower[2]) / 2)
        return BoundingBox(centre: centre, halfExtents: half * (1 + 2 * margin))
    }
}
