import ReconstructionCore

/// The file layout of an exported model, chosen from the output path by `ModelExporter`.
public enum ModelExportFormat: String, Sendable, Hashable, CaseIterable {
    /// `x.usdz`: one USDZ package (`USDZWriter`), for AR Quick Look and USD tools.
    case usdz
    /// `x.glb`: one binary glTF 2.0 file (`GLBWriter`).
    case glb
    /// `x.obj`: the OBJ file at that path, its MTL and textures beside it (`OBJWriter`).
    case obj
    /// A folder (a path without a model extension that has no extension, ends in `/`, or names an
    /// existing folder) holding
    /// `<name>.obj`, `<name>.mtl` and the textures (`OBJWriter`), as Apple's folder output does.
    case objFolder

    /// Whether the output is a folder rather than a file.
    public var isFolder: Bool { self == .objFolder }

    /// The texture maps this format has a place for: glTF 2.0 has no displacement map. (OBJ's MTL
    /// has no ambient-occlusion statement: that map is written beside it and named in a comment.)
    public var carriedMaps: TextureMaps {
        self == .glb ? TextureMaps.all.subtracting(.displacement) : .all
    }

    /// Why `maps`, asked for explicitly, cannot all be in a model of this format; nil when they can.
    public func problem(carrying maps: TextureMaps) -> String? {
        guard maps.contains(.displacement), !carriedMaps.contains(.displacement) else { return nil }
        return "glTF (.glb) has no displacement map: leave displacement out of the maps, or write .usdz or OBJ"
    }
}
