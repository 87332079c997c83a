import Foundation

/// Relative file paths between two locations on the file system.
enum RelativePath {
    /// The path of `file` relative to `directory` (using ".." components as needed), after
    /// resolving symbolic links in `directory` and in the folders above `file`; the absolute path
    /// of `file` when the two share nothing but the file-system root. The file's own name is kept
    /// even when it is a symbolic link, so the path names the file the caller listed.
    static func of(_ file: URL, relativeTo directory: URL) -> String {
        let fileComponents = components(of: file.deletingLastPathComponent()) + [file.lastPathComponent]
        let directoryComponents = components(of: directory)
        var common = 0
        while common < fileComponents.count - 1, common < directoryComponents.count,
              fileComponents[common] == directoryComponents[common] {
            common += 1
        }
        let absolute = "/" + fileComponents.joined(separator: "/")
        guard common > 0 else { return absolute }
        let ups = [String](repeating: "..", count: directoryComponents.count - common)
        return (ups + fileComponents[common...]).joined(separator: "/")
    }

    /// Path components of a file URL's standardised, symlink-resolved path, without the root "/".
    private static func components(of url: URL) -> [String] {
        url.standardizedFileURL.resolvingSymlinksInPath().path
            .split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
            .filter { $0 != "." }
    }
}
