import Foundation

/// Stage outputs saved in a checkpoint directory, each keyed by the fingerprint of everything it
/// depends on. Files are written atomically (a temporary file renamed into place), so a run that
/// is cancelled or killed leaves either the previous checkpoint or the new one, never half of one.
/// A file whose fingerprint does not match, whose payload does not match its checksum (bytes
/// changed on disk: a corrupted mapping checkpoint loaded silently and wrote impossible keypoints),
/// or that does not read back, is ignored and later overwritten.
///
/// File layout: 8-byte magic `PGCKPT02`, the 32-digit fingerprint, the seconds the result took
/// to compute (Float64), the payload length (Int64), the payload's own 32-digit `Fingerprint` and
/// the payload, little-endian.
public final class StageCheckpointStore: Sendable {
    public let directory: URL
    private static let magic = Array("PGCKPT02".utf8)

    /// Opens (creating if needed) a checkpoint directory.
    public init(directory: URL) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PhotogrammetrySession.Error.checkpointUnusable(directory, "cannot create the checkpoint directory: \(error.localizedDescription)")
        }
    }

    /// The file of `entry`, a relative path such as `matching.ckpt` or `features/<fingerprint>.ckpt`.
    public func url(of entry: String) -> URL { directory.appendingPathComponent(entry, isDirectory: false) }

    /// What a checkpoint entry held when a stage looked for its saved result.
    enum Lookup<T> {
        /// The saved value and the seconds it took to compute.
        case found(T, computeSeconds: Double)
        /// No file.
        case absent
        /// A sound file saved for other inputs or options (another fingerprint).
        case otherInputs
        /// A checkpoint file of another format version (written by another release).
        case otherVersion
        /// A file that is not a checkpoint, is cut short, or whose payload fails its checksum.
        case damaged

        /// Why a file that was there is not used, worded for a note ("damaged"); nil when found or absent.
        var setAsideReason: String? {
            switch self {
            case .found, .absent: nil
            case .otherInputs: "saved for other photos or options"
            case .otherVersion: "saved by another version of photogrammetry"
            case .damaged: "damaged"
            }
        }
    }

    /// A saved value, if its file exists, carries `fingerprint` and decodes; with the seconds it took to compute.
    func load<T: CheckpointCodable>(_ type: T.Type, entry: String, fingerprint: Fingerprint) -> (value: T, computeSeconds: Double)? {
        if case .found(let value, let seconds) = lookup(type, entry: entry, fingerprint: fingerprint) { return (value, seconds) }
        return nil
    }

    /// The saved value of `entry` under `fingerprint`, or why there is none.
    func lookup<T: CheckpointCodable>(_: T.Type, entry: String, fingerprint: Fingerprint) -> Lookup<T> {
        guard let data = try? Data(contentsOf: url(of: entry)) else { return .absent }
        var reader = CheckpointReader(data)
        do {
            var magic: [UInt8] = []
            for _ in Self.magic { magic.append(try reader.read(UInt8.self)) }
            guard magic == Self.magic else { return magic.starts(with: Self.magic.dropLast(2)) ? .otherVersion : .damaged }
            guard try reader.readString() == fingerprint.description else { return .otherInputs }
            let seconds = try reader.readDouble()
            let length = try reader.readCount()
            let checksum = try reader.readString()
            guard length >= 0, length <= data.count, Self.checksum(data.suffix(length)) == checksum else { return .damaged }
            let value = try T(from: &reader)
            guard reader.isAtEnd else { return .damaged }
            return .found(value, computeSeconds: seconds)
        } catch {
            return .damaged
        }
    }

    /// Saves `value` atomically under `entry`.
    func save<T: CheckpointCodable>(_ value: T, entry: String, fingerprint: Fingerprint, computeSeconds: Double) throws {
        var payload = CheckpointWriter()
        value.encode(to: &payload)
        var writer = CheckpointWriter()
        for byte in Self.magic { writer.write(byte) }
        writer.write(fingerprint.description)
        writer.write(computeSeconds)
        writer.write(payload.data.count)
        writer.write(Self.checksum(payload.data))
        var data = writer.data
        data.append(payload.data)
        try write(data, to: url(of: entry))
    }

    private static func checksum(_ payload: Data) -> String {
        var digest = Fingerprint()
        payload.withUnsafeBytes { digest.combine(bytes: $0) }
        return digest.description
    }

    /// Removes the files in `folder` (relative) whose names are not in `keeping`; returns how many there were.
    @discardableResult
    func prune(folder: String, keeping names: Set<String>) -> Int {
        let url = directory.appendingPathComponent(folder, isDirectory: true)
        guard let contents = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return 0 }
        let stale = contents.filter { !names.contains($0) && !$0.hasPrefix(".") }
        for name in stale { try? FileManager.default.removeItem(at: url.appendingPathComponent(name)) }
        return stale.count
    }

    private func write(_ data: Data, to url: URL) throws {
        // The checkpoint folder was removed while the session ran (say its task was deleted):
        // nothing is written back into a folder that is meant to be gone.
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw PhotogrammetrySession.Error.checkpointUnusable(url, "cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw PhotogrammetrySession.Error.checkpointUnusable(url, "cannot move the temporary file into place: \(reason)")
        }
    }
}
