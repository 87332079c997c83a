import Foundation

/// Writes a model in the format its output path asks for: `.usdz` → USDZ, `.glb` → GLB, `.obj` →
/// OBJ file with MTL and textures beside it, and a folder → OBJ, MTL and textures inside it (see
/// `ModelExportFormat`). These extensions are case-insensitive and win over everything else (an
/// existing folder named `x.usdz` is an error, not an OBJ folder; so is `x.usdz/`); a path without
/// extension, ending in `/`, or naming an existing folder is a folder; any other extension is an error.
public enum ModelExporter {
    /// The file extensions understood (a folder needs none).
    public static let fileExtensions = ["usdz", "glb", "obj"]

    /// The format `url` asks for.
    /// - Throws: `ModelExportError` naming the path when its extension is not a model format.
    public static func format(for url: URL) throws -> ModelExportFormat {
        let pathExtension = url.pathExtension.lowercased()
        var isFolder: ObjCBool = false
        let existingFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        // (An existing folder's URL ends in / by itself: `validateOutputPath` says it is a folder.)
        if fileExtensions.contains(pathExtension), url.hasDirectoryPath, !existingFolder {
            throw ModelExportError(file: url, "ends in / (a folder) but has the model extension .\(pathExtension): drop the / for a "
                                   + ".\(pathExtension) file, or name a folder without a model extension for OBJ")
        }
        switch pathExtension {
        case "usdz": return .usdz
        case "glb": return .glb
        case "obj": return .obj
        default: break
        }
        if pathExtension.isEmpty || url.hasDirectoryPath || existingFolder {
            return .objFolder
        }
        throw ModelExportError(file: url, "unknown model format \".\(pathExtension)\": use .usdz, .glb, .obj, or a folder "
                               + "(a path without extension, ending in /, or an existing folder)")
    }

    /// Checks, without writing anything, that a model can be written at `url`: the format is
    /// known; a file output is not an existing folder; a folder output is not an existing file;
    /// the folder that will receive the files exists, is a folder and is writable. Meant to run
    /// before a long reconstruction so that a bad path fails at once. (The writers themselves
    /// create missing parent folders; this check is stricter so that a mistyped path is caught.)
    /// - Returns: the format `url` asks for.
    /// - Throws: `ModelExportError` naming the path and the problem.
    @discardableResult
    public static func validateOutputPath(_ url: URL) throws -> ModelExportFormat {
        let format = try format(for: url)
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if format.isFolder {
            if exists {
                guard isDirectory.boolValue else {
                    throw ModelExportError(file: url, "exists and is not a folder; an OBJ model is written into a folder")
                }
                guard access(url.path, W_OK | X_OK) == 0 else {
                    throw ModelExportError(file: url, "the output folder is not writable")
                }
                return format
            }
        } else if exists, isDirectory.boolValue {
            throw ModelExportError(file: url, "is a folder; a .\(format.rawValue) model is a file")
        }
        let parent = url.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory) else {
            throw ModelExportError(file: url, "its folder \(parent.path) does not exist")
        }
        guard isDirectory.boolValue else {
            throw ModelExportError(file: url, "\(parent.path) is not a folder")
        }
        guard access(parent.path, W_OK | X_OK) == 0 else {
            throw ModelExportError(file: url, "its folder \(parent.path) is not writable")
        }
        return format
    }

    /// Writes `package` in the format `url` asks for (missing parent folders are created; each file
    /// is written atomically).
    /// - Returns: the files written (for OBJ, the textures, the MTL, then the OBJ).
    /// - Throws: `ModelExportError` naming the path.
    @discardableResult
    public static func write(_ package: ModelPackage, to url: URL) throws -> [URL] {
        switch try format(for: url) {
        case .usdz:
            try USDZWriter.write(package, to: url)
            return [url]
        case .glb:
            try GLBWriter.write(package, to: url)
            return [url]
        case .obj:
            return try OBJWriter.write(package, to: url)
        case .objFolder:
            return try OBJWriter.write(package, toFolder: url)
        }
    }
}
