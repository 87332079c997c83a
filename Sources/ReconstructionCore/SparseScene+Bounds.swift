extension SparseScene {
    /// A box around the bulk of the triangulated points: per world axis, from the `lowerQuantile`
    /// to the `upperQuantile` of the point coordinates (so stray points do not inflate it), grown
    /// on each side by `margin` times its size. Nil without points.
    public func robustBounds(lowerQuantile: Double = 0.02, upperQuantile: Double = 0.98, margin: Double = 0.05) -> BoundingBox? {
        guard !points.isEmpty else { return nil }
        func range(_ values: [Double]) -> (Double, Double) {
            let sorted = values.sorted()
            let last = Double(sorted.count - 1)
            let lo = sorted[Int((max(0, min(1, lowerQuantile)) * last).rounded())]
            let hi = sorted[Int((max(0, min(1, upperQuantile)) * last).rounded())]
            let pad = margin * (hi - lo)
            return (lo - pad, hi + pad)
        }
        let x = range(points.map(\.position.x)), y = range(points.map(\.position.y)), z = range(points.map(\.position.z))
        return BoundingBox(centre: Vector3((x.0 + x.1) / 2, (y.0 + y.1) / 2, (z.0 + z.1) / 2),
                           halfExtents: Vector3((x.1 - x.0) / 2, (y.1 - y.0) / 2, (z.1 - z.0) / 2))
    }
}
