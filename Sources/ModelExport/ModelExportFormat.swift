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
}
