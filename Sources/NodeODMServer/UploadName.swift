import CaptureIO
import Foundation

/// The name an uploaded file is stored under in a task's `images/` folder.
///
/// A name that reaches outside the folder (`..`, `/`, `\`, a leading `.`, NUL or other control
/// characters) is refused, not repaired: the client meant something else. Any other name is kept
/// as sent (`写真1.jpg`, `photo é.jpg`, `a#1.jpg`): changing characters would let two photos'
/// names meet, and the later would replace the earlier. The extension must be a photo's (what a
/// capture folder reads: JPEG, PNG, HEIC/HEIF, TIFF, WebP, BMP), or that of a file a capture folder holds beside its photos: `K.txt`,
/// `tracked_poses.json` (`capture replay`'s, for the metric scale) or a photo's `STEM_gravity.txt`.
public enum UploadName {
    /// Longest name, in bytes of UTF-8.
    public static let maximumBytes = 240
    /// What a capture folder reads as photos (`ImageFolder.imageExtensions`).
    public static let photoExtensions = ImageFolder.imageExtensions
    /// The intrinsics file a capture folder may hold beside its photos.
    public static let intrinsicsFileName = CaptureFolderFiles.intrinsics

    /// The stored name for the client's `name`.
    /// - Throws: `NodeODMError.refused` naming the problem.
    public static func sanitize(_ sent: String) throws -> String {
        // One spelling per name (é as one character or as e and an accent), as file systems and
        // other tools would show it; the checks below apply to that spelling.
        let name = sent.precomposedStringWithCanonicalMapping
        guard !name.isEmpty else { throw NodeODMError.refused("an uploaded file has no name") }
        // Uploads are stored as `N-name` while they arrive; file systems take 255 bytes.
        guard name.utf8.count <= maximumBytes else {
            throw NodeODMError.refused("file name '\(name.prefix(40))…' is longer than \(maximumBytes) bytes")
        }
        if name.contains("/") || name.contains("\\") || name.contains("..") {
            throw NodeODMError.refused("file name '\(name)' is a path: upload plain file names (no '/', '\\' or '..')")
        }
        if name.hasPrefix(".") { throw NodeODMError.refused("file name '\(name)' starts with '.'") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw NodeODMError.refused("file name '\(name.debugDescription)' has control characters")
        }
        let cleaned = name
        for folderFile in [intrinsicsFileName, CaptureFolderFiles.trackedPoses]
        where cleaned.caseInsensitiveCompare(folderFile) == .orderedSame {
            return folderFile
        }
        let ext = (cleaned as NSString).pathExtension.lowercased()
        let stem = (cleaned as NSString).deletingPathExtension
        if ext == "txt" && stem.hasSuffix(GravitySidecar.suffix) {
            return stem + ".txt"  // the name the folder reader looks for
        }
        guard photoExtensions.contains(ext) else {
            throw NodeODMError.refused("file '\(name)' is not a photo (\(photoExtensions.sorted().map { "." + $0 }.joined(separator: ", "))), "
                + "a photo's STEM\(GravitySidecar.suffix).txt, \(intrinsicsFileName) or \(CaptureFolderFiles.trackedPoses)")
        }
        return cleaned
    }

    /// Whether a stored name is a photo (counts against the image limit), by the capture
    /// folder's rule: a photo's extension and not a sidecar (`_depth`, `_mask`, … images).
    public static func isPhoto(_ storedName: String) -> Bool {
        photoExtensions.contains((storedName as NSString).pathExtension.lowercased()) && !ImageFolder.isSidecar(storedName)
    }
}
