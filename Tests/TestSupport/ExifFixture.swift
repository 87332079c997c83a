import Foundation

/// JPEG files with EXIF metadata, for tests of how the pipeline reads it.
public enum ExifFixture {
    /// `jpeg` with an EXIF block holding only the orientation tag, inserted after its SOI marker.
    public static func withOrientation(_ orientation: UInt8, _ jpeg: Data) -> Data {
        // Little-endian TIFF: header, IFD0 with one SHORT entry (0x0112), no next IFD.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Data(jpeg.prefix(2)) + Data(segment) + Data(jpeg.dropFirst(2))
    }
}
