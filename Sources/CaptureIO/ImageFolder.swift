import Foundation

/// The input images of a capture: the image files directly inside one directory.
public struct ImageFolder {
    /// File extensions (lower case, without the dot) that count as images.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp", "heic", "heif",
    ]

    /// The image files directly inside `directory`, sorted by file name.
    ///
    /// Not recursive. Hidden files (names starting with ".") and anything that is not a regular
    /// file (after following symbolic links) are skipped. Extensions match case-insensitively.
    /// - Throws: `CaptureIOError` if `directory` does not exist, is not a directory, or cannot be read.
    public static func listImages(in directory: URL) throws -> [URL] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw CaptureIOError(file: directory, "image directory does not exist")
        }
        guard isDirectory.boolValue else {
            throw CaptureIOError(file: directory, "is not a directory (expected a folder of images)")
        }
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw CaptureIOError(file: directory, "cannot list the image directory: \(error.localizedDescription)")
        }
        var images: [(name: String, url: URL)] = []
        for name in names where !name.hasPrefix(".") {
            let ext = (name as NSString).pathExtension.lowercased()
            guard imageExtensions.contains(ext) else { continue }
            let url = directory.appendingPathComponent(name, isDirectory: false)
            guard isRegularFile(url) else { continue }
            images.append((name, url))
        }
        images.sort { $0.name < $1.name }
        return images.map(\.url)
    }

    /// True when `url` (after following symbolic links) is a regular file.
    private static func isRegularFile(_ url: URL) -> Bool {
        let resolved = url.resolvingSymlinksInPath()
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path),
              let type = attributes[.type] as? FileAttributeType
        else { return false }
        return type == .typeRegular
    }
}
