import BatchRunner
import Foundation
import ModelExport

extension TaskStore {
    /// The file to send for `GET /task/<uuid>/download/<asset>`: `all.zip` (every output, made on
    /// the first request and kept until a restart) or one top-level output file by name.
    /// - Throws: `NodeODMError` when the task is not completed or the asset is not one of its outputs.
    public func asset(_ uuid: String, named asset: String) async throws -> URL {
        let record = try committedRecord(uuid)
        let current = try job(of: record)
        guard let current, current.state == .completed else {
            let state = current?.state.rawValue ?? "queued"
            throw NodeODMError.refused("task \(uuid) is \(state): its assets are ready when it completes")
        }
        let output = outputDirectory(uuid)
        if asset == "all.zip" {
            let archive = archiveURL(uuid)
            if FileManager.default.fileExists(atPath: archive.path) { return archive }
            // Written off the store, so other requests are answered meanwhile (about 6 s per GB).
            let writing = archiving[uuid] ?? Task.detached { try Self.writeArchive(of: output, to: archive, isCancelled: { Task.isCancelled }) }
            archiving[uuid] = writing
            try await writing.value
            if archiving[uuid] == writing { archiving[uuid] = nil }
            return archive
        }
        // The job's manifest (sizes and checksums of every output) is an asset too, where it exists.
        let manifest = output.appendingPathComponent(OutputManifest.fileName)
        let hasManifest = !current.outputFiles.contains(OutputManifest.fileName) && FileManager.default.fileExists(atPath: manifest.path)
        let assets = current.outputFiles + (hasManifest ? [OutputManifest.fileName] : [])
        guard !asset.contains("/"), !asset.contains(".."), assets.contains(asset) else {
            throw NodeODMError.notFound("task \(uuid) has no asset '\(asset.prefix(64))': ask for all.zip or one of \(assets.filter { !$0.contains("/") }.joined(separator: ", "))")
        }
        return output.appendingPathComponent(asset)
    }

    /// Zips `folder`'s files (relative paths, sorted) into `archive` through a temporary file and
    /// a rename, so a download never sees half an archive.
    /// A restarted or removed task's archive in the making is stopped (`stopArchiving`): it would
    /// hold the previous outputs.
    static func writeArchive(of folder: URL, to archive: URL, isCancelled: () -> Bool = { false }) throws {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        var files: [(name: String, source: URL)] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(base + "/") else { continue }
            files.append((String(path.dropFirst(base.count + 1)), url))
        }
        files.sort { $0.name < $1.name }
        let temporary = archive.deletingLastPathComponent().appendingPathComponent(".\(archive.lastPathComponent).\(UUID().uuidString).partial")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try StoredZipFileWriter.write(files, to: temporary)
        if isCancelled() { throw CancellationError() }
        _ = try? FileManager.default.removeItem(at: archive)
        try FileManager.default.moveItem(at: temporary, to: archive)
    }

    /// Stops the task's `all.zip` in the making, if any (its outputs are about to change or go).
    func stopArchiving(_ uuid: String) {
        archiving[uuid]?.cancel()
        archiving[uuid] = nil
    }
}
