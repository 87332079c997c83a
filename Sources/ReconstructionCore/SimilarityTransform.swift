/// A similarity `p_to = scale · rotation · p_from + translation`.
public struct SimilarityTransform: Equatable, Sendable {
    public var scale: Double
    public var rotation: Matrix3
    public var translation: Vector3

    public init(scale: Double, rotation: Matrix3, translation: Vector3) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    public func apply(_ p: Vector3) -> Vector3 { scale * (rotation * p) + translation }

    /// The least-squares similarity taking `source[i]` onto `target[i]` (Horn's closed form with
    /// unit quaternions; scale as in Umeyama). Nil for fewer than 3 points or a degenerate set.
    public static func aligning(_ source: [Vector3], onto target: [Vector3]) -> SimilarityTransform? {
        guard source.count == target.count, source.count >= 3 else { return nil }
        let n = Double(source.count)
        let meanS = source.reduce(Vector3.zero, +) / n
        let meanT = target.reduce(Vector3.zero, +) / n
        var s = [[Double]](repeating: [0, 0, 0], count: 3)  // Σ a'ᵢ b'ᵢᵀ
        var sourceVariance = 0.0
        for (a, b) in zip(source, target) {
            let da = (a - meanS).array, db = (b - meanT).array
            for i in 0..<3 { for j in 0..<3 { s[i][j] += da[i] * db[j] } }
            sourceVariance += (a - meanS).dot(a - meanS)
        }
        guard sourceVariance > 1e-300 else { return nil }
        let (sxx, sxy, sxz) = (s[0][0], s[0][1], s[0][2])
        let (syx, syy, syz) = (s[1][0], s[1][1], s[1][2])
        let (szx, szy, szz) = (s[2][0], s[2][1], s[2][2])
        let nMatrix: [[Double]] = [
            [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
            [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
            [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
            [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
        ]
        let q = SymmetricEigen(nMatrix).vectors[0]
        let rotation = UnitQuaternion(w: q[0], x: q[1], y: q[2], z: q[3]).matrix
        var numerator = 0.0
        for (a, b) in zip(source, target) { numerator += (b - meanT).dot(rotation * (a - meanS)) }
        let scale = numerator / sourceVariance
        let translation = meanT - scale * (rotation * meanS)
        return SimilarityTransform(scale: scale, rotation: rotation, translation: translation)
    }
}
