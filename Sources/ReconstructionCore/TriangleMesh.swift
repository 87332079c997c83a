/// An indexed triangle mesh in world coordinates (metres unless stated), with optional per-vertex
/// attributes. Triangles are counter-clockwise seen from outside (their normal points outwards).
public struct TriangleMesh: Equatable, Sendable {
    /// Vertex positions.
    public var positions: [SIMD3<Float>]
    /// Vertex indices of each triangle, counter-clockwise seen from outside.
    public var triangles: [SIMD3<UInt32>]
    /// Per-vertex colour, sRGB components in 0...1; empty when the mesh has no colours.
    public var colors: [SIMD3<Float>]
    /// Per-vertex unit normal; empty when the mesh has no normals.
    public var normals: [SIMD3<Float>]

    public init(
        positions: [SIMD3<Float>] = [], triangles: [SIMD3<UInt32>] = [],
        colors: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = []
    ) {
        self.positions = positions
        self.triangles = triangles
        self.colors = colors
        self.normals = normals
    }

    public var vertexCount: Int { positions.count }
    public var triangleCount: Int { triangles.count }
    public var hasColors: Bool { !colors.isEmpty && colors.count == positions.count }
    public var hasNormals: Bool { !normals.isEmpty && normals.count == positions.count }

    /// The three corners of triangle `index`.
    @inline(__always)
    public func corners(of index: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let t = triangles[index]
        return (positions[Int(t.x)], positions[Int(t.y)], positions[Int(t.z)])
    }

    /// Area of triangle `index` in square units.
    public func area(of index: Int) -> Float {
        let (a, b, c) = corners(of: index)
        return simdLength(simdCross(b - a, c - a)) / 2
    }

    /// Total surface area in square units.
    public var surfaceArea: Double {
        var total = 0.0
        for i in triangles.indices { total += Double(area(of: i)) }
        return total
    }

    /// Axis-aligned bounds of the vertices, or nil for an empty mesh.
    public var bounds: (min: SIMD3<Float>, max: SIMD3<Float>)? {
        guard var lo = positions.first else { return nil }
        var hi = lo
        for p in positions {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return (lo, hi)
    }

    /// Appends `other`, re-indexing its triangles. Attributes are kept only if both meshes have them.
    public mutating func append(_ other: TriangleMesh) {
        let offset = UInt32(positions.count)
        let keepColors = (hasColors || positions.isEmpty) && other.hasColors
        let keepNormals = (hasNormals || positions.isEmpty) && other.hasNormals
        positions += other.positions
        triangles += other.triangles.map { $0 &+ SIMD3(repeating: offset) }
        colors = keepColors ? colors + other.colors : []
        normals = keepNormals ? normals + other.normals : []
    }

    /// Area-weighted unit normals at the vertices, computed from the triangles.
    public func computedVertexNormals() -> [SIMD3<Float>] {
        var sums = [SIMD3<Float>](repeating: .zero, count: positions.count)
        for t in triangles {
            let a = positions[Int(t.x)], b = positions[Int(t.y)], c = positions[Int(t.z)]
            let n = simdCross(b - a, c - a)  // length = 2 × area: area weighting for free
            sums[Int(t.x)] += n
            sums[Int(t.y)] += n
            sums[Int(t.z)] += n
        }
        return sums.map { n in
            let l = simdLength(n)
            return l > 0 ? n / l : SIMD3(0, 0, 1)
        }
    }
}

/// Cross product of two float 3-vectors.
@inline(__always)
public func simdCross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// Dot product of two float 3-vectors.
@inline(__always)
public func simdDot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

/// Euclidean length of a float 3-vector.
@inline(__always)
public func simdLength(_ a: SIMD3<Float>) -> Float { simdDot(a, a).squareRoot() }
