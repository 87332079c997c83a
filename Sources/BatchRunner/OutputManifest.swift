import Foundation
import ModelExport

/// `job-manifest.json`, the last file written into a job's output folder before it is committed:
/// which job and attempt wrote the folder and each file's size and CRC-32, so a reader (or the
/// runner after a crash) can tell a whole output folder from anything else.
public struct OutputManifest: Codable, Sendable, Equatable {
    public static let fileName = "job-manifest.json"

    /// One output file.
    public struct File: Codable, Sendable, Equatable {
        /// Relative to the output folder, `/`-separated.
        public var path: String
        public var bytes: Int
        /// IEEE CRC-32 of the contents.
        public var crc32: UInt32
    }

    public var jobID: String
    /// The attempt (1-based claim count) that wrote the folder.
    public var attempt: Int
    /// `JobSpec.digest` of the spec the outputs answer.
    public var specDigest: String
    /// Seconds since 1970 when the manifest was written.
    public var writtenAt: Double
    /// The ledger's `enqueuedAt` of the job that wrote the folder (nil in manifests written before
    /// it was kept): a job removed and added again under the same name has another.
    public var jobEnqueuedAt: Double?
    /// Every file in the folder but the manifest, sorted by path.
    public var files: [File]

    /// Lists and checksums every regular file under `directory` (the manifest excepted).
    public static func make(of directory: URL, jobID: String, attempt: Int, specDigest: String,
                            jobEnqueuedAt: Double? = nil) throws -> OutputManifest {
        let files = try regularFiles(under: directory).filter { $0 != fileName }.sorted().map { path in
            let url = directory.appendingPathComponent(path)
            let (bytes, crc) = try checksum(url)
            return File(path: path, bytes: bytes, crc32: crc)
        }
        return OutputManifest(jobID: jobID, attempt: attempt, specDigest: specDigest, writtenAt: Date().timeIntervalSince1970,
                              jobEnqueuedAt: jobEnqueuedAt, files: files)
    }

    /// The manifest in `directory`, or nil when there is none or it does not parse.
    public static func read(in directory: URL) -> OutputManifest? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(OutputManifest.self, from: data)
    }

    /// Writes the manifest into `directory` (atomically).
    public func write(in directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFileWriter.write(try encoder.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }

    /// The first file under `directory` that is missing or differs from the manifest, described;
    /// nil when every file is whole.
    public func mismatch(in directory: URL) -> String? {
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            guard let (bytes, crc) = try? Self.checksum(url) else { return "\(file.path) is missing" }
            if bytes != file.bytes { return "\(file.path) has \(bytes) bytes, the manifest says \(file.bytes)" }
            if crc != file.crc32 { return "\(file.path) does not match its checksum" }
        }
        return nil
    }

    /// Relative paths of the regular files under `directory`, recursively.
    static func regularFiles(under directory: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw BatchError.outputs("cannot list \(directory.path)")
        }
        let base = directory.standardizedFileURL.resolvingSymlinksInPath().path
        var paths: [String] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let full = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(base + "/") else { continue }
            paths.append(String(full.dropFirst(base.count + 1)))
        }
        return paths
    }

    /// Size and CRC-32 of a file, read in 4 MB pieces.
    static func checksum(_ url: URL) throws -> (Int, UInt32) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var crc: UInt32 = 0, bytes = 0
        while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
            crc = CRC32.checksum([UInt8](chunk), continuing: crc)
            bytes += chunk.count
        }
        return (bytes, crc)
    }
}
