import NodeODMServer
import XCTest

final class ByteRangeTests: XCTestCase {
    func testSingleRangesResolveAgainstTheFileSize() {
        XCTAssertEqual(ByteRange(header: "bytes=0-9", size: 100), .part(0...9))
        XCTAssertEqual(ByteRange(header: "bytes=90-", size: 100), .part(90...99))
        XCTAssertEqual(ByteRange(header: "bytes=-10", size: 100), .part(90...99))
        XCTAssertEqual(ByteRange(header: "bytes=-1000", size: 100), .part(0...99), "a suffix longer than the file is the file")
        XCTAssertEqual(ByteRange(header: "bytes=50-1000", size: 100), .part(50...99), "the end is clamped to the file")
        XCTAssertEqual(ByteRange(header: " Bytes=3 - 4 ", size: 100), .part(3...4))
        XCTAssertEqual(ByteRange(header: "bytes=99-99", size: 100), .part(99...99))
    }

    func testRangesPastTheEndAreUnsatisfiable() {
        XCTAssertEqual(ByteRange(header: "bytes=100-", size: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange(header: "bytes=200-300", size: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange(header: "bytes=-0", size: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange(header: "bytes=0-", size: 0), .unsatisfiable)
    }

    func testAnythingElseMeansTheWholeFile() {
        for header in [nil, "", "bytes=", "bytes=-", "bytes=9-3", "bytes=0-1,5-6", "items=0-9", "bytes=a-b",
                       "bytes=1.5-3", "bytes=+1-3", "bytes=١-٣", "bytes=99999999999999999999999-"] {
            XCTAssertEqual(ByteRange(header: header, size: 100), .whole, header ?? "nil")
        }
    }
}
