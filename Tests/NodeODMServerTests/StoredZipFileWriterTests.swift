import Foundation
import ModelExport
import TestSupport
import XCTest

final class StoredZipFileWriterTests: XCTestCase {
    func testStreamedArchiveIsByteIdenticalToTheInMemoryOneAndPythonReadsIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let contents: [(String, [UInt8])] = [("poses.json", Array("{\"a\": 1}".utf8)), ("colmap/images.txt", (0..<9000).map { UInt8($0 % 256) }),
                                             ("empty.txt", [])]
        var files: [(name: String, source: URL)] = []
        for (index, (name, bytes)) in contents.enumerated() {
            let url = dir.appendingPathComponent("source-\(index)")
            try Data(bytes).write(to: url)
            files.append((name, url))
        }
        let archive = dir.appendingPathComponent("all.zip")
        try StoredZipFileWriter.write(files, to: archive)
        let expected = try StoredZipWriter.archive(contents.map { StoredZipWriter.Entry(name: $0.0, data: $0.1) })
        XCTAssertEqual([UInt8](try Data(contentsOf: archive)), expected)

        let check = try PythonTool.run("""
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
            print(",".join("%s:%d" % (i.filename, i.file_size) for i in z.infolist()))
            """, [archive.path])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), "poses.json:8,colmap/images.txt:9000,empty.txt:0")
        XCTAssertThrowsError(try StoredZipFileWriter.write([("../x", files[0].source)], to: archive))
    }
}
