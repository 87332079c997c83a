/// Builds zip archives the way USDZ requires (the OpenUSD "usdz" specification): every entry
/// stored without compression or encryption, each entry's data starting at a multiple of 64 bytes
/// from the start of the archive, CRC-32 and sizes in the local headers (no data descriptors),
/// entries in the given order (a USDZ's root layer first) and no directory entries.
///
/// The alignment is made by padding each local header's extra field with a record of id 0x1986
/// (the id OpenUSD's own writer uses). Every entry gets the fixed DOS time 2024-01-01 00:00, so
/// equal input gives byte-identical archives. No ZIP64: at most 65,535 entries and 4 GiB.
public enum StoredZipWriter {
    /// One file of the archive.
    public struct Entry: Sendable, Equatable {
        /// Path inside the archive, `/`-separated, relative (`textures/baseColor.png`).
        public var name: String
        public var data: [UInt8]

        public init(name: String, data: [UInt8]) {
            self.name = name
            self.data = data
        }
    }

    /// Data offsets are multiples of this many bytes.
    public static let alignment = 64
    /// The extra-field record id used for padding.
    public static let paddingRecordID: UInt16 = 0x1986
    /// 2024-01-01 in MS-DOS date format.
    static let dosDate: UInt16 = (2024 - 1980) << 9 | 1 << 5 | 1
    static let dosTime: UInt16 = 0

    /// The archive of `entries`, in order.
    /// - Throws: `StoredZipWriterError` for an unusable name, a repeated name, or an archive
    ///   beyond the classic zip limits.
    public static func archive(_ entries: [Entry]) throws -> [UInt8] {
        try checkNames(entries.map(\.name))
        let total = entries.reduce(0) { $0 + 30 + 46 + 2 * ($1.name.utf8.count + alignment + 3) + $1.data.count } + 22
        guard total <= Int(UInt32.max) else { throw StoredZipWriterError.tooLarge(bytes: total) }

        var out: [UInt8] = []
        out.reserveCapacity(total)
        var directory: [UInt8] = []
        for entry in entries {
            let record = Record(name: Array(entry.name.utf8), offset: out.count, crc: CRC32.checksum(entry.data), size: UInt32(entry.data.count))
            out += record.localHeader
            assert(out.count % alignment == 0)
            out += entry.data
            directory += record.centralEntry
        }
        out += directory + endRecord(entries: entries.count, directoryOffset: out.count, directorySize: directory.count)
        return out
    }

    /// Checks entry names: relative, `/`-separated, no empty, `.` or `..` parts, unique.
    static func checkNames(_ names: [String]) throws {
        guard names.count <= 0xFFFF else { throw StoredZipWriterError.tooManyEntries(names.count) }
        var seen = Set<String>()
        for name in names {
            guard !name.isEmpty, !name.hasPrefix("/"), !name.hasSuffix("/"),
                  !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
                  name.utf8.count <= 0xFFFF
            else { throw StoredZipWriterError.badName(name) }
            guard seen.insert(name).inserted else { throw StoredZipWriterError.duplicateName(name) }
        }
    }

    /// One entry's headers: the local header (padded so the data that follows it is aligned) and
    /// its central-directory record.
    struct Record {
        var name: [UInt8]
        /// Where the local header starts in the archive.
        var offset: Int
        var crc: UInt32
        var size: UInt32

        var extra: [UInt8] { padding(dataOffsetWithoutExtra: offset + 30 + name.count) }

        var localHeader: [UInt8] {
            let extra = extra
            var out: [UInt8] = []
            out.le32(0x0403_4B50)
            out.le16(20)  // version needed: 2.0
            out.le16(0)  // flags: no encryption, no data descriptor
            out.le16(0)  // method: stored
            out.le16(dosTime)
            out.le16(dosDate)
            out.le32(crc)
            out.le32(size)  // compressed size
            out.le32(size)  // uncompressed size
            out.le16(UInt16(name.count))
            out.le16(UInt16(extra.count))
            return out + name + extra
        }

        /// Bytes from the local header's start to its CRC field.
        static let crcFieldOffset = 14

        var centralEntry: [UInt8] {
            let extra = extra
            var directory: [UInt8] = []
            directory.le32(0x0201_4B50)
            directory.le16(20)  // version made by: 2.0, MS-DOS attributes
            directory.le16(20)
            directory.le16(0)
            directory.le16(0)
            directory.le16(dosTime)
            directory.le16(dosDate)
            directory.le32(crc)
            directory.le32(size)
            directory.le32(size)
            directory.le16(UInt16(name.count))
            directory.le16(UInt16(extra.count))
            directory.le16(0)  // comment length
            directory.le16(0)  // disk number
            directory.le16(0)  // internal attributes
            directory.le32(0)  // external attributes
            directory.le32(UInt32(offset))
            return directory + name + extra
        }
    }

    static func endRecord(entries: Int, directoryOffset: Int, directorySize: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.le32(0x0605_4B50)
        out.le16(0)  // this disk
        out.le16(0)  // disk with the directory
        out.le16(UInt16(entries))
        out.le16(UInt16(entries))
        out.le32(UInt32(directorySize))
        out.le32(UInt32(directoryOffset))
        out.le16(0)  // comment length
        return out
    }

    /// The extra field that moves data which would start at `offset` to the next multiple of 64.
    /// A record needs 4 header bytes, so a gap of 1–3 bytes grows by 64.
    static func padding(dataOffsetWithoutExtra offset: Int) -> [UInt8] {
        var gap = (alignment - offset % alignment) % alignment
        if gap == 0 { return [] }
        if gap < 4 { gap += alignment }
        var record: [UInt8] = []
        record.le16(paddingRecordID)
        record.le16(UInt16(gap - 4))
        record += [UInt8](repeating: 0, count: gap - 4)
        return record
    }
}
