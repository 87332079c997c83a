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

    /// `jpeg` with a camera's EXIF block: focal length (mm), focal-plane resolution (pixels per
    /// mm, unit tag 4) and the camera's image size (PixelXDimension, PixelYDimension), as a
    /// camera writes them and a tool that scales the photo down often leaves them.
    public static func withFocalPlane(focalMillimetres: Double, pixelsPerMillimetre: Double, cameraWidth: UInt32,
                                      cameraHeight: UInt32, _ jpeg: Data) -> Data {
        func le(_ value: UInt32, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        func entry(_ tag: UInt16, _ type: UInt16, _ value: UInt32) -> [UInt8] {
            le(UInt32(tag), 2) + le(UInt32(type), 2) + le(1, 4) + le(value, 4)
        }
        // Header (8), IFD0 at 8 with the Exif IFD pointer (2 + 12 + 4), the Exif IFD at 26 with five
        // entries (2 + 60 + 4), then its two rationals at 92 and 100.
        var tiff: [UInt8] = [0x49, 0x49, 42, 0] + le(8, 4)
        tiff += le(1, 2) + entry(0x8769, 4, 26) + le(0, 4)
        tiff += le(5, 2)
        tiff += entry(0x920A, 5, 92) + entry(0xA002, 4, cameraWidth) + entry(0xA003, 4, cameraHeight)
        tiff += entry(0xA20E, 5, 100) + le(0xA210, 2) + le(3, 2) + le(1, 4) + le(4, 2) + le(0, 2)
        tiff += le(0, 4)
        tiff += le(UInt32((focalMillimetres * 1000).rounded()), 4) + le(1000, 4)
        tiff += le(UInt32((pixelsPerMillimetre * 1000).rounded()), 4) + le(1000, 4)
        return inserting(tiff, into: jpeg)
    }

    /// `jpeg` with an EXIF block holding only the focal length in millimetres (no 35 mm
    /// equivalent, no focal-plane resolution: nothing to turn it into pixels).
    public static func withFocalLengthOnly(millimetres: Double, _ jpeg: Data) -> Data {
        func le(_ value: UInt32, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        // Header (8), IFD0 at 8 with the Exif IFD pointer (2 + 12 + 4), the Exif IFD at 26 with one
        // entry (2 + 12 + 4), then its rational at 44.
        var tiff: [UInt8] = [0x49, 0x49, 42, 0] + le(8, 4)
        tiff += le(1, 2) + le(0x8769, 2) + le(4, 2) + le(1, 4) + le(26, 4) + le(0, 4)
        tiff += le(1, 2) + le(0x920A, 2) + le(5, 2) + le(1, 4) + le(44, 4) + le(0, 4)
        tiff += le(UInt32((millimetres * 1000).rounded()), 4) + le(1000, 4)
        return inserting(tiff, into: jpeg)
    }

    /// `jpeg` with an EXIF block holding only the 35 mm-equivalent focal length (a SHORT, tag 0xA405).
    public static func with35mmEquivalent(_ millimetres: UInt16, _ jpeg: Data) -> Data {
        func le(_ value: UInt32, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        // Header (8), IFD0 at 8 with the Exif IFD pointer (2 + 12 + 4), the Exif IFD at 26 with one entry.
        var tiff: [UInt8] = [0x49, 0x49, 42, 0] + le(8, 4)
        tiff += le(1, 2) + le(0x8769, 2) + le(4, 2) + le(1, 4) + le(26, 4) + le(0, 4)
        tiff += le(1, 2) + le(0xA405, 2) + le(3, 2) + le(1, 4) + le(UInt32(millimetres), 2) + le(0, 2) + le(0, 4)
        return inserting(tiff, into: jpeg)
    }

    /// `jpeg` with `tiff` as its EXIF (APP1) segment, after the SOI marker.
    static func inserting(_ tiff: [UInt8], into jpeg: Data) -> Data {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Data(jpeg.prefix(2)) + Data(segment) + Data(jpeg.dropFirst(2))
    }
}
