import Foundation
import Regression
import XCTest

final class ScalingMarkdownTests: XCTestCase {
    func run(views: Int, features: Double, total: Double) throws -> ScalingRun {
        let json = """
            {"views": \(views), "registered": \(views), "matchedPairs": \(views * 4),
             "stages": [{"stage": "features", "seconds": \(features), "peakResidentBytes": 104857600}],
             "totalSeconds": \(total), "peakResidentBytes": 104857600,
             "medianRotationErrorDegrees": 0.01, "medianPositionErrorRelative": 0.0001}
            """
        return try JSONDecoder().decode(ScalingRun.self, from: Data(json.utf8))
    }

    func testGrowthFactorsCompareConsecutiveRuns() throws {
        let table = ScalingRun.markdown([try run(views: 50, features: 10, total: 20), try run(views: 100, features: 30, total: 40)])
        XCTAssertTrue(table.contains("| 50 → 100 | 1.50 | 1.00 |"), table)
    }

    /// One view count gives no growth table, not a header without rows.
    func testASingleRunSaysGrowthNeedsTwoViewCounts() throws {
        let table = ScalingRun.markdown([try run(views: 20, features: 10, total: 20)])
        XCTAssertTrue(table.contains("| 20 | 20 | 80 | 10.0 (100) |"), table)
        XCTAssertFalse(table.contains("from → to"), table)
        XCTAssertTrue(table.contains("give two or more"), table)
    }
}
