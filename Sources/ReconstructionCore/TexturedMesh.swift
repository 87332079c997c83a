/// A triangle mesh with a texture atlas. Positions stay welded; UV seams are expressed by a second
/// set of corner indices into `uvs` (USD's indexed face-varying `st`, glTF after splitting seams).
///
/// Atlas coordinates follow the image convention: `u` grows to the right, `v` grows downwards, both
/// in 0…1 over the whole texture, so texel (x, y) of a W×H map has its centre at
/// ((x + 0.5) / W, (y + 0.5) / H). glTF uses exactly this; USD's `st` is (u, 1 − v).
///
/// Tangent frame (normal maps): T = ∂P/∂u, B = ∂P/∂t with t = 1 − v (so B points "up" the image),
/// N = the interpolated vertex normal: the OpenGL / glTF / UsdPreviewSurface convention.
public struct TexturedMesh: Equatable, Sendable {
    /// Vertex positions, metres (or `metersPerUnit` of the model that holds it).
    public var positions: [SIMD3<Float>]
    /// Per-vertex unit normals (same count as `positions`).
    public var normals: [SIMD3<Float>]
    /// Position indices per triangle, counter-clockwise seen from outside.
    public var triangles: [SIMD3<UInt32>]
    /// Atlas coordinates (see the type's comment for the convention).
    public var uvs: [SIMD2<Float>]
    /// Indices into `uvs` per triangle corner; same count and corner order as `triangles`.
    public var uvTriangles: [SIMD3<UInt32>]

    public init(positions: [SIMD3<Float>], normals: [SIMD3<Float>], triangles: [SIMD3<UInt32>],
                uvs: [SIMD2<Float>], uvTriangles: [SIMD3<UInt32>]) {
        self.positions = positions
        self.normals = normals
        self.triangles = triangles
        self.uvs = uvs
        self.uvTriangles = uvTriangles
    }

    public var triangleCount: Int { triangles.count }

    /// The geometry without the atlas.
    public var triangleMesh: TriangleMesh {
        TriangleMesh(positions: positions, triangles: triangles, normals: normals)
    }

    /// Problems that would make an exporter write a broken file, or nil when consistent: counts
    /// differ, an index is out of range, or a value is not finite.
    public var inconsistency: String? {
        if normals.count != positions.count { return "\(normals.count) normals for \(positions.count) positions" }
        if uvTriangles.count != triangles.count { return "\(uvTriangles.count) UV triangles for \(triangles.count) triangles" }
        let pn = UInt32(positions.count), un = UInt32(uvs.count)
        for (k, t) in triangles.enumerated() where t.x >= pn || t.y >= pn || t.z >= pn {
            return "triangle \(k) indexes a missing position"
        }
        for (k, t) in uvTriangles.enumerated() where t.x >= un || t.y >= un || t.z >= un {
            return "UV triangle \(k) indexes a missing UV"
        }
        if positions.contains(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }) { return "a position is not finite" }
        if normals.contains(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }) { return "a normal is not finite" }
        if uvs.contains(where: { !($0.x.isFinite && $0.y.isFinite) }) { return "a UV is not finite" }
        return nil
    }

    /// Axis-aligned bounds of the positions, or nil when empty.
    public var bounds: (min: SIMD3<Float>, max: SIMD3<Float>)? { triangleMesh.bounds }
}

/// The texture maps of a model, each square at the model's texture size. A nil map is not produced.
public struct ModelTextures: Equatable, Sendable {
    /// Base colour, sRGB.
    public var diffuseColor: RGBImage?
    /// Tangent-space normal (see `TexturedMesh` for the frame), stored as n · 0.5 + 0.5, linear.
    public var normal: RGBImage?
    /// Ambient occlusion: 255 = fully open, 0 = fully occluded, linear.
    public var ambientOcclusion: GrayImage?
    /// Roughness in 0…1 as 0…255, linear.
    public var roughness: GrayImage?
    /// Height of the detailed surface above the model's surface along the normal:
    /// metres = (value / 255 − 0.5) · `displacementRange`.
    public var displacement: GrayImage?
    /// Metres spanned by the displacement map's 0…255 range.
    public var displacementRange: Float

    public init(diffuseColor: RGBImage? = nil, normal: RGBImage? = nil, ambientOcclusion: GrayImage? = nil,
                roughness: GrayImage? = nil, displacement: GrayImage? = nil, displacementRange: Float = 0) {
        self.diffuseColor = diffuseColor
        self.normal = normal
        self.ambientOcclusion = ambientOcclusion
        self.roughness = roughness
        self.displacement = displacement
        self.displacementRange = displacementRange
    }

    /// The maps that are present.
    public var maps: TextureMaps {
        var m: TextureMaps = []
        if diffuseColor != nil { m.insert(.diffuseColor) }
        if normal != nil { m.insert(.normal) }
        if ambientOcclusion != nil { m.insert(.ambientOcclusion) }
        if roughness != nil { m.insert(.roughness) }
        if displacement != nil { m.insert(.displacement) }
        return m
    }
}

/// A textured model ready for export: Y up, `metersPerUnit` metres per unit.
public struct TexturedModel: Equatable, Sendable {
    public var mesh: TexturedMesh
    public var textures: ModelTextures
    /// Metres per model unit (1 when the scale is metric; otherwise the reconstruction's arbitrary unit is kept and this stays 1).
    public var metersPerUnit: Double
    /// Whether the scale is known to be metric.
    public var isMetric: Bool

    public init(mesh: TexturedMesh, textures: ModelTextures, metersPerUnit: Double = 1, isMetric: Bool = false) {
        self.mesh = mesh
        self.textures = textures
        self.metersPerUnit = metersPerUnit
        self.isMetric = isMetric
    }
}
