import Reporting
import XCTest

final class AxisScaleTests: XCTestCase {
    func testNiceStepsAreOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
        XCTAssertEqual(AxisScale.niceStep(atLeast: 0.7), 1)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 1), 1)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 1.1), 2)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 2.2), 2.5)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 3), 5)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 0.0031), 0.005, accuracy: 1e-15)
        XCTAssertEqual(AxisScale.niceStep(atLeast: 6000), 10000)
    }

    func testNiceScaleCoversTheDataWithTicksOnMultiples() {
        let scale = AxisScale.nice(0.3, 9.6, targetTicks: 5)
        XCTAssertEqual(scale.step, 2)
        XCTAssertEqual(scale.lower, 0)
        XCTAssertEqual(scale.upper, 10)
        XCTAssertEqual(scale.ticks, [0, 2, 4, 6, 8, 10])
        XCTAssertEqual(scale.label(4), "4")
        let small = AxisScale.nice(-0.013, 0.012, targetTicks: 5)
        XCTAssertEqual(small.step, 0.005, accuracy: 1e-15)
        XCTAssertEqual(small.ticks.map(small.label), ["-0.015", "-0.010", "-0.005", "0.000", "0.005", "0.010", "0.015"])
        XCTAssertEqual(AxisScale(lower: 0, upper: 1, step: 0.25).ticks.map(AxisScale(lower: 0, upper: 1, step: 0.25).label),
                       ["0.00", "0.25", "0.50", "0.75", "1.00"])
        XCTAssertEqual(AxisScale.nice(3, 3).ticks.isEmpty, false, "a single value still gets an axis")
    }
}
