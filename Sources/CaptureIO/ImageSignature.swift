import Foundation

/// Whether a file starts as one of the image formats the decoders read (JPEG, PNG, TIFF, WebP,
/// BMP, HEIF), from its first bytes: an empty file or a text file named `.jpg` does not. A file
/// that does may still fail to decode (a truncated JPEG).
public enum ImageSignature {
    /// The signature check on the first bytes of the file at `url`; false when it cannot be read.
    public static func isImage(contentsOf url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 16) else { return false }
        return isImage(header: [UInt8](data))
    }

    /// The signature check on a file's first bytes (at least 12 of them for WebP and HEIF).
    public static func isImage(header b: [UInt8]) -> Bool {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<offset + prefix.count]) == prefix
        }
        return starts([0xFF, 0xD8, 0xFF])                                   // JPEG
            || starts([0x89, 0x50, 0x4E, 0x47])                             // PNG
            || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) // TIFF
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) // BigTIFF
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
            || starts(Array("BM".utf8))
            || starts(Array("ftyp".utf8), at: 4)                            // HEIF / HEIC (ISO base media)
    }
}
