import Foundation

/// Why a file could not be read, in words a user can act on. Foundation on Linux often says only
/// "The operation could not be completed. (NSCocoaErrorDomain error 256.)", for instance when the
/// path is a folder.
public enum FileReadFailure {
    /// The reason `error`, thrown while reading `url`, stands for.
    public static func reason(_ url: URL, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return "it does not exist" }
        if isDirectory.boolValue { return "it is a folder, not a file" }
        if !FileManager.default.isReadableFile(atPath: url.path) { return "permission denied" }
        return error.localizedDescription
    }
}
