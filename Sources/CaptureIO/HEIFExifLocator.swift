import Foundation

/// Finds the EXIF block of a HEIF/HEIC file (ISO base media file format): the item of type
/// `Exif` listed in the `meta` box's `iinf`, located by `iloc`. The item's payload starts with a
/// 4-byte big-endian offset to the TIFF header. Every read is bounds-checked; a malformed or
/// truncated file gives nil, never a trap.
public enum HEIFExifLocator {
    /// Whether the file at `url` starts as a HEIF file does (its name aside: a JPEG called
    /// `.heic` is a JPEG); false when it cannot be read.
    public static func isHEIF(contentsOf url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12) else { return false }
        return isHEIF([UInt8](head))
    }

    /// Whether `bytes` start with a HEIF `ftyp` box whose major brand is one of HEIF's image or
    /// sequence brands (heic, heix, heim, heis, hevc, hevx, mif1, msf1).
    static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12, bytes[4...7].elementsEqual("ftyp".utf8) else { return false }
        let brand = String(decoding: bytes[8...11], as: UTF8.self)
        return ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand)
    }

    /// The byte range of the TIFF structure of the first `Exif` item, or nil.
    static func exifTIFFRange(in bytes: [UInt8]) -> Range<Int>? {
        guard isHEIF(bytes), let meta = box("meta", in: bytes, 0..<bytes.count) else { return nil }
        let children = (meta.lowerBound + 4)..<meta.upperBound  // FullBox: version and flags
        guard let iinf = box("iinf", in: bytes, children), let iloc = box("iloc", in: bytes, children),
              let item = exifItemID(bytes, iinf), let extent = location(of: item, bytes, iloc),
              extent.count >= 4 else { return nil }
        let offset = read(bytes, extent.lowerBound, 4)
        guard let offset, extent.lowerBound + 4 + offset < extent.upperBound else { return nil }
        var start = extent.lowerBound + 4 + offset
        // Some writers keep JPEG's "Exif\0\0" signature in front of the TIFF header.
        if start + 6 <= extent.upperBound, bytes[start..<(start + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) { start += 6 }
        return start..<extent.upperBound
    }

    /// Big-endian unsigned integer of `size` bytes (0…8) at `at`, nil past the end.
    static func read(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int? {
        guard size >= 0, at >= 0, at + size <= bytes.count else { return nil }
        var value = 0
        for k in 0..<size { value = value << 8 | Int(bytes[at + k]) }
        return value
    }

    /// The payload range of the first box of `type` directly inside `range`.
    static func box(_ type: String, in bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            guard var size = read(bytes, at, 4) else { return nil }
            var header = 8
            if size == 1 { guard let large = read(bytes, at + 8, 8) else { return nil }; size = large; header = 16 }
            if size == 0 { size = range.upperBound - at }
            guard size >= header, at + size <= range.upperBound else { return nil }
            if bytes[(at + 4)..<(at + 8)].elementsEqual(type.utf8) { return (at + header)..<(at + size) }
            at += size
        }
        return nil
    }

    /// The item ID of the first `infe` entry of type `Exif` in an `iinf` payload.
    static func exifItemID(_ bytes: [UInt8], _ iinf: Range<Int>) -> Int? {
        guard iinf.count >= 4 else { return nil }
        let version = Int(bytes[iinf.lowerBound])
        let countSize = version == 0 ? 2 : 4
        var entries = (iinf.lowerBound + 4 + countSize)..<iinf.upperBound
        while let infe = box("infe", in: bytes, entries) {
            let v = Int(bytes[infe.lowerBound])
            if v >= 2 {
                let idSize = v == 2 ? 2 : 4
                let typeAt = infe.lowerBound + 4 + idSize + 2
                if typeAt + 4 <= infe.upperBound, bytes[typeAt..<(typeAt + 4)].elementsEqual("Exif".utf8) {
                    return read(bytes, infe.lowerBound + 4, idSize)
                }
            }
            entries = infe.upperBound..<entries.upperBound
        }
        return nil
    }

    /// The file range of item `id`'s data: its single extent in the file (construction method 0).
    static func location(of id: Int, _ bytes: [UInt8], _ iloc: Range<Int>) -> Range<Int>? {
        var at = iloc.lowerBound
        guard let version = read(bytes, at, 1), let sizes = read(bytes, at + 4, 2) else { return nil }
        at += 6
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseSize = sizes >> 4 & 0xF
        let indexSize = version >= 1 ? sizes & 0xF : 0
        let idSize = version < 2 ? 2 : 4
        guard let count = read(bytes, at, idSize) else { return nil }
        at += idSize
        for _ in 0..<count {
            guard let itemID = read(bytes, at, idSize) else { return nil }
            at += idSize
            var method = 0
            if version >= 1 { guard let m = read(bytes, at, 2) else { return nil }; method = m & 0xF; at += 2 }
            at += 2  // data_reference_index
            guard let base = read(bytes, at, baseSize) else { return nil }
            at += baseSize
            guard let extents = read(bytes, at, 2) else { return nil }
            at += 2
            var first: Range<Int>?
            for e in 0..<extents {
                at += indexSize
                guard let offset = read(bytes, at, offsetSize), let length = read(bytes, at + offsetSize, lengthSize) else { return nil }
                at += offsetSize + lengthSize
                if e == 0 { first = (base + offset)..<(base + offset + length) }
            }
            if itemID == id {
                guard method == 0, extents == 1, let range = first, range.upperBound <= bytes.count else { return nil }
                return range
            }
        }
        return nil
    }
}
