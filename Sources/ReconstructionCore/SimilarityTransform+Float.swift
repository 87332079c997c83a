extension SimilarityTransform {
    /// `positions` moved by this transform, in single precision.
    public func apply(positions: [SIMD3<Float>]) -> [SIMD3<Float>] {
        let (r0, r1, r2) = floatRows
        let s = Float(scale)
        let t = SIMD3<Float>(Float(translation.x), Float(translation.y), Float(translation.z))
        return positions.map { p in SIMD3(simdDot(r0, p), simdDot(r1, p), simdDot(r2, p)) * s + t }
    }

    /// `directions` (normals) turned by this transform's rotation.
    public func rotate(directions: [SIMD3<Float>]) -> [SIMD3<Float>] {
        let (r0, r1, r2) = floatRows
        return directions.map { n in SIMD3(simdDot(r0, n), simdDot(r1, n), simdDot(r2, n)) }
    }

    private var floatRows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        func row(_ i: Int) -> SIMD3<Float> { let v = rotation.row(i); return SIMD3(Float(v.x), Float(v.y), Float(v.z)) }
        return (row(0), row(1), row(2))
    }
}

extension TriangleMesh {
    /// The mesh moved by `transform`: positions scaled, rotated and shifted; normals rotated.
    public func transformed(by transform: SimilarityTransform) -> TriangleMesh {
        var out = self
        out.positions = transform.apply(positions: positions)
        out.normals = transform.rotate(directions: normals)
        return out
    }
}

extension PointCloud {
    /// The cloud moved by `transform`: positions scaled, rotated and shifted; normals rotated.
    public func transformed(by transform: SimilarityTransform) -> PointCloud {
        var out = self
        out.positions = transform.apply(positions: positions)
        out.normals = transform.rotate(directions: normals)
        return out
    }
}
