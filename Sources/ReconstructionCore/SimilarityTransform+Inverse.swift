extension SimilarityTransform {
    /// The similarity that undoes this one: p = Rᵀ (q − t) / s.
    public var inverse: SimilarityTransform {
        let back = rotation.transposed
        return SimilarityTransform(scale: 1 / scale, rotation: back, translation: -(1 / scale) * (back * translation))
    }
}
