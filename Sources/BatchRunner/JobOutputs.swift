import Foundation

/// A job attempt's output folder, staged and committed atomically.
///
/// An attempt writes into a staging folder beside the final one
/// (`.<name>.attempt-<n>.partial`), which is renamed over the final folder only once every file
/// and the manifest are written and flushed to disk. A reader of the final folder therefore sees
/// the previous outputs or the new ones, never a mix or half a file; a restarted attempt removes
/// what an interrupted one left and starts a new staging folder, so it overwrites nothing
/// half-written. The runner marks the job completed only after the commit.
public struct JobOutputs: Sendable {
    /// The output folder readers use.
    public let finalDirectory: URL
    /// The attempt (1-based) writing it.
    public let attempt: Int

    public init(finalDirectory: URL, attempt: Int) {
        self.finalDirectory = finalDirectory.standardizedFileURL
        self.attempt = attempt
    }

    private var parent: URL { finalDirectory.deletingLastPathComponent() }
    private var stagingPrefix: String { ".\(finalDirectory.lastPathComponent).attempt-" }

    /// Where this attempt writes.
    public var stagingDirectory: URL { parent.appendingPathComponent("\(stagingPrefix)\(attempt).partial", isDirectory: true) }
    private var replacedDirectory: URL { parent.appendingPathComponent("\(stagingPrefix)\(attempt).replaced", isDirectory: true) }

    /// Removes what earlier, interrupted attempts left beside the final folder and creates this
    /// attempt's empty staging folder.
    public func prepare() throws {
        let fileManager = FileManager.default
        if let file = Self.fileInTheWay(of: parent) {
            throw BatchError.outputs("cannot make the output folder \(finalDirectory.path): \(file.path) is a file, not a folder")
        }
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            for name in try fileManager.contentsOfDirectory(atPath: parent.path)
            where name.hasPrefix(stagingPrefix) && (name.hasSuffix(".partial") || name.hasSuffix(".replaced")) {
                try fileManager.removeItem(at: parent.appendingPathComponent(name))
            }
            try fileManager.createDirectory(at: stagingDirectory, withIntermediateDirectories: false)
        } catch {
            throw BatchError.outputs("cannot prepare the output folder \(stagingDirectory.path): \(error.localizedDescription)")
        }
    }

    /// The nearest of `folder` and its ancestors that exists, when it is not a folder (a file where
    /// a folder of the path must be); nil when that one is a folder.
    public static func fileInTheWay(of folder: URL) -> URL? {
        var url = folder.standardizedFileURL
        while true {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) { return isDirectory.boolValue ? nil : url }
            let up = url.deletingLastPathComponent()
            if up.path == url.path { return nil }
            url = up
        }
    }

    /// Writes the manifest, flushes every staged file to disk and renames the staging folder over
    /// the final one.
    /// - Returns: the manifest of the committed folder.
    @discardableResult
    public func commit(jobID: String, specDigest: String, enqueuedAt: Double? = nil) throws -> OutputManifest {
        let manifest = try OutputManifest.make(of: stagingDirectory, jobID: jobID, attempt: attempt, specDigest: specDigest,
                                               jobEnqueuedAt: enqueuedAt)
        try manifest.write(in: stagingDirectory)
        for path in manifest.files.map(\.path) + [OutputManifest.fileName] {
            Self.flush(stagingDirectory.appendingPathComponent(path))
        }
        Self.flushDirectories(under: stagingDirectory)
        if FileManager.default.fileExists(atPath: finalDirectory.path) {
            if let problem = Self.problemReplacing(finalDirectory, jobID: jobID) { throw BatchError.outputs(problem) }
            try move(finalDirectory, to: replacedDirectory)
            try move(stagingDirectory, to: finalDirectory)
            try? FileManager.default.removeItem(at: replacedDirectory)
        } else {
            try move(stagingDirectory, to: finalDirectory)
        }
        Self.flush(parent)
        return manifest
    }

    /// The manifest of a whole output folder this job (with this spec, enqueued at `enqueuedAt`)
    /// already committed, or nil. A runner killed between the commit and the ledger's update finds
    /// it on the next attempt. Outputs of a removed job of the same name (another enqueue time;
    /// in older manifests, written before this job was enqueued), whose photos may have changed
    /// since, are computed again.
    public static func committed(at directory: URL, jobID: String, specDigest: String, enqueuedAt: Double) -> OutputManifest? {
        guard let manifest = OutputManifest.read(in: directory), manifest.jobID == jobID, manifest.specDigest == specDigest,
              manifest.jobEnqueuedAt.map({ $0 == enqueuedAt }) ?? (manifest.writtenAt >= enqueuedAt),
              manifest.mismatch(in: directory) == nil else { return nil }
        return manifest
    }

    /// Why `directory` must not be replaced by job `jobID`'s outputs (it is a file, a folder with
    /// files that no batch job wrote, or another job's outputs), or nil.
    public static func problemReplacing(_ directory: URL, jobID: String? = nil) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return "output \(directory.path) exists and is not a folder" }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if contents.isEmpty { return nil }
        if let manifest = OutputManifest.read(in: directory) {
            guard let jobID, manifest.jobID != jobID else { return nil }
            return "output folder \(directory.path) holds job '\(manifest.jobID)'s outputs; give job '\(jobID)' its own output"
        }
        return "output folder \(directory.path) already holds files that no batch job wrote (no \(OutputManifest.fileName)); "
            + "remove it or choose another output"
    }

    private func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw BatchError.outputs("cannot rename \(source.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }

    /// fsync on a file or folder; failures are ignored (the rename order still protects readers
    /// against a killed process; flushing adds protection against power loss).
    static func flush(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func flushDirectories(under directory: URL) {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { flush(url) }
        }
        flush(directory)
    }
}
