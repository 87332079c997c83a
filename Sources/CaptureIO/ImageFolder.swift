import Foundation

/// The input images of a capture: the image files directly inside one directory.
public struct ImageFolder {
    /// File extensions (lower case, without the dot) that count as images.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "bmp", "heic", "heif",
    ]

    /// File-name suffixes (before the extension, case-insensitive) of per-image sidecars in
    /// Object Capture-style folders: `0001_depth.png` belongs to `0001.jpg` and is not a photo.
    public static let sidecarSuffixes = ["_depth", "_depthconfidence", "_confidence", "_mask", "_matte"]

    /// True when `name` is a sidecar of a photo (depth, confidence, mask or matte image).
    public static func isSidecar(_ name: String) -> Bool {
        let stem = ((name as NSString).deletingPathExtension).lowercased()
        return sidecarSuffixes.contains { stem.hasSuffix($0) }
    }

    /// The image files directly inside `directory`, sorted by file name.
    ///
    /// Not recursive. Sidecar images (`isSidecar`) are not photos and are skipped. Hidden files
    /// (names starting with ".") and anything that is not a regular file after following symbolic
    /// links (folders, devices) are skipped. A broken symbolic link with an image's name is listed,
    /// so that reading it reports the problem by name instead of the photo vanishing unnoticed.
    /// Extensions match case-insensitively.
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
            guard imageExtensions.contains(ext), !isSidecar(name) else { continue }
            let url = directory.appendingPathComponent(name, isDirectory: false)
            guard isRegularFile(url) || isBrokenSymbolicLink(url) else { continue }
            images.append((name, url))
        }
        images.sort { $0.name < $1.name }
        return images.map(\.url)
    }

    /// Names in `directory` with an image's extension that are not valid UTF-8 (Latin-1 names from
    /// older cameras or archives), shown with the invalid bytes as U+FFFD. Such files cannot be
    /// opened by name, so `listImages` leaves them out; callers name them in a warning.
    public static func namesNotInUTF8(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            name.contains("\u{FFFD}") && imageExtensions.contains((name as NSString).pathExtension.lowercased())
                && !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
        }.sorted()
    }

    /// True when `url` is a symbolic link whose target does not exist.
    public static func isBrokenSymbolicLink(_ url: URL) -> Bool {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil else { return false }
        return !FileManager.default.fileExists(atPath: url.path)
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
