import CaptureIO
import Foundation

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
        throw noPhotos(path)
    }

    /// The failure for a folder without photos, listing the extensions looked for.
    static func noPhotos(_ path: String) -> CommandFailure {
        let extensions = ImageFolder.imageExtensions.sorted().map { "." + $0 }.joined(separator: ", ")
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let unreadable = ImageFolder.namesNotInUTF8(in: folder) + ImageFolder.namesNotInUTF8(in: folder.appendingPathComponent("images"))
        let names = unreadable.isEmpty ? "" : "; \(unreadable.count) file(s) with an image's extension have names that are not valid UTF-8 "
            + "and cannot be read (rename them in UTF-8)"
        // Photos one level deeper under another name: say which folder to give instead.
        let holding = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().filter { name in
            !name.hasPrefix(".") && (try? ImageFolder.listImages(in: folder.appendingPathComponent(name, isDirectory: true)))?.isEmpty == false
        }
        let deeper = holding.isEmpty ? "" : "; photos are in " + holding.prefix(3).map { "\(name(path, $0))/" }.joined(separator: ", ")
            + (holding.count > 3 ? ", …" : "") + ": give that folder instead"
        return CommandFailure("no photos in \(path): looked for \(extensions) (any case) directly inside it and in its images/ subfolder, not deeper"
                              + deeper + names)
    }

    private static func name(_ path: String, _ child: String) -> String {
        path.hasSuffix("/") ? path + child : path + "/" + child
    }
}
