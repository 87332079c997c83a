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
        if try !ImageFolder.listImages(in: folder).isEmpty {
            if let note = unreadSubfolders(folder) { reporter.note(note) }
            return folder
        }
        let nested = folder.appendingPathComponent("images", isDirectory: true)
        if (try? ImageFolder.listImages(in: nested))?.isEmpty == false {
            reporter.note("no photos directly in \(path); using its images/ subfolder")
            if let note = unreadSubfolders(nested) { reporter.note(note) }
            return nested
        }
        throw noPhotos(path)
    }

    /// The subfolders of `folder` (two levels down, hidden ones aside) that hold photos, as paths
    /// relative to it, sorted.
    static func subfoldersHoldingPhotos(_ folder: URL, depth: Int = 2) -> [String] {
        guard depth > 0 else { return [] }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().filter { !$0.hasPrefix(".") }
        return children.flatMap { name -> [String] in
            let child = folder.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
            let here = (try? ImageFolder.listImages(in: child))?.isEmpty == false ? [name] : []
            return here + subfoldersHoldingPhotos(child, depth: depth - 1).map { name + "/" + $0 }
        }
    }

    /// A note naming the subfolders of `folder` whose photos are not read (only the folder's own are).
    static func unreadSubfolders(_ folder: URL) -> String? {
        let holding = subfoldersHoldingPhotos(folder)
        guard !holding.isEmpty else { return nil }
        return "the photos in " + holding.prefix(3).map { "\($0)/" }.joined(separator: ", ") + (holding.count > 3 ? ", …" : "")
            + " are not read: only the photos directly in \(folder.path) are (put every photo of the capture in one folder)"
    }

    /// A note when `folder` holds a `K.txt` and no intrinsics were given: it is read only when
    /// given (`synth` writes one beside its photos), so a user who expected it used learns how.
    static func unusedKFile(_ folder: URL, intrinsicsGiven: Bool) -> String? {
        let k = folder.appendingPathComponent("K.txt")
        guard !intrinsicsGiven, FileManager.default.fileExists(atPath: k.path) else { return nil }
        return "\(k.path) is not read unless given: --intrinsics-file \(k.path) holds the intrinsics fixed; "
            + "without it they come from EXIF or self-calibration"
    }

    /// The failure for a folder without photos, listing the extensions looked for.
    static func noPhotos(_ path: String) -> CommandFailure {
        let extensions = ImageFolder.imageExtensions.sorted().map { "." + $0 }.joined(separator: ", ")
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let unreadable = ImageFolder.namesNotInUTF8(in: folder) + ImageFolder.namesNotInUTF8(in: folder.appendingPathComponent("images"))
        let names = unreadable.isEmpty ? "" : "; \(unreadable.count) file(s) with an image's extension have names that are not valid UTF-8 "
            + "and cannot be read (rename them in UTF-8)"
        // Photos deeper under other names (DCIM/100APPLE): say which folder to give instead.
        let holding = subfoldersHoldingPhotos(folder)
        let deeper = holding.isEmpty ? "" : "; photos are in " + holding.prefix(3).map { "\(name(path, $0))/" }.joined(separator: ", ")
            + (holding.count > 3 ? ", …" : "")
            + (holding.count > 1 ? ": give one of them instead, or gather a capture split over several into one folder" : ": give that folder instead")
        // Hidden files (names starting with "."; macOS's ._ copies) are never photos: say so when that is all there is.
        let hidden = [folder, folder.appendingPathComponent("images")].flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
                $0.hasPrefix(".") && ImageFolder.imageExtensions.contains(($0 as NSString).pathExtension.lowercased())
            }
        }.sorted()
        let skipped = hidden.isEmpty ? "" : "; \(hidden.count) hidden file(s) with an image's extension (\(hidden.prefix(3).joined(separator: ", "))"
            + (hidden.count > 3 ? ", …" : "") + ") are skipped: names starting with \".\" are not read (macOS's ._ files are metadata, not photos)"
        return CommandFailure("no photos in \(path): looked for \(extensions) (any case) directly inside it and in its images/ subfolder, not deeper"
                              + deeper + names + skipped)
    }

    private static func name(_ path: String, _ child: String) -> String {
        path.hasSuffix("/") ? path + child : path + "/" + child
    }
}
