/// Finds the EXIF TIFF structure in the other photo containers that carry one: a TIFF file is
/// that structure itself; PNG keeps it in an `eXIf` chunk; WebP in its RIFF `EXIF` chunk
/// (sometimes behind JPEG's "Exif\0\0" signature). Every read is bounds-checked.
enum ContainerExifLocator {
    enum Container { case tiff, png, webp }

    /// The container `head` (a file's first bytes, at least 12) starts, if it is one of these.
    static func container(_ head: [UInt8]) -> Container? {
        guard head.count >= 12 else { return nil }
        if head[0..<4] == [0x49, 0x49, 0x2A, 0x00] || head[0..<4] == [0x4D, 0x4D, 0x00, 0x2A] { return .tiff }
        if head[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head[0..<4] == Array("RIFF".utf8)[...], head[8..<12] == Array("WEBP".utf8)[...] { return .webp }
        return nil
    }

    /// The byte range of the TIFF structure holding the EXIF tags in `bytes` (a whole file).
    static func exifTIFFRange(in bytes: [UInt8]) -> Range<Int>? {
        switch container(bytes) {
        case .tiff: return 0..<bytes.count
        case .png: return pngChunk(in: bytes)
        case .webp: return webpChunk(in: bytes)
        case nil: return nil
        }
    }

    /// PNG chunks: length (4 bytes, big-endian), type, data, CRC.
    private static func pngChunk(in bytes: [UInt8]) -> Range<Int>? {
        var position = 8
        while position + 8 <= bytes.count {
            let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = Array(bytes[position + 4..<position + 8])
            let start = position + 8
            guard length >= 0, length <= bytes.count - start else { return nil }
            if type == Array("eXIf".utf8) { return withoutSignature(bytes, start..<start + length) }
            if type == Array("IEND".utf8) { return nil }
            position = start + length + 4
        }
        return nil
    }

    /// RIFF chunks after "RIFF" size "WEBP": fourcc, size (4 bytes, little-endian), data padded to even.
    private static func webpChunk(in bytes: [UInt8]) -> Range<Int>? {
        var position = 12
        while position + 8 <= bytes.count {
            let size = bytes[position + 4..<position + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let start = position + 8
            guard size >= 0, size <= bytes.count - start else { return nil }
            if Array(bytes[position..<position + 4]) == Array("EXIF".utf8) { return withoutSignature(bytes, start..<start + size) }
            position = start + size + (size & 1)
        }
        return nil
    }

    /// `range` past JPEG's "Exif\0\0" signature when it starts with one (some writers keep it).
    private static func withoutSignature(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int> {
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        guard range.count >= signature.count, Array(bytes[range.lowerBound..<range.lowerBound + signature.count]) == signature else { return range }
        return range.lowerBound + signature.count..<range.upperBound
    }
}
