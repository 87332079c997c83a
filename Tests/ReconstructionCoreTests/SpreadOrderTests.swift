import ReconstructionCore
import XCTest

final class SpreadOrderTests: XCTestCase {
    func testEveryCountGetsAPermutation() {
        for count in 0..<300 {
            XCTAssertEqual(spreadOrder(count).sorted(), Array(0..<count), "count \(count)")
        }
    }

    /// Work done in this order samples the whole range early: from a tenth of the way on (at
    /// least 8 items), the indices visited so far average within 15 % of the range's middle. List
    /// order is 45 % off at a tenth.
    func testEveryPrefixFromATenthOnSamplesTheWholeRange() {
        for count in 3..<600 {
            let order = spreadOrder(count)
            var sum = 0
            for (k, index) in order.enumerated() {
                sum += index
                let length = k + 1
                guard length >= min(count, max(8, (count + 9) / 10)) else { continue }
                let offset = abs(Double(sum) / Double(length) - Double(count - 1) / 2) / Double(count)
                XCTAssertLessThanOrEqual(offset, 0.15, "count \(count), first \(length)")
            }
        }
    }
}
