import Reconstruction
import XCTest

final class StepSharesTests: XCTestCase {
    enum Step: Hashable, Sendable { case first, second, third, absent }

    func testAStepStartsWhereTheOnesBeforeItEnd() {
        let shares = StepShares<Step>([(.first, 1), (.second, 3), (.third, 0)])
        XCTAssertEqual(shares.fraction(.first, 0), 0)
        XCTAssertEqual(shares.fraction(.first, 1), 0.25, accuracy: 1e-12)
        XCTAssertEqual(shares.fraction(.second, 0), 0.25, accuracy: 1e-12)
        XCTAssertEqual(shares.fraction(.second, 0.5), 0.625, accuracy: 1e-12)
        XCTAssertEqual(shares.fraction(.second, 1), 1, accuracy: 1e-12)
        XCTAssertEqual(shares.fraction(.third, 0.5), 1, accuracy: 1e-12, "a step without a share adds nothing")
    }

    func testFractionsOutsideTheRangeAndUnknownStepsAreClamped() {
        let shares = StepShares<Step>([(.first, 2), (.second, 2)])
        XCTAssertEqual(shares.fraction(.first, -1), 0)
        XCTAssertEqual(shares.fraction(.second, 7), 1)
        XCTAssertEqual(shares.fraction(.absent, 0.5), 0)
    }
}
