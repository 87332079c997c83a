import Foundation

/// Where a command writes its results, checked (and for a folder, created) before any work starts,
/// so that a bad path does not cost a whole run.
enum OutputFolder {
    /// Creates `url` (and missing parents) and checks that it can be written, with a message that
    /// names the path that is in the way: a file where a folder is needed, or a folder that is
    /// not writable.
    static func prepare(_ url: URL) throws {
        try checkFolder(url.path, option: "output folder")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create the output folder \(url.path): \(error.localizedDescription)")
        }
    }

    /// Checks that a file can be written at `path` (given with `option`, for the message): it is
    /// not a folder, nothing on the way to it is a file, and the deepest existing folder on the
    /// way takes a new file (tried with a probe file, which is removed).
    static func checkFile(_ path: String, option: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("\(option) \(path) is a folder; give a file name")
        }
        try checkWritableAncestor(of: url, option: option, path: path)
    }

    /// Checks that a folder can be made or written at `path`: it is not a file, nothing on the way
    /// to it is a file, and the deepest existing folder takes a new file.
    static func checkFolder(_ path: String, option: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("\(option) \(path) is a file, not a folder") }
            try probe(url, option: option, path: path)
            return
        }
        try checkWritableAncestor(of: url, option: option, path: path)
    }

    private static func checkWritableAncestor(of url: URL, option: String, path: String) throws {
        var folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        guard isDirectory.boolValue else { throw CommandFailure("\(option) \(path): \(folder.path) is a file, not a folder") }
        try probe(folder, option: option, path: path)
    }

    /// Creates and removes an empty file in `folder`: the one test of writability that also covers
    /// read-only mounts and pseudo file systems, where permissions alone say yes.
    private static func probe(_ folder: URL, option: String, path: String) throws {
        let file = folder.appendingPathComponent(".photogrammetry-write-test-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data()) else {
            throw CommandFailure("\(option) \(path): cannot create files in \(folder.path)")
        }
        try? FileManager.default.removeItem(at: file)
    }

    /// Outputs given the same path would overwrite each other, and the run would still report
    /// each as written: an error naming both options.
    static func checkDistinct(_ outputs: [(option: String, path: String)]) throws {
        var seen: [String: String] = [:]
        for (option, path) in outputs {
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let first = seen[key] {
                throw CommandFailure("\(first) and \(option) are both \(path); give each output its own path")
            }
            seen[key] = option
        }
    }

    /// Image files written straight into a folder of photos become photos of the capture the next
    /// time it is read: an error when `folder` (given with `option`) is one of `photoFolders`.
    static func checkNotAmongPhotos(_ folder: String, option: String, what: String, photoFolders: [URL]) throws {
        let target = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath().path
        for photos in photoFolders where photos.standardizedFileURL.resolvingSymlinksInPath().path == target {
            throw CommandFailure("\(option) would write \(what) into \(folder), the capture's folder, where they would be read "
                                 + "as photos; write them elsewhere")
        }
    }
}
