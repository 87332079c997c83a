import Foundation

/// Writes whole files atomically: the bytes go to a temporary file in the destination's
/// directory, which is then renamed over the destination, so readers never see a partial file.
public enum AtomicFileWriter {
    /// Creates `url`'s parent directories if needed and atomically replaces `url` with `data`.
    /// - Throws: `ModelExportError` naming the file.
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ModelExportError(file: directory, "cannot create the output directory: \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ModelExportError(file: url,
                                   "cannot write (temporary file \(temporary.lastPathComponent)): \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ModelExportError(file: url, "cannot move the temporary file into place: \(reason)")
        }
    }

    /// Writes `text` as UTF-8, atomically.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}
