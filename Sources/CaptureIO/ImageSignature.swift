import Foundation

/// Whether a file starts as one of the image formats the decoders read (JPEG, PNG, TIFF, WebP,
/// BMP, HEIF), from its first bytes: an empty file or a text file named `.jpg` does not. A file
/// that does may still fail to decode (a truncated JPEG).
public enum ImageSignature {
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
