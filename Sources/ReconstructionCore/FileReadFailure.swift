import Foundation

/// Why a file could not be read, in words a user can act on. Foundation on Linux often says only
/// "The operation could not be completed. (NSCocoaErrorDomain error 256.)", for instance when the
/// path is a folder. The only file-system access in the core: it looks at the path, never reads it.
public enum FileReadFailure {
    /// The reason `error`, thrown while reading `url`, stands for.
    public static func reason(_ url: URL, _ error: any Error) -> String {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return "it is a folder, not a file" }
            if !manager.isReadableFile(atPath: url.path) { return "permission denied" }
            return error.localizedDescription
        }
        // Not there, or hidden by a folder that cannot be entered.
        var folder = url.deletingLastPathComponent()
        while folder.path != "/" && !manager.fileExists(atPath: folder.path) { folder = folder.deletingLastPathComponent() }
        if !manager.isExecutableFile(atPath: folder.path) { return "permission denied (\(folder.path) cannot be entered)" }
        return "it does not exist"
    }
}
