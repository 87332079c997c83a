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
        out.positions = transform.apply(positions: positions)
        out.normals = transform.rotate(directions: normals)
        return out
    }
}
