import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The C interface's failure paths return errors; none of them may crash.
final class ShimErrorPathTests: XCTestCase {
    func testEmptyBufferIsAnInvalidArgument() {
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data())) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
    }

    func testCorruptImageBytesAreADecodeError() {
        var rng = SplitMix64(seed: 9)
        let garbage = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: garbage)) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
        }
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data("not an image at all\n".utf8)))
    }

    func testTruncatedImagesNeverCrash() {
        let whole = pgm(width: 64, height: 64) { x, y in UInt8((x * 7 + y * 13) % 256) }
        // A JPEG-looking header with nothing after it, and every truncation of a valid PGM.
        _ = try? FeatureExtractor().extract(encoded: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]))
        for length in stride(from: 1, to: whole.count, by: 97) {
            _ = try? FeatureExtractor().extract(encoded: whole.prefix(length))
        }
    }

    /// libjpeg would decode a cut-off JPEG with grey rows; the shim must call it corrupt instead,
    /// while still accepting data after the end-of-image marker (motion photos, vendor trailers).
    func testTruncatedJPEGIsADecodeErrorButTrailingDataIsAccepted() throws {
        let jpeg = Self.minimalJPEG
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg))
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg + Data("trailer after EOI".utf8)))
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: jpeg.prefix(jpeg.count - 40))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
            XCTAssertTrue("\(error)".contains("truncated"))
        }
    }

    /// Bytes scrambled in the middle of a JPEG's image data, header and end marker intact:
    /// libjpeg would decode it with garbled blocks and only a warning. The shim calls it corrupt
    /// where the damage can only be that: bytes left over before a restart marker within the
    /// image (the interval's codes were misread), or a marker where image data should be. Data
    /// before the end marker is allowed (DJI's drones leave some there), so the same photo with
    /// 500 arbitrary bytes there decodes.
    func testJPEGDataDamagedMidFileIsADecodeError() throws {
        let jpeg = Self.restartMarkedJPEG
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg))
        var rng = SplitMix64(seed: 3)
        let junk = Data((0..<500).map { _ in UInt8(truncatingIfNeeded: rng.next() % 255) })
        XCTAssertNoThrow(try FeatureExtractor().extract(encoded: jpeg.dropLast(2) + junk + Data([0xFF, 0xD9])))
        let scan = try XCTUnwrap((0..<(jpeg.count - 1)).last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        for seed in 1...5 {
            var rng = SplitMix64(seed: UInt64(seed))
            var damaged = [UInt8](jpeg)
            let start = scan + (jpeg.count - scan) * (20 + 10 * seed) / 100
            for i in start..<(start + 24) { damaged[i] = UInt8(truncatingIfNeeded: rng.next() % 255) }  // no 0xFF
            assertCorrupt(Data(damaged), "seed \(seed)")
        }
        // A marker (0xFF, then neither 0 nor a restart code) inside a JPEG without restart markers.
        var marked = [UInt8](Self.minimalJPEG)
        marked.insert(contentsOf: [0xFF, 0xC4], at: marked.count - 4)
        assertCorrupt(Data(marked), "a marker in the image data")
    }

    private func assertCorrupt(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: data), label, file: file, line: line) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed, file: file, line: line)
            XCTAssertTrue("\(error)".contains("corrupt JPEG"), "\(label): \(error)", file: file, line: line)
        }
    }

    /// A 64×48 colour JPEG with a restart marker every 2 blocks (written once with Pillow,
    /// quality 85, `restart_marker_blocks=2`), as many cameras write them.
    static let restartMarkedJPEG = Data(base64Encoded: """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAUDBAQEAwUEBAQFBQUGBwwIBwcHBw8LCwkMEQ8SEhEPERETFhwXExQaFRERGCEYGh0dHx8fExciJC
        IeJBweHx7/2wBDAQUFBQcGBw4ICA4eFBEUHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh7/wAARCAAw
        AEADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhBy
        JxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKT
        lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAA
        AAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRom
        JygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExc
        bHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/90ABAAC/9oADAMBAAIRAxEAPwD5l0TRzlflz+HSvRdF8PpEgeXCr6n/ADzWn4a0MRRe
        a6fKoya6bRdCKlbi4Te7cKg/kPau/DQwn1WFSpBSlJX12S7vrvokt317/W4vJPYTaS/r+vuLWhaNAuBHA8p4wcYH+P6V1y6loejo8eYJryPjyI
        2LndkjaSowpyOc8jHTpXI3+rXeox/Y7eCW2t2UiWNXADpkY3cfLxnIBPXB4rbjF/qs0M16VIjyFWIGNF5J46knoPcAdcV5OLy6jN/voRitbq0d
        PXRv1tNyXVJ3PjM14ww+FU6WW+9JWtJxdnfe2q26Nppu+lrN/wD/0NfRNOZplnul893xmWQHOcdCWOTwK9V0DSoYSsmyNIlTczYAVQM5JOD/AD
        qp4a0Ex7EWEJuGOFx9D3OPyrjPjn8TrLwPpz6Pp+y51iWMLHCMMpByCztk7UBwCMgudyjaAxr4/EUP7WrLCUKSTdtlslvra9rW/pHzVLB/2bFV
        LOdSbtFdXLV6v7229ku9keR/tG6s+v8AxAsdOnaG4bTrc+YEXaYZJMMY/mGCoQRkY7s2ST0zIjbaFpbyyusM8gZLYG3Unfjg+hA4JPT8wKZ4c0
        u4lmaa5aWeWVy8jyMWaRjyWbdncc89cnNOv5I7+8itLPcbe1kbMsMhKu2ByVI4x8wyDjk881+lUsHhqNOlg4pctNa9F52SabV3fWVt+mp+q4bC
        LhXJEvac1aSsm93Ju8pfi3fpotXZH//R4q2vtdvNPhtVeO0EjDd9nQqzAYP3iSRzjoR1PWtvRvDrIyyhFJY7YyVwFUd/17+td/onhTy7eICJty
        xkggdN2AP1rbXRdN0W3W51a7tbC3Z/JWW5lSJcgZ2gsQCTzgema5aWeQjh4QodIx2v2VvulzLybT6O/wA7m1XGY3Ec2JnKpLZX1t6Lz8jlZmv9
        WRbcxrBaAkpDGWAYZBBk5+bBHHA+g7dXo+hx2cL3VxJFFDEm6SWRggjQDJZieEXHP6+tcfqvxN0vT5XtvDelSao5jb/SpQYYVfaCpC4LOqk4Kn
        YcrwTnI4nUrjxJ4rnVtYvJJIA++O1T5IYjluQo4LAMRvOWA4yTThl2JrRUWvYwWye/klHW1r6JvTRJNNt9+XcEZxm2I+tZjLl5ray+K3lFbfO1
        j//SzviP8bG1SZLbwhbKfLUp9plt2EUSkZBjRjlnyRkuoHyj5CDxxWg6HcTXb3U5eeeVy0kkhLMzEkkluuSffPtW74a8JNB5S+WB3X5cbQOT9P
        8A9WT2rsF0uDQdM+0OAJnULChGdzY7jH3RnJ9B26GvQ9rhcvgsPg1y9Hrd6Jv0sl6Lr1svosly7BZDTqYyq9XrOcrXdu7/AASSS6JGB4e0WDTr
        XzrjbDFGMuWUYAHt/ESe2M5xTfDOiXd3dC6uC808x3GQkFhj09R229uPw6FNNutbvoZjarFGqBEiDltvcknuTx09BjOK7/wX4VZBGptyTu6gYP
        8A+179x+VeTjM2jhk/ayabVvydk7P1uu66xR8xj+IaebYinSw6/dU27PX3m/tNP7knqte9l//Tr3nx/v723jbRdJbQoI44mOY1ubiU5kLAFhsC
        42HkZ4PPavNNUPijxTLC2uajd35iTywJJXb5Q5YK24kkBm454256kk+naJ4FlWOKMW6kbQv3enT/AOLP6V0Fl4IitLdrm9EEEKIZJZH+VY1A3M
        xPYAFjk+lGBzLKcuoweDgk0krta3tspO+jfe/lY4cfxFiFTWHglBap8qs5Xd/ed25dl2Xm2eYaF4LEe1ViCqNoBI6D6d+ue/JFemeHvBRgI223
        QD5SMBce56//AKz6V0s/iDwPojSxNqR1C4iC/ubCJpN2cfcckRnGT/FxgDqMVyesfG+00pZ4NE0C1a5hlJT7QzTbkBxghMBGztJy52gYwa56mM
        zXMpNUaT02btG3pzaWt1WjX4fS4bLMXhqft60eSHeb5V30vrK/Syb7H//U09B8ITzTK8qyzu5AeRyc8YGMnJ44x/j07QzeDfCcrLrut2Nk0eEe
        IMXeLK7gWRMsq453EY5HIyCfLI5vHWs2a2+o65cyW4Ro2itwIFdGGGDLGqhxgdGzjJ/2s8zq+is7SaNZKyhSFndQDvyPmXIPGMgEc5yR/v8ALW
        wMsVUjTq1PO0VpbbRv/Ld6+e+H4boZBhnjM0xF272jHdy3+KXfd6fjZG/qHxelvrtp9I8Pu87IoSa/+SOPDcoIoycqB0O8HJJxkHNPxRrviW80
        24k1TVblFuVaOCyt/lhBDFlAjHDbWIO5gxG1eTla7Hwp4CeDaCrEkAgYyR/n+me3M2peHY9SvYbG2Rjb27nDqRtlJAGQMdjkA89faur61l9Gso
        Yel8HXRtdrtt22Sskr776ip4jLeFcDPFU0niKj92Uryk5PdpvXRa30SdurSP/Z
        """, options: .ignoreUnknownCharacters)!

    /// libpng would print its own complaint about a cut-off PNG; the shim finds the truncation
    /// first (the chunks stop before IEND) and says so, and data after IEND is accepted.
    func testTruncatedPNGIsADecodeErrorButTrailingDataIsAccepted() throws {
        let png = try ImageCodec.encode16((0..<(32 * 32)).map { UInt16($0 * 61 % 65536) }, width: 32, height: 32)
        XCTAssertEqual(try ImageCodec.decodeUnchanged(png).width, 32)
        XCTAssertEqual(try ImageCodec.decodeUnchanged(png + Data("trailer".utf8)).width, 32)
        for cut in [png.count - 1, png.count - 12, png.count / 2, 40, 12] {
            XCTAssertThrowsError(try ImageCodec.decodeUnchanged(png.prefix(cut)), "cut at \(cut)") { error in
                XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
                XCTAssertTrue("\(error)".contains("truncated PNG"), "\(error)")
            }
        }
    }

    /// OpenCV refuses a header that claims more than 2^30 pixels; the message says the image is
    /// too large, not OpenCV's assertion text, and carries no trailing newline.
    func testAJPEGClaimingAHugeSizeIsADecodeErrorSayingSo() throws {
        var bytes = [UInt8](Self.minimalJPEG)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        // SOF0: marker, length (2), precision (1), height (2), width (2).
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 × 60000
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Data(bytes))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .decodeFailed)
            XCTAssertTrue("\(error)".contains("image too large"), "\(error)")
            XCTAssertFalse("\(error)".hasSuffix("\n"))
        }
    }

    /// A 16×16 grey baseline JPEG (written once with Pillow, quality 90; 8-bit greyscale).
    static let minimalJPEG = Data(base64Encoded: """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/wAALCAAQABABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACiiiv/Z
        """, options: .ignoreUnknownCharacters)!

    func testMatchingEmptyDescriptorSetsGivesNoMatches() throws {
        XCTAssertEqual(try DescriptorMatcher().match([], []).count, 0)
        XCTAssertEqual(try DescriptorMatcher().match([UInt8](repeating: 1, count: 128), []).count, 0)
    }
}
