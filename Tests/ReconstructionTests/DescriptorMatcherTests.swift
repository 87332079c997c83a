import Reconstruction
import XCTest

/// The matcher against a plain double-precision reference (cosines of the byte vectors, Lowe's
/// ratio on distances, the distance cap and the mutual check), on descriptors that use the whole
/// byte range: the integer products and their sign shift must not change a single decision.
final class DescriptorMatcherTests: XCTestCase {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func byte() -> UInt8 { UInt8(next() % 256) }
    }

    func reference(_ a: [UInt8], _ b: [UInt8], _ o: DescriptorMatcher.Options) -> Set<[Int32]> {
        let n = a.count / 128, m = b.count / 128
        func norm(_ d: [UInt8], _ i: Int) -> Double { sqrt((0..<128).reduce(0.0) { $0 + Double(d[128 * i + $1]) * Double(d[128 * i + $1]) }) }
        let na = (0..<n).map { norm(a, $0) }, nb = (0..<m).map { norm(b, $0) }
        var cos = [[Double]](repeating: [Double](repeating: 0, count: m), count: n)
        for i in 0..<n {
            for j in 0..<m {
                var dot = 0.0
                for k in 0..<128 { dot += Double(a[128 * i + k]) * Double(b[128 * j + k]) }
                cos[i][j] = na[i] > 0 && nb[j] > 0 ? dot / (na[i] * nb[j]) : 0
            }
        }
        var out = Set<[Int32]>()
        for i in 0..<n {
            let order = (0..<m).sorted { cos[i][$0] > cos[i][$1] }
            let j = order[0]
            let d1 = max(0, 2 - 2 * cos[i][j]), d2 = max(1e-12, 2 - 2 * cos[i][order[1]])
            guard d1 <= Double(o.maxDistance * o.maxDistance), d1 <= Double(o.maxRatio * o.maxRatio) * d2 else { continue }
            if o.crossCheck, (0..<n).max(by: { cos[$0][j] < cos[$1][j] }) != i { continue }
            out.insert([Int32(i), Int32(j)])
        }
        return out
    }

    func testMatchesEqualTheDoublePrecisionReferenceOverTheWholeByteRange() throws {
        // 420 columns: 26 whole groups of the scan's 16 lanes and a tail of 4; 300 rows: two row blocks.
        try checkAgainstReference(rows: 300, columns: 420, planted: 200, minimumMatches: 150)
    }

    func testSetsNarrowerThanOneLaneGroupMatchAsTheReference() throws {
        // 13 columns: the scan's tail alone, with no whole group of lanes.
        try checkAgainstReference(rows: 40, columns: 13, planted: 9, minimumMatches: 7)
    }

    func checkAgainstReference(rows n: Int, columns m: Int, planted: Int, minimumMatches: Int) throws {
        var g = Generator(state: 7)
        let a = (0..<(128 * n)).map { _ in g.byte() }
        var b = (0..<(128 * m)).map { _ in g.byte() }
        // `planted` of b's descriptors are noisy copies of a's (±6 per byte, clamped to 0…255); one is all zero.
        for t in 0..<planted {
            let i = (t * 7) % n, j = (t * 11) % m
            for k in 0..<128 {
                let noisy = Int(a[128 * i + k]) + Int(g.next() % 13) - 6
                b[128 * j + k] = UInt8(min(255, max(0, noisy)))
            }
        }
        for k in 0..<128 { b[128 * 5 + k] = 0 }
        XCTAssertGreaterThan(a.filter { $0 > 127 }.count, a.count / 3, "bytes above 127 exercise the signed shift")
        for crossCheck in [true, false] {
            var options = DescriptorMatcher.Options()
            options.crossCheck = crossCheck
            let found = Set(try DescriptorMatcher(options: options).match(a, b).map { [$0.0, $0.1] })
            let expected = reference(a, b, options)
            XCTAssertGreaterThanOrEqual(expected.count, minimumMatches, "the planted copies match")
            XCTAssertEqual(found, expected, "cross-check \(crossCheck)")
        }
    }

    func testFewerThanTwoDescriptorsGiveNoMatches() throws {
        XCTAssertEqual(try DescriptorMatcher().match([UInt8](repeating: 9, count: 128), [UInt8](repeating: 9, count: 256)).count, 0)
        XCTAssertEqual(try DescriptorMatcher().match([], []).count, 0)
    }
}
