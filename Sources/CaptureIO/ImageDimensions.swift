import Foundation

/// A photo's size in pixels, read from its header without decoding it (JPEG and PNG), for
/// planning work (memory estimates) before any photo is decoded.
public struct ImageDimensions: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }

    /// Bytes read from the start of a file: PNG's IHDR is at byte 16; a JPEG's frame header
    /// follows its APP segments (EXIF thumbnails included), which rarely exceed this.
    public static let headBytes = 256 * 1024

    /// The size in the header of the file at `url`, or nil when it is not a JPEG or PNG, or its
    /// header is unreadable or truncated.
    public static func read(contentsOf url: URL) -> ImageDimensions? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: headBytes) else { return nil }
        return read(header: [UInt8](data))
    }

    /// The size in a JPEG or PNG header, or nil.
    public static func read(header bytes: [UInt8]) -> ImageDimensions? {
        if bytes.count >= 24, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 {
            let width = bigEndian32(bytes, 16), height = bigEndian32(bytes, 20)
            return width > 0 && height > 0 ? ImageDimensions(width: width, height: height) : nil
        }
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 { return jpeg(bytes) }
        return nil
    }

    /// Walks the JPEG's marker segments to the first start-of-frame (SOF0…SOF15 except DHT, JPG
    /// and DAC), whose payload holds the height then the width.
    private static func jpeg(_ bytes: [UInt8]) -> ImageDimensions? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }                           // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue } // no length
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard offset + 9 <= bytes.count else { return nil }
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return width > 0 && height > 0 ? ImageDimensions(width: width, height: height) : nil
            }
            if marker == 0xDA { return nil }                                     // scan data before any frame
            offset += 2 + length
        }
        return nil
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}
