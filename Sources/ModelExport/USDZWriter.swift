import Foundation
import ReconstructionCore

/// Writes a `ModelPackage` as a USDZ file for AR Quick Look, RealityKit and USD tools.
///
/// The package is a stored, 64-byte-aligned zip (`StoredZipWriter`) holding the text root layer
/// `model.usda` first (see `USDALayer` for its content and conventions), then the encoded
/// textures as `textures/baseColor.png`, `textures/normal.png`, … unchanged. The output is
/// byte-reproducible: equal packages give equal files.
public enum USDZWriter {
    /// The root layer's name inside the package.
    public static let rootLayerName = "model.usda"

    /// The texture's path inside the package: `textures/<file name>`.
    public static func texturePath(_ texture: EncodedTexture) -> String {
        "textures/\(texture.fileName)"
    }

    /// The root layer's text.
    /// - Throws: `ModelExportError` (path `model.usda`) when the package is inconsistent.
    public static func layerText(_ package: ModelPackage) throws -> String {
        try package.check(writingTo: rootLayerName)
        return String(decoding: USDALayer.bytes(package), as: UTF8.self)
    }

    /// The USDZ file's bytes.
    /// - Throws: `ModelExportError` (path `model.usdz`) when the package is inconsistent or too large.
    public static func data(_ package: ModelPackage) throws -> [UInt8] {
        try archive(package, path: "model.usdz")
    }

    /// Writes `package` to `url` (parent directories created, written atomically).
    /// - Throws: `ModelExportError` naming the file.
    public static func write(_ package: ModelPackage, to url: URL) throws {
        try AtomicFileWriter.write(Data(archive(package, path: url.path)), to: url)
    }

    private static func archive(_ package: ModelPackage, path: String) throws -> [UInt8] {
        try package.check(writingTo: path)
        var entries = [StoredZipWriter.Entry(name: rootLayerName, data: USDALayer.bytes(package))]
        for texture in package.textures {
            entries.append(StoredZipWriter.Entry(name: texturePath(texture), data: texture.data))
        }
        do {
            return try StoredZipWriter.archive(entries)
        } catch let error as StoredZipWriterError {
            throw ModelExportError(path: path, problem: error.description)
        }
    }
}
