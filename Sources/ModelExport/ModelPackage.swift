import ReconstructionCore

/// Everything a model exporter writes: the textured mesh, its encoded texture maps, scale and name.
///
/// The mesh is Y up, right-handed, counter-clockwise front faces, in units of `metersPerUnit`
/// metres; atlas coordinates follow `TexturedMesh` (u right, v down).
public struct ModelPackage: Sendable, Equatable {
    /// Names the files of an OBJ folder and the prims/nodes inside USDZ and GLB (made safe for each).
    public var name: String
    public var mesh: TexturedMesh
    /// At most one image per map kind.
    public var textures: [EncodedTexture]
    /// Metres per mesh unit (> 0).
    public var metersPerUnit: Double
    /// Whether `metersPerUnit` is known. Photos alone give no scale: the unit is then the
    /// reconstruction's own, and the files say so (each format still needs a `metersPerUnit`).
    public var isMetric: Bool
    /// Metres spanned by the displacement map's 0…255 range (see `TextureMapKind.displacement`).
    public var displacementRange: Float
    /// Roughness 0…1 of the whole surface when there is no roughness map. Metallic is always 0.
    public var roughness: Float

    public init(name: String = "Model", mesh: TexturedMesh, textures: [EncodedTexture] = [],
                metersPerUnit: Double = 1, isMetric: Bool = true, displacementRange: Float = 0, roughness: Float = 0.7) {
        self.name = name
        self.mesh = mesh
        self.textures = textures
        self.metersPerUnit = metersPerUnit
        self.isMetric = isMetric
        self.displacementRange = displacementRange
        self.roughness = roughness
    }

    /// The package of `model`, whose maps the caller has encoded into `textures`.
    public init(name: String = "Model", model: TexturedModel, textures: [EncodedTexture], roughness: Float = 0.7) {
        self.init(name: name, mesh: model.mesh, textures: textures, metersPerUnit: model.metersPerUnit, isMetric: model.isMetric,
                  displacementRange: model.textures.displacementRange, roughness: roughness)
    }

    /// What the files say of an unknown scale.
    static let unknownScaleNote = "scale unknown: 1 unit is the reconstruction's own unit, not a metre (no metric input)"

    /// The image of `map`, if any.
    public func texture(_ map: TextureMapKind) -> EncodedTexture? {
        textures.first { $0.map == map }
    }

    /// Why an exporter would write a broken file, or nil: an empty or inconsistent mesh, a bad
    /// scale, two images for one map, or an image that is not what it claims.
    public var inconsistency: String? {
        if mesh.triangles.isEmpty { return "the mesh has no triangles" }
        if let problem = mesh.inconsistency { return "the mesh is inconsistent: \(problem)" }
        if !(metersPerUnit > 0 && metersPerUnit.isFinite) { return "metersPerUnit is \(metersPerUnit), not a positive number" }
        if !displacementRange.isFinite { return "the displacement range is not finite" }
        if !(roughness >= 0 && roughness <= 1) { return "the roughness \(roughness) is not in 0…1" }
        for kind in TextureMapKind.allCases where textures.filter({ $0.map == kind }).count > 1 {
            return "more than one \(kind.baseName) map"
        }
        return textures.lazy.compactMap(\.inconsistency).first
    }

    /// `name` as a USD prim name: ASCII letters, digits and `_`, not starting with a digit.
    var identifier: String {
        var scalars = name.unicodeScalars.map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || s.properties.numericType != nil || s == "_") ? Character(s) : "_"
        }
        if scalars.isEmpty { return "Model" }
        if scalars[0].isNumber { scalars.insert("_", at: 0) }
        return String(scalars)
    }

    /// `name` as a file-name stem: no path separators, spaces or control characters.
    var fileStem: String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\\" || $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true ? "_" : $0 })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "model" : cleaned
    }

    /// Throws `ModelExportError` naming `path` when the package is inconsistent.
    func check(writingTo path: String) throws {
        if let problem = inconsistency { throw ModelExportError(path: path, problem: "cannot export: \(problem)") }
    }
}
