import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import XCTest

/// Depth sidecars: each accepted format, and each bad input rejected with a message naming the file.
final class DepthSidecarTests: XCTestCase {
    private var folder: URL!
    private let photo = "0001.jpg"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("depth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8]).write(to: folder.appendingPathComponent(photo))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ data: Data, _ name: String) throws { try data.write(to: folder.appendingPathComponent(name)) }

    private func load() throws(DepthSidecarError) -> DepthSidecar? {
        try DepthSidecar.load(besides: folder.appendingPathComponent(photo), photoWidth: 64, photoHeight: 48)
    }

    private func assertRejected(_ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try load(), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(folder.path) && text.contains(fragment), text, file: file, line: line)
        }
    }

    func testNoSidecarMeansNoDepth() throws {
        XCTAssertNil(try load())
    }

    func testSixteenBitMillimetresWithConfidence() throws {
        let mm: [UInt16] = (0..<(16 * 12)).map { UInt16(500 + $0) }
        try write(try ImageCodec.encode16(mm, width: 16, height: 12), "0001_depth.png")
        try write(try ImageCodec.encode(GrayImage(width: 16, height: 12, pixels: (0..<192).map { UInt8($0 % 3) })), "0001_depthConfidence.png")
        let sidecar = try XCTUnwrap(try load())
        XCTAssertEqual(sidecar.depth.width, 16)
        XCTAssertEqual(sidecar.depth.metres[1], 0.501, accuracy: 1e-6)
        XCTAssertEqual(Array(sidecar.weights.prefix(3)), [0, 0.5, 1])
    }

    func testFloatTIFFInMetres() throws {
        try write(try ImageCodec.encodeFloatTIFF([Float](repeating: 1.25, count: 32 * 24), width: 32, height: 24), "0001_depth.tiff")
        let sidecar = try XCTUnwrap(try load())
        XCTAssertEqual(sidecar.depth.metres.first, 1.25)
        XCTAssertNil(sidecar.confidence)
        XCTAssertEqual(sidecar.weights.first, 1)
    }

    func testWrongAspectRatioIsRejected() throws {
        try write(try ImageCodec.encode16([UInt16](repeating: 1000, count: 16 * 16), width: 16, height: 16), "0001_depth.png")
        assertRejected("does not fit its 64×48 photo")
    }

    func testTruncatedFileIsRejected() throws {
        let whole = try ImageCodec.encode16([UInt16](repeating: 1000, count: 16 * 12), width: 16, height: 12)
        try write(whole.prefix(whole.count / 2), "0001_depth.png")
        assertRejected("not a decodable depth image")
    }

    /// NaN and infinity are "no return" in many exporters: missing, like 0. A negative depth is a
    /// mistake (another convention), and a map without any depth is no sidecar at all.
    func testNaNAndInfinityAreMissingButNegativeOrEmptyDepthIsRejected() throws {
        var values = [Float](repeating: 1, count: 16 * 12)
        values[5] = .nan
        values[6] = .infinity
        try write(try ImageCodec.encodeFloatTIFF(values, width: 16, height: 12), "0001_depth.tif")
        let sidecar = try XCTUnwrap(try load())
        XCTAssertEqual(Array(sidecar.depth.metres[4...7]), [1, 0, 0, 1])
        XCTAssertEqual(Array(sidecar.weights[4...7]), [1, 0, 0, 1])
        values[5] = -2
        try write(try ImageCodec.encodeFloatTIFF(values, width: 16, height: 12), "0001_depth.tif")
        assertRejected("has a negative value (-2.0) at pixel (5, 0)")
        try write(try ImageCodec.encodeFloatTIFF([Float](repeating: .nan, count: 16 * 12), width: 16, height: 12), "0001_depth.tif")
        assertRejected("has no depth")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("0001_depth.tif"))
        try write(try ImageCodec.encode16([UInt16](repeating: 0, count: 16 * 12), width: 16, height: 12), "0001_depth.png")
        assertRejected("has no depth")
    }

    func testEightBitDepthIsRejected() throws {
        try write(try ImageCodec.encode(GrayImage(width: 16, height: 12, fill: 9)), "0001_depth.png")
        assertRejected("is 8-bit")
    }

    /// A confidence map that cannot be used does not cost the depth: it is named, and every
    /// sample weighs the same.
    func testBadConfidenceMapsLeaveTheDepthUnweighted() throws {
        try write(try ImageCodec.encode16([UInt16](repeating: 1000, count: 16 * 12), width: 16, height: 12), "0001_depth.png")
        let cases: [(Data, String)] = [
            (try ImageCodec.encode(GrayImage(width: 8, height: 6, fill: 2)), "is 8×6 but its depth map is 16×12"),
            (try ImageCodec.encode(GrayImage(width: 16, height: 12, fill: 255)), "has values above 2"),
            (Data([0x89, 0x50]), "is not a readable 8-bit single-channel confidence map"),
        ]
        for (data, fragment) in cases {
            try write(data, "0001_depthConfidence.png")
            let sidecar = try XCTUnwrap(try load())
            XCTAssertNil(sidecar.confidence)
            XCTAssertEqual(Set(sidecar.weights), [1], fragment)
            let problem = try XCTUnwrap(sidecar.confidenceProblem, fragment)
            XCTAssertTrue(problem.file.lastPathComponent == "0001_depthConfidence.png" && "\(problem)".contains(fragment), "\(problem)")
        }
    }

    func testSidecarsWithoutTheirPhotoAreReported() throws {
        try write(Data([1]), "0002_depth.png")
        try write(Data([1]), "0002_depthConfidence.png")
        try write(Data([1]), "0001_depth.png")
        let orphans = DepthSidecar.orphans(in: folder, photos: [folder.appendingPathComponent(photo)])
        XCTAssertEqual(orphans.map(\.file.lastPathComponent), ["0002_depth.png", "0002_depthConfidence.png"])
        XCTAssertTrue(orphans[0].problem.contains("missing image"))
    }
}
