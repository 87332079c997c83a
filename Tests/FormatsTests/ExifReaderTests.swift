import CaptureIO
import Foundation
import XCTest

/// Builds minimal JPEG files with an EXIF block (IFD0 + Exif sub-IFD) in either byte order.
private struct ExifJPEGBuilder {
    enum Value {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rational(UInt32, UInt32)
    }

    var littleEndian: Bool

    private func bytes(_ value: UInt64, width: Int) -> [UInt8] {
        let le = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        return littleEndian ? le : le.reversed()
    }

    private func encode(_ value: Value) -> (type: UInt16, count: UInt32, payload: [UInt8]) {
        switch value {
        case .ascii(let text):
            let payload = Array(text.utf8) + [0]
            return (2, UInt32(payload.count), payload)
        case .short(let v): return (3, 1, bytes(UInt64(v), width: 2))
        case .long(let v): return (4, 1, bytes(UInt64(v), width: 4))
        case .rational(let n, let d): return (5, 1, bytes(UInt64(n), width: 4) + bytes(UInt64(d), width: 4))
        }
    }

    /// The TIFF structure: header, IFD0 (with an Exif IFD pointer when `exif` is non-empty), Exif IFD, data.
    func tiff(ifd0: [(UInt16, Value)], exif: [(UInt16, Value)], exifPointerOverride: UInt32? = nil) -> [UInt8] {
        let ifd0Count = ifd0.count + (exif.isEmpty ? 0 : 1)
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + 2 + 12 * ifd0Count + 4
        let dataOffset = exifOffset + (exif.isEmpty ? 0 : 2 + 12 * exif.count + 4)
        var data: [UInt8] = []

        func directory(_ entries: [(UInt16, Value)]) -> [UInt8] {
            var out = bytes(UInt64(entries.count), width: 2)
            for (tag, value) in entries.sorted(by: { $0.0 < $1.0 }) {
                let (type, count, payload) = encode(value)
                out += bytes(UInt64(tag), width: 2) + bytes(UInt64(type), width: 2) + bytes(UInt64(count), width: 4)
                if payload.count <= 4 {
                    out += payload + [UInt8](repeating: 0, count: 4 - payload.count)
                } else {
                    if data.count % 2 == 1 { data.append(0) }
                    out += bytes(UInt64(dataOffset + data.count), width: 4)
                    data += payload
                }
            }
            return out + bytes(0, width: 4)  // no next IFD
        }

        var ifd0Entries = ifd0
        if !exif.isEmpty { ifd0Entries.append((0x8769, .long(exifPointerOverride ?? UInt32(exifOffset)))) }
        let header: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + bytes(42, width: 2) + bytes(8, width: 4)
        let first = directory(ifd0Entries)
        let second = exif.isEmpty ? [] : directory(exif)
        return header + first + second + data
    }

    /// A JPEG: SOI, APP0 (JFIF), APP1 (Exif + `tiff`), a fake scan, EOI.
    static func jpeg(tiff: [UInt8]) -> Data {
        var out: [UInt8] = [0xFF, 0xD8]
        let jfif: [UInt8] = [0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]
        out += [0xFF, 0xE0, 0x00, UInt8(jfif.count + 2)] + jfif
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        out += [0xFF, 0xDA, 0x00, 0x02, 0x12, 0x34, 0x56, 0xFF, 0xD9]
        return Data(out)
    }

    /// A typical phone photo's EXIF: make, model, 4.2 mm lens, 26 mm equivalent, 4032 × 3024.
    func phoneJPEG() -> Data {
        Self.jpeg(tiff: tiff(
            ifd0: [(0x010F, .ascii("Apple")), (0x0110, .ascii("iPhone 12 "))],
            exif: [(0x920A, .rational(42, 10)), (0xA405, .short(26)),
                   (0xA002, .long(4032)), (0xA003, .long(3024))]))
    }
}

final class ExifReaderTests: XCTestCase {
    /// TIFF files are the EXIF structure; PNG carries it in an eXIf chunk, WebP in an EXIF chunk
    /// (with or without "Exif\0\0" in front). Each is found, also from a file.
    func testReadsExifFromTIFFPNGAndWebP() throws {
        let builder = ExifJPEGBuilder(littleEndian: false)
        let tiff = builder.tiff(ifd0: [(0x010F, .ascii("Apple"))], exif: [(0xA405, .short(26)), (0xA002, .long(4032))])
        func bigEndian(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func littleEndian(_ v: Int) -> [UInt8] { bigEndian(v).reversed() }
        func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            var chunk: [UInt8] = bigEndian(data.count)
            chunk += Array(type.utf8)
            chunk += data
            chunk += [0, 0, 0, 0]
            return chunk
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = pngChunk("IHDR", [UInt8](repeating: 0, count: 13))
        var png: [UInt8] = signature + header
        png += pngChunk("IDAT", [1, 2, 3])
        png += pngChunk("eXIf", tiff)
        png += pngChunk("IEND", [])
        func webp(_ exif: [UInt8]) -> [UInt8] {
            var body: [UInt8] = Array("WEBP".utf8)
            body += Array("VP8 ".utf8)
            body += littleEndian(3)
            body += [9, 9, 9, 0]  // odd size: padded
            body += Array("EXIF".utf8)
            body += littleEndian(exif.count)
            body += exif
            var file: [UInt8] = Array("RIFF".utf8)
            file += littleEndian(body.count)
            return file + body
        }
        let expected = ExifCameraInfo(make: "Apple", focalLengthIn35mmFilm: 26, pixelXDimension: 4032)
        let directory = try makeTemporaryDirectory(self)
        for (name, bytes) in [("a.tif", tiff), ("b.png", png), ("c.webp", webp(tiff)), ("d.webp", Array("Exif".utf8) + [0, 0] + tiff)] {
            let data = name == "d.webp" ? Data(webp(bytes)) : Data(bytes)
            XCTAssertEqual(ExifReader.read(containerData: data), expected, name)
            try data.write(to: directory.appendingPathComponent(name))
            XCTAssertEqual(ExifReader.read(contentsOf: directory.appendingPathComponent(name)), expected, name)
        }
        // Without the chunk, or cut short: nothing, and no trap.
        let bare: [UInt8] = signature + header + pngChunk("IEND", [])
        XCTAssertNil(ExifReader.read(containerData: Data(bare)))
        for cut in [12, 20, 40, png.count - 20] { XCTAssertNil(ExifReader.read(containerData: Data(png.prefix(cut))), "\(cut)") }
        XCTAssertNil(ExifReader.read(containerData: Data(webp(tiff).prefix(30))))
    }

    func testReadsLittleEndianExif() throws {
        let info = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder(littleEndian: true).phoneJPEG()))
        XCTAssertEqual(info, ExifCameraInfo(make: "Apple", model: "iPhone 12", focalLengthMillimetres: 4.2,
                                            focalLengthIn35mmFilm: 26, pixelXDimension: 4032, pixelYDimension: 3024))
    }

    func testReadsTheOrientationTagAndIgnoresValuesOutsideOneToEight() throws {
        for littleEndian in [true, false] {
            let builder = ExifJPEGBuilder(littleEndian: littleEndian)
            let turned = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder.jpeg(tiff: builder.tiff(
                ifd0: [(0x010F, .ascii("Apple")), (0x0112, .short(6))], exif: [(0xA405, .short(26))]))))
            XCTAssertEqual(turned.orientation, 6)
            XCTAssertTrue(turned.isReorienting)
            let upright = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder.jpeg(tiff: builder.tiff(
                ifd0: [(0x0112, .short(1))], exif: [(0xA405, .short(26))]))))
            XCTAssertEqual(upright.orientation, 1)
            XCTAssertFalse(upright.isReorienting)
            let invalid = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder.jpeg(tiff: builder.tiff(
                ifd0: [(0x0112, .short(9))], exif: [(0xA405, .short(26))]))))
            XCTAssertNil(invalid.orientation)
            XCTAssertFalse(invalid.isReorienting)
        }
        XCTAssertNil(try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder(littleEndian: true).phoneJPEG())).orientation)
    }

    func testReadsBigEndianExif() throws {
        let info = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder(littleEndian: false).phoneJPEG()))
        XCTAssertEqual(info.make, "Apple")
        XCTAssertEqual(info.model, "iPhone 12")
        XCTAssertEqual(info.focalLengthMillimetres, 4.2)
        XCTAssertEqual(info.focalLengthIn35mmFilm, 26)
        XCTAssertEqual(info.pixelXDimension, 4032)
        XCTAssertEqual(info.pixelYDimension, 3024)
    }

    func testFocalLengthPixelsFrom35mmEquivalentUsesTheDiagonal() throws {
        let frameDiagonal: Double = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
        for littleEndian in [true, false] {
            let info = try XCTUnwrap(ExifReader.read(jpegData: ExifJPEGBuilder(littleEndian: littleEndian).phoneJPEG()))
            // An iPhone 12's 26 mm on 4032 × 3024: its 4.2 mm lens on a 5.6 mm-wide sensor is
            // 3024 px; the diagonal gives 3028 px (26 · 5040 / 43.27), the 36 mm width 2912 px.
            XCTAssertEqual(try XCTUnwrap(info.focalLengthPixels(imageWidth: 4032, imageHeight: 3024)),
                           26 * 5040 / frameDiagonal, accuracy: 1e-9)
            // Portrait and down-scaled images use their own diagonal.
            XCTAssertEqual(try XCTUnwrap(info.focalLengthPixels(imageWidth: 1512, imageHeight: 2016)),
                           26 * 2520 / frameDiagonal, accuracy: 1e-9)
        }
        // A 3:2 photo's diagonal and longer side give the same: f35 · w / 36.
        XCTAssertEqual(try XCTUnwrap(ExifCameraInfo(focalLengthIn35mmFilm: 28).focalLengthPixels(imageWidth: 3000, imageHeight: 2000)),
                       28 * 3000 / 36, accuracy: 1e-9)
    }

    func testFocalLengthPixelsFromFocalPlaneResolution() throws {
        // 50 mm lens; sensor resolution 1000/9 pixels per mm (4000 pixels over 36 mm); image halved.
        let builder = ExifJPEGBuilder(littleEndian: false)
        let data = ExifJPEGBuilder.jpeg(tiff: builder.tiff(
            ifd0: [],
            exif: [(0x920A, .rational(50, 1)), (0xA20E, .rational(1000, 9)), (0xA210, .short(4)),
                   (0xA002, .short(4000)), (0xA003, .short(3000))]))
        let info = try XCTUnwrap(ExifReader.read(jpegData: data))
        XCTAssertNil(info.focalLengthIn35mmFilm)
        XCTAssertEqual(info.focalPlaneResolutionUnit, 4)
        XCTAssertEqual(try XCTUnwrap(info.focalLengthPixels(imageWidth: 2000, imageHeight: 1500)),
                       50 * 1000 / 9 / 2, accuracy: 1e-9)
    }

    func testZero35mmFocalLengthMeansUnknown() throws {
        let builder = ExifJPEGBuilder(littleEndian: true)
        let data = ExifJPEGBuilder.jpeg(tiff: builder.tiff(ifd0: [(0x010F, .ascii("X"))],
                                                           exif: [(0xA405, .short(0)), (0x920A, .rational(5, 0))]))
        let info = try XCTUnwrap(ExifReader.read(jpegData: data))
        XCTAssertNil(info.focalLengthIn35mmFilm)
        XCTAssertNil(info.focalLengthMillimetres, "a zero denominator gives no value")
        XCTAssertNil(info.focalLengthPixels(imageWidth: 100, imageHeight: 100))
    }

    func testNonJPEGAndJPEGWithoutExifGiveNil() {
        XCTAssertNil(ExifReader.read(jpegData: Data()))
        XCTAssertNil(ExifReader.read(jpegData: Data([0xFF])))
        XCTAssertNil(ExifReader.read(jpegData: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        let noExif = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])
        XCTAssertNil(ExifReader.read(jpegData: noExif))
    }

    func testEveryTruncationOfAValidFileIsHandled() {
        for littleEndian in [true, false] {
            let full = ExifJPEGBuilder(littleEndian: littleEndian).phoneJPEG()
            for length in 0...full.count {
                // Must not trap; short prefixes lose fields or give nil.
                let info = ExifReader.read(jpegData: full.prefix(length))
                if length < 30 { XCTAssertNil(info, "prefix of \(length) bytes") }
            }
            XCTAssertNotNil(ExifReader.read(jpegData: full))
        }
    }

    func testRandomGarbageAndCorruptedFilesDoNotCrash() {
        var generator = SplitMix64(seed: 0x5EED)
        for length in [1, 2, 3, 7, 64, 1000, 70_000] {
            for prefix: [UInt8] in [[], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xE1]] {
                var bytes = prefix
                bytes += (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = ExifReader.read(jpegData: Data(bytes))
            }
        }
        // Random byte flips inside a valid file (header, IFD counts, offsets, types).
        let valid = [UInt8](ExifJPEGBuilder(littleEndian: true).phoneJPEG())
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = ExifReader.read(jpegData: Data(bytes))
        }
    }

    func testIFDLoopsAndHugeCountsAreSurvived() throws {
        let builder = ExifJPEGBuilder(littleEndian: true)
        // The Exif IFD pointer points back at IFD0.
        let loop = ExifJPEGBuilder.jpeg(tiff: builder.tiff(ifd0: [(0x010F, .ascii("Loop"))],
                                                           exif: [(0xA405, .short(35))], exifPointerOverride: 8))
        XCTAssertEqual(ExifReader.read(jpegData: loop)?.make, "Loop")
        // IFD0 claims 65535 entries.
        var tiff = builder.tiff(ifd0: [(0x010F, .ascii("Huge"))], exif: [(0xA405, .short(35))])
        tiff[8] = 0xFF
        tiff[9] = 0xFF
        _ = ExifReader.read(jpegData: ExifJPEGBuilder.jpeg(tiff: tiff))
        // An ASCII value claiming 4 billion bytes.
        var hugeCount = builder.tiff(ifd0: [(0x010F, .ascii("Make"))], exif: [])
        for i in 14..<18 { hugeCount[i] = 0xFF }
        XCTAssertNil(ExifReader.read(jpegData: ExifJPEGBuilder.jpeg(tiff: hugeCount)))
    }

    func testReadsTheHeadOfAFile() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("photo.jpg")
        var data = ExifJPEGBuilder(littleEndian: false).phoneJPEG()
        data.append(Data(repeating: 0xAB, count: 400_000))  // large image body after the metadata
        try data.write(to: file)
        XCTAssertEqual(ExifReader.read(contentsOf: file)?.focalLengthIn35mmFilm, 26)
        XCTAssertNil(ExifReader.read(contentsOf: directory.appendingPathComponent("missing.jpg")))
    }

    func testSharedStrechaImagesHaveNoExif() throws {
        guard let scene = sharedFountainScene() else { throw XCTSkip("shared Strecha data absent") }
        XCTAssertNil(ExifReader.read(contentsOf: scene.appendingPathComponent("images/0000.jpg")))
    }
}
