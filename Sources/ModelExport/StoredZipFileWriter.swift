import Foundation

/// Writes a stored (uncompressed) zip archive of files on disk to a file, streaming each file in
/// 4 MB pieces: the same layout as `StoredZipWriter` (aligned data, no data descriptors), for
/// archives too large to build in memory (a task's assets). The CRC-32 is computed while the
/// data is copied and written into the local header afterwards.
public enum StoredZipFileWriter {
    /// Writes `files` (archive name, file on disk), in order, to `destination`.
    /// - Throws: `StoredZipWriterError` for unusable names or an archive beyond 4 GiB; file errors.
    public static func write(_ files: [(name: String, source: URL)], to destination: URL) throws {
        try StoredZipWriter.checkNames(files.map(\.name))
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let out = try FileHandle(forWritingTo: destination)
        defer { try? out.close() }
        var offset = 0
        var directory: [UInt8] = []
        for file in files {
            let size = try (FileManager.default.attributesOfItem(atPath: file.source.path)[.size] as? NSNumber)?.intValue ?? 0
            guard offset + size + 128 + file.name.utf8.count <= Int(UInt32.max) else {
                throw StoredZipWriterError.tooLarge(bytes: offset + size)
            }
            var record = StoredZipWriter.Record(name: Array(file.name.utf8), offset: offset, crc: 0, size: UInt32(size))
            let header = record.localHeader
            try out.write(contentsOf: header)
            let input = try FileHandle(forReadingFrom: file.source)
            defer { try? input.close() }
            var copied = 0
            while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty {
                record.crc = CRC32.checksum([UInt8](chunk), continuing: record.crc)
                try out.write(contentsOf: chunk)
                copied += chunk.count
            }
            guard copied == size else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file.source.path])
            }
            try out.seek(toOffset: UInt64(offset + StoredZipWriter.Record.crcFieldOffset))
            var crc: [UInt8] = []
            crc.le32(record.crc)
            try out.write(contentsOf: crc)
            offset += header.count + size
            try out.seek(toOffset: UInt64(offset))
            directory += record.centralEntry
        }
        try out.write(contentsOf: directory + StoredZipWriter.endRecord(entries: files.count, directoryOffset: offset, directorySize: directory.count))
        try out.synchronize()
    }
}
