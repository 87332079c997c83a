import Foundation
import NIOCore
import NodeODMServer
import XCTest

final class MultipartUploadTests: XCTestCase {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func body(_ parts: [(name: String, filename: String?, data: [UInt8])], boundary: String = "XyZ") -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts {
            var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { header += "; filename=\"\(filename)\"\r\nContent-Type: image/jpeg" }
            bytes += Array((header + "\r\n\r\n").utf8) + part.data + Array("\r\n".utf8)
        }
        return bytes + Array("--\(boundary)--\r\n".utf8)
    }

    /// The body in pieces of `size` bytes, as a network delivers it.
    private func chunks(_ bytes: [UInt8], size: Int) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + size)]))
            }
            continuation.finish()
        }
    }

    func testFieldsAndFilesArriveWhateverTheChunking() async throws {
        let photo = (0..<5000).map { UInt8($0 % 251) }
        let bytes = body([("name", nil, Array("vase".utf8)), ("images", "a 1.jpg", photo), ("images", "K.TXT", Array("1 0 0".utf8))])
        for size in [1, 7, 64, 100_000] {
            let directory = try folder()
            let result = try await MultipartUpload.read(chunks(bytes, size: size), contentType: "multipart/form-data; boundary=XyZ",
                                                        directory: directory, maxFileBytes: 10_000, maxFiles: 5)
            XCTAssertEqual(result.fields, ["name": "vase"], "chunks of \(size)")
            XCTAssertEqual(result.files.map(\.storedName), ["a 1.jpg", "K.txt"])
            XCTAssertEqual(result.files.map(\.bytes), [5000, 5])
            XCTAssertEqual(try Data(contentsOf: result.files[0].location), Data(photo))
        }
    }

    func testLimitsAndBadNamesAreRefusedAndLeaveNoFiles() async throws {
        let cases: [([UInt8], Int, Int, String)] = [
            (body([("images", "big.jpg", [UInt8](repeating: 1, count: 3000))]), 2000, 5, "larger than this node's upload limit"),
            (body([("images", "a.jpg", [1]), ("images", "b.jpg", [2]), ("images", "c.jpg", [3])]), 100, 2, "more than 2 photos"),
            (body((0..<15).map { ("images", "a\($0)_depth.png", [UInt8(1)]) }), 100, 2, "more than 14 files in one request"),
            (body([("images", "../up.jpg", [1])]), 100, 5, "is a path"),
            (body([("images", "a.jpg", [1])]), 100, 0, "takes no files"),
        ]
        for (bytes, maxBytes, maxFiles, message) in cases {
            let directory = try folder()
            do {
                _ = try await MultipartUpload.read(chunks(bytes, size: 512), contentType: "multipart/form-data; boundary=\"XyZ\"",
                                                   directory: directory, maxFileBytes: maxBytes, maxFiles: maxFiles)
                XCTFail("accepted: expected \(message)")
            } catch let error as NodeODMError {
                XCTAssertEqual(error.statusCode, 403)
                XCTAssertTrue(error.message.contains(message), error.message)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], message)
        }
    }

    func testSidecarsDoNotCountAgainstThePhotoLimit() async throws {
        let parts: [(name: String, filename: String?, data: [UInt8])] = [
            ("images", "a.jpg", [1]), ("images", "a_depth.png", [2]), ("images", "b.jpg", [3]), ("images", "b_mask.png", [4]),
            ("images", "K.txt", [5]),
        ]
        let result = try await MultipartUpload.read(chunks(body(parts), size: 512), contentType: "multipart/form-data; boundary=\"XyZ\"",
                                                    directory: try folder(), maxFileBytes: 100, maxFiles: 2)
        XCTAssertEqual(result.files.map(\.storedName), ["a.jpg", "a_depth.png", "b.jpg", "b_mask.png", "K.txt"])
    }

    /// A body cut off in transfer (no closing boundary), an empty one or garbage is refused and
    /// stores nothing, where the whole parts before the cut were once kept and the request answered 200.
    func testCutOffEmptyOrGarbageBodiesAreRefusedAndLeaveNoFiles() async throws {
        let whole = body([("images", "a.jpg", [UInt8](repeating: 1, count: 300)), ("images", "b.jpg", [UInt8](repeating: 2, count: 300)),
                          ("images", "c.jpg", [UInt8](repeating: 3, count: 300))])
        let garbage = (0..<2000).map { UInt8(truncatingIfNeeded: $0 * 7919) }
        for bytes in [Array(whole.prefix(whole.count - 8)), Array(whole.prefix(whole.count - 200)), Array(whole.prefix(400)), [], garbage] {
            let directory = try folder()
            do {
                let result = try await MultipartUpload.read(chunks(bytes, size: 97), contentType: "multipart/form-data; boundary=XyZ",
                                                            directory: directory, maxFileBytes: 10_000, maxFiles: 5)
                XCTFail("accepted \(bytes.count) bytes: \(result.files.map(\.storedName))")
            } catch let error as NodeODMError {
                XCTAssertEqual(error.statusCode, 403)
                XCTAssertTrue(error.message.contains("ended before its closing boundary"), error.message)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        }
    }

    func testNonMultipartBodiesAreRefused() async throws {
        let directory = try folder()
        for type in [nil, "application/json", "multipart/form-data"] {
            do {
                _ = try await MultipartUpload.read(chunks([], size: 1), contentType: type, directory: directory, maxFileBytes: 1, maxFiles: 1)
                XCTFail("accepted \(type ?? "no type")")
            } catch let error as NodeODMError {
                XCTAssertTrue(error.message.contains("multipart/form-data body with a boundary"), error.message)
            }
        }
    }

    func testHeaderParametersAreParsedQuotedOrNot() {
        let header = #"form-data; name="images"; filename="a \"b\";c.jpg"; size=12"#
        XCTAssertEqual(MultipartUpload.parameter("name", in: header), "images")
        XCTAssertEqual(MultipartUpload.parameter("filename", in: header), #"a "b";c.jpg"#)
        XCTAssertEqual(MultipartUpload.parameter("size", in: header), "12")
        XCTAssertNil(MultipartUpload.parameter("missing", in: header))
    }
}
