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

/// Geometry made of points with optional normals, which a similarity moves as a whole.
public protocol PointsWithNormals {
    var positions: [SIMD3<Float>] { get set }
    var normals: [SIMD3<Float>] { get set }
}

extension PointsWithNormals {
    /// Moved by `transform`: positions scaled, rotated and shifted; normals rotated; everything
    /// else (colours, triangles, the atlas) unchanged.
    public func transformed(by transform: SimilarityTransform) -> Self {
        var out = self
        out.positions = transform.apply(positions: positions)
        out.normals = transform.rotate(directions: normals)
        return out
    }
}

extension TriangleMesh: PointsWithNormals {}
extension PointCloud: PointsWithNormals {}
extension TexturedMesh: PointsWithNormals {}
