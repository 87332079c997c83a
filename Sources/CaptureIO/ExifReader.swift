import Foundation

/// Reads camera metadata from the EXIF block of a JPEG file (APP1 segment "Exif\0\0" holding a
/// TIFF structure: IFD0, then the Exif sub-IFD it points to with tag 0x8769), of a HEIF file (its
/// `Exif` item), and of TIFF, PNG and WebP files (`ContainerExifLocator`).
///
/// Every read is bounds-checked; truncated or malformed data gives nil or fewer fields, never a trap.
public enum ExifReader {
    /// How much of a file `read(contentsOf:)` reads, in bytes. EXIF lives in the first APP segments.
    public static let headBytes = 256 * 1024

    /// The EXIF camera metadata of JPEG bytes, or nil if the data is not a JPEG, has no EXIF
    /// block before the image data, or none of the wanted tags is present.
    /// Only the first `headBytes` of `jpegData` are examined.
    public static func read(jpegData: Data) -> ExifCameraInfo? {
        let bytes = [UInt8](jpegData.prefix(headBytes))
        guard let tiff = exifTIFFRange(in: bytes) else { return nil }
        return parse(bytes, tiff)
    }

    /// The EXIF camera metadata of a HEIF/HEIC file's bytes (its `Exif` item), or nil.
    public static func read(heifData: Data) -> ExifCameraInfo? {
        let bytes = [UInt8](heifData)
        guard let tiff = HEIFExifLocator.exifTIFFRange(in: bytes) else { return nil }
        return parse(bytes, tiff)
    }

    private static func parse(_ bytes: [UInt8], _ tiff: Range<Int>) -> ExifCameraInfo? {
        guard let info = parseTIFF(ByteReader(bytes: bytes, base: tiff.lowerBound, end: tiff.upperBound)),
              !info.isEmpty
        else { return nil }
        return info
    }

    /// The EXIF camera metadata of a TIFF file's bytes, or of a PNG's (`eXIf` chunk) or a WebP's
    /// (`EXIF` chunk); nil for other data or without usable EXIF.
    public static func read(containerData: Data) -> ExifCameraInfo? {
        let bytes = [UInt8](containerData)
        guard let tiff = ContainerExifLocator.exifTIFFRange(in: bytes) else { return nil }
        return parse(bytes, tiff)
    }

    /// Largest HEIF, TIFF, PNG or WebP file read whole for its EXIF (which may sit after the image data).
    public static let heifMaximumBytes = 256 * 1024 * 1024

    /// The EXIF camera metadata of the JPEG, HEIF/HEIC, TIFF, PNG or WebP file at `url` (JPEG: at
    /// most `headBytes` read); nil when the file cannot be read or has no usable EXIF.
    public static func read(contentsOf url: URL) -> ExifCameraInfo? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headBytes) else { return nil }
        let start = [UInt8](head.prefix(12))
        if HEIFExifLocator.isHEIF(start) {
            guard let rest = try? handle.read(upToCount: heifMaximumBytes) else { return read(heifData: head) }
            return read(heifData: head + rest)
        }
        if let container = ContainerExifLocator.container(start) {
            // A PNG's or WebP's chunk is often in the first bytes; a TIFF's directories may point anywhere.
            if container != .tiff, let info = read(containerData: head) { return info }
            guard let rest = try? handle.read(upToCount: heifMaximumBytes), !rest.isEmpty else { return read(containerData: head) }
            return read(containerData: head + rest)
        }
        return read(jpegData: head)
    }

    // MARK: - JPEG segments

    /// The byte range of the TIFF structure inside the first APP1 "Exif\0\0" segment.
    static func exifTIFFRange(in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            var markerPosition = position + 1
            while markerPosition < bytes.count && bytes[markerPosition] == 0xFF { markerPosition += 1 }  // fill bytes
            guard markerPosition < bytes.count else { return nil }
            let marker = bytes[markerPosition]
            position = markerPosition + 1
            // Markers without a length field.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            // End of image or start of scan: no metadata follows.
            if marker == 0xD9 || marker == 0xDA { return nil }
            guard position + 2 <= bytes.count else { return nil }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2 else { return nil }
            let payloadStart = position + 2
            let segmentEnd = position + length
            if marker == 0xE1 {
                let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
                let signatureEnd = payloadStart + signature.count
                if signatureEnd <= min(segmentEnd, bytes.count),
                   Array(bytes[payloadStart..<signatureEnd]) == signature {
                    return signatureEnd..<min(segmentEnd, bytes.count)
                }
            }
            position = segmentEnd
        }
        return nil
    }

    // MARK: - TIFF structure

    private enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let exifIFDPointer: UInt16 = 0x8769
        static let focalLength: UInt16 = 0x920A
        static let pixelXDimension: UInt16 = 0xA002
        static let pixelYDimension: UInt16 = 0xA003
        static let focalPlaneXResolution: UInt16 = 0xA20E
        static let focalPlaneResolutionUnit: UInt16 = 0xA210
        static let focalLengthIn35mmFilm: UInt16 = 0xA405
    }

    /// Bytes in one value of each TIFF field type (1 BYTE … 12 DOUBLE); 0 for unknown types.
    private static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// One IFD entry: its type, value count and where its value bytes are (offset from the TIFF start).
    private struct Entry {
        var type: UInt16
        var count: Int
        var valueOffset: Int
    }

    /// The most entries an IFD may claim before it is treated as garbage.
    private static let maximumEntryCount = 1024

    private static func parseTIFF(_ reader: ByteReader) -> ExifCameraInfo? {
        var reader = reader
        guard let b0 = reader.byte(at: 0), let b1 = reader.byte(at: 1) else { return nil }
        switch (b0, b1) {
        case (0x49, 0x49): reader.littleEndian = true
        case (0x4D, 0x4D): reader.littleEndian = false
        default: return nil
        }
        guard reader.uint16(at: 2) == 42, let ifd0Offset = reader.uint32(at: 4) else { return nil }

        var visited = Set<Int>()
        guard let ifd0 = entries(ofIFDAt: Int(ifd0Offset), reader, visited: &visited) else { return nil }
        var exif: [UInt16: Entry] = [:]
        if let pointer = ifd0[Tag.exifIFDPointer], let offset = unsignedInteger(pointer, reader),
           let sub = entries(ofIFDAt: offset, reader, visited: &visited) {
            exif = sub
        }
        // Tags normally in the Exif IFD are also accepted from IFD0 (TIFF/EP writers put them there).
        func entry(_ tag: UInt16) -> Entry? { exif[tag] ?? ifd0[tag] }

        var info = ExifCameraInfo()
        info.make = ifd0[Tag.make].flatMap { ascii($0, reader) }
        info.model = ifd0[Tag.model].flatMap { ascii($0, reader) }
        info.orientation = ifd0[Tag.orientation].flatMap { unsignedInteger($0, reader) }.flatMap { (1...8).contains($0) ? $0 : nil }
        info.focalLengthMillimetres = entry(Tag.focalLength).flatMap { number($0, reader) }.flatMap(positive)
        info.focalLengthIn35mmFilm = entry(Tag.focalLengthIn35mmFilm).flatMap { number($0, reader) }.flatMap(positive)
        info.focalPlaneXResolution = entry(Tag.focalPlaneXResolution).flatMap { number($0, reader) }.flatMap(positive)
        info.focalPlaneResolutionUnit = entry(Tag.focalPlaneResolutionUnit).flatMap { unsignedInteger($0, reader) }
        info.pixelXDimension = entry(Tag.pixelXDimension).flatMap { unsignedInteger($0, reader) }.flatMap { $0 > 0 ? $0 : nil }
        info.pixelYDimension = entry(Tag.pixelYDimension).flatMap { unsignedInteger($0, reader) }.flatMap { $0 > 0 ? $0 : nil }
        return info
    }

    private static func positive(_ value: Double) -> Double? { value.isFinite && value > 0 ? value : nil }

    /// The entries of the IFD at `offset`, keyed by tag (first occurrence wins); nil if the IFD is
    /// out of bounds or already visited (a loop).
    private static func entries(ofIFDAt offset: Int, _ reader: ByteReader, visited: inout Set<Int>) -> [UInt16: Entry]? {
        guard offset >= 8, !visited.contains(offset), let claimed = reader.uint16(at: offset) else { return nil }
        visited.insert(offset)
        // Read only the entries that fit in the data (a truncated IFD still yields its first entries).
        let fitting = max(0, (reader.count - offset - 2) / 12)
        let count = min(Int(claimed), fitting, maximumEntryCount)
        var result: [UInt16: Entry] = [:]
        for index in 0..<count {
            let position = offset + 2 + 12 * index
            guard let tag = reader.uint16(at: position), let type = reader.uint16(at: position + 2),
                  let valueCount = reader.uint32(at: position + 4)
            else { break }
            let size = typeSize(type)
            guard size > 0, valueCount > 0 else { continue }
            let byteCount = size * Int(valueCount)  // ≤ 8 · (2³² − 1): no overflow on 64-bit Int
            let valueOffset: Int
            if byteCount <= 4 {
                valueOffset = position + 8
            } else {
                guard let pointer = reader.uint32(at: position + 8) else { continue }
                valueOffset = Int(pointer)
            }
            guard valueOffset >= 0, valueOffset <= reader.count, byteCount <= reader.count - valueOffset else { continue }
            if result[tag] == nil {
                result[tag] = Entry(type: type, count: Int(valueCount), valueOffset: valueOffset)
            }
        }
        return result
    }

    /// The first value of a numeric entry as a Double (rationals divided out; nil for a zero denominator).
    private static func number(_ entry: Entry, _ reader: ByteReader) -> Double? {
        let at = entry.valueOffset
        switch entry.type {
        case 1, 7: return reader.byte(at: at).map(Double.init)
        case 6: return reader.byte(at: at).map { Double(Int8(bitPattern: $0)) }
        case 3: return reader.uint16(at: at).map(Double.init)
        case 8: return reader.uint16(at: at).map { Double(Int16(bitPattern: $0)) }
        case 4: return reader.uint32(at: at).map(Double.init)
        case 9: return reader.uint32(at: at).map { Double(Int32(bitPattern: $0)) }
        case 5:
            guard let n = reader.uint32(at: at), let d = reader.uint32(at: at + 4), d != 0 else { return nil }
            return Double(n) / Double(d)
        case 10:
            guard let n = reader.uint32(at: at), let d = reader.uint32(at: at + 4), d != 0 else { return nil }
            return Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
        case 11: return reader.uint32(at: at).map { Double(Float(bitPattern: $0)) }
        case 12: return reader.uint64(at: at).map { Double(bitPattern: $0) }
        default: return nil
        }
    }

    /// The first value of a BYTE, SHORT or LONG entry.
    private static func unsignedInteger(_ entry: Entry, _ reader: ByteReader) -> Int? {
        switch entry.type {
        case 1: return reader.byte(at: entry.valueOffset).map(Int.init)
        case 3: return reader.uint16(at: entry.valueOffset).map(Int.init)
        case 4: return reader.uint32(at: entry.valueOffset).map(Int.init)
        default: return nil
        }
    }

    /// An ASCII entry up to its first NUL, trimmed; nil when empty.
    private static func ascii(_ entry: Entry, _ reader: ByteReader) -> String? {
        guard entry.type == 2 || entry.type == 7 || entry.type == 1,
              let raw = reader.bytes(at: entry.valueOffset, count: min(entry.count, 1024))
        else { return nil }
        let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
