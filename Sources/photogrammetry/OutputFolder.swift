import CaptureIO
import Foundation

/// The folder a command writes its results into, made ready before any work starts.
enum OutputFolder {
    /// Creates `url` (and missing parents) and checks that it can be written, with a message that
    /// names the path that is in the way: a file where a folder is needed, or a folder that is
    /// not writable.
    static func prepare(_ url: URL) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        // The deepest existing path on the way to `url` decides what goes wrong.
        var existing = url.standardizedFileURL
        while !fileManager.fileExists(atPath: existing.path, isDirectory: &isDirectory), existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        if !isDirectory.boolValue {
            let what = existing == url.standardizedFileURL ? "it is a file, not a folder" : "\(existing.path) is a file, not a folder"
            throw CommandFailure("cannot use \(url.path) as the output folder: \(what)")
        }
        guard fileManager.isWritableFile(atPath: existing.path) else {
            throw CommandFailure("cannot use \(url.path) as the output folder: \(existing.path) is not writable")
        }
        do {
            try fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create the output folder \(url.path): \(error.localizedDescription)")
        }
    }
}

/// The folder of photos a command was given.
enum PhotoFolder {
    /// `path` itself when it holds photos; its `images/` subfolder when only that does (a capture
    /// folder laid out as `reconstruct` and the Strecha scenes have it), with a note saying so.
    /// - Throws: `CaptureIOError` for a missing folder or a file; `CommandFailure` when neither
    ///   holds a photo, listing the extensions looked for.
    static func resolve(_ path: String, reporter: ProgressReporter) throws -> URL {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        if try !ImageFolder.listImages(in: folder).isEmpty { return folder }
        let nested = folder.appendingPathComponent("images", isDirectory: true)
        if (try? ImageFolder.listImages(in: nested))?.isEmpty == false {
            reporter.note("no photos directly in \(path); using its images/ subfolder")
            return nested
        }
        let extensions = ImageFolder.imageExtensions.sorted().map { "." + $0 }.joined(separator: ", ")
        throw CommandFailure("no photos in \(path): looked for \(extensions) (any case) directly inside it and in its images/ subfolder, not deeper")
    }
}
