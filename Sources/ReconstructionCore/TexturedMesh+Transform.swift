extension SimilarityTransform {
    /// The similarity that undoes this one: p = Rᵀ (q − t) / s.
    public var inverse: SimilarityTransform {
        let back = rotation.transposed
        return SimilarityTransform(scale: 1 / scale, rotation: back, translation: -(1 / scale) * (back * translation))
    }
}

extension TexturedMesh {
    /// The mesh moved by `transform`: positions scaled, rotated and shifted; normals rotated; the
    /// atlas unchanged.
    public func transformed(by transform: SimilarityTransform) -> TexturedMesh {
        var out = self
        let r = transform.rotation
        func row(_ i: Int) -> SIMD3<Float> { let v = r.row(i); return SIMD3(Float(v.x), Float(v.y), Float(v.z)) }
        let (r0, r1, r2) = (row(0), row(1), row(2))
        let s = Float(transform.scale)
        let t = SIMD3<Float>(Float(transform.translation.x), Float(transform.translation.y), Float(transform.translation.z))
        out.positions = positions.map { p in SIMD3(simdDot(r0, p), simdDot(r1, p), simdDot(r2, p)) * s + t }
        out.normals = normals.map { n in SIMD3(simdDot(r0, n), simdDot(r1, n), simdDot(r2, n)) }
        return out
    }
}
