import Reconstruction
import XCTest

final class PairSelectionTests: XCTestCase {
    func testExhaustiveListsEveryPairOnce() {
        let pairs = PairSelection.exhaustive.pairs(count: 7)
        XCTAssertEqual(pairs.count, 21)
        XCTAssertEqual(Set(pairs).count, 21)
        XCTAssertTrue(pairs.allSatisfy { $0.first < $0.second })
    }

    func testSequentialCostGrowsLinearly() {
        let window = 5
        XCTAssertEqual(PairSelection.sequential(window: window).pairs(count: 100).count, 100 * window - window * (window + 1) / 2)
        XCTAssertTrue(PairSelection.sequential(window: window).pairs(count: 100).allSatisfy { $0.second - $0.first <= window })
    }

    func testAutomaticIsExhaustiveForSmallCapturesAndEstimatesLinearCostForLargeOnes() {
        XCTAssertEqual(PairSelection.automatic.pairs(count: 10).count, 45)
        XCTAssertEqual(PairSelection.automatic.estimatedPairCount(imageCount: 10), 45)
        XCTAssertEqual(PairSelection.sequential(window: 5).estimatedPairCount(imageCount: 100), 100 * 5 - 15)
        let large = PairSelection.automatic.estimatedPairCount(imageCount: 1000)
        XCTAssertGreaterThan(large, 1000 * 10 - 55, "at least the window")
        XCTAssertLessThan(large, 1000 * 20)
    }
}
