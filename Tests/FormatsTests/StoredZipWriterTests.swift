import Foundation
import ModelExport
import XCTest

final class StoredZipWriterTests: XCTestCase {
    /// Names of every length 1…80 (so the header lands on every remainder mod 64, including the
    /// 1–3-byte gaps that need an extra 64), data of varied lengths.
    private var entries: [StoredZipWriter.Entry] {
        (1...80).map { n in
            StoredZipWriter.Entry(name: String(repeating: "n", count: n - 1) + "x",
                                  data: (0..<(n * 37 % 101)).map { UInt8(truncatingIfNeeded: $0 * n) })
        }
    }

    func testCRC32MatchesTheStandardCheckValue() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([]), 0)
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertEqual(CRC32.checksum(Array(bytes[500...]), continuing: CRC32.checksum(Array(bytes[..<500]))),
                       bitwiseCRC32(bytes))
    }

    func testEveryEntryIsStoredUnencryptedWithItsDataOn64ByteBoundaries() throws {
        let zip = try ParsedZip(StoredZipWriter.archive(entries))
        XCTAssertEqual(zip.entries.map(\.name), entries.map(\.name))
        for e in zip.entries {
            XCTAssertEqual(e.method, 0, e.name)
            XCTAssertEqual(e.flags, 0, "\(e.name): no encryption, no data descriptor")
            XCTAssertEqual(e.dataOffset % 64, 0, e.name)
        }
    }

    func testStoredDataAndCRCMatchTheInput() throws {
        let archive = try ParsedZip(StoredZipWriter.archive(entries))
        for (e, input) in zip(archive.entries, entries) {
            XCTAssertEqual(e.data, input.data, e.name)
            XCTAssertEqual(e.crc, bitwiseCRC32(input.data), e.name)
        }
    }

    func testCentralDirectoryAgreesWithTheLocalHeaders() throws {
        // ParsedZip throws when a directory record's offset, name, CRC or size disagree, or the end record is off.
        XCTAssertNoThrow(try ParsedZip(StoredZipWriter.archive(entries)))
        XCTAssertNoThrow(try ParsedZip(StoredZipWriter.archive([])))
    }

    func testUnzipTestsTheArchiveWithoutErrors() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { throw XCTSkip("unzip is not installed") }
        let url = try makeTemporaryDirectory(self).appendingPathComponent("a.zip")
        try Data(StoredZipWriter.archive(entries)).write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-tq", url.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testEqualInputGivesIdenticalBytes() throws {
        XCTAssertEqual(try StoredZipWriter.archive(entries), try StoredZipWriter.archive(entries))
    }

    func testPaddingIsOneWellFormedRecordForEveryRemainder() throws {
        // A lone entry's data would start at 30 + name length: lengths 1…64 hit every remainder mod 64,
        // including the 1–3-byte gaps too small for a record header (padded by 64 more).
        for n in 1...64 {
            let bytes = try StoredZipWriter.archive([.init(name: String(repeating: "a", count: n), data: [7])])
            let extraLength = bytes.u16(28)
            XCTAssertEqual((30 + n + extraLength) % 64, 0, "name length \(n)")
            XCTAssertTrue(extraLength == 0 || extraLength >= 4, "name length \(n)")
            if extraLength > 0 {
                XCTAssertEqual(bytes.u16(30 + n), 0x1986)
                XCTAssertEqual(bytes.u16(32 + n), extraLength - 4)
            }
        }
    }

    func testDirectoriesRepeatsAndAbsoluteNamesAreRefused() {
        let bad = ["", "/abs.png", "textures/", "a//b", "./a", "a/../b"]
        for name in bad {
            XCTAssertThrowsError(try StoredZipWriter.archive([.init(name: name, data: [])]), name) {
                XCTAssertEqual($0 as? StoredZipWriterError, .badName(name))
            }
        }
        XCTAssertThrowsError(try StoredZipWriter.archive([.init(name: "a", data: []), .init(name: "a", data: [1])])) {
            XCTAssertEqual($0 as? StoredZipWriterError, .duplicateName("a"))
        }
    }
}
