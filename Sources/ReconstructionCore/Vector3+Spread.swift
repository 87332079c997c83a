extension Collection where Element == Vector3 {
    /// The points' mean; nil when there are none.
    public var mean: Vector3? {
        isEmpty ? nil : reduce(Vector3.zero, +) / Double(count)
    }

    /// Root-mean-square distance of the points from their mean (for camera centres: the rig's
    /// size, an orbit's radius); nil when there are none.
    public var rmsSpread: Double? {
        guard let mean else { return nil }
        return (map { ($0 - mean).dot($0 - mean) }.reduce(0, +) / Double(count)).squareRoot()
    }
}
