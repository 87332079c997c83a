import Foundation
import Regression
import XCTest

final class RegressionManifestTests: XCTestCase {
    private func decode(_ json: String) throws -> RegressionManifest {
        try JSONDecoder().decode(RegressionManifest.self, from: Data(json.utf8))
    }

    func testDecodesBothSourcesAndFiltersBySubset() throws {
        let manifest = try decode("""
            {"datasets": [
              {"name": "vase", "synthetic": {"scene": "textured-vase", "views": 40, "seed": 1, "width": 1024, "height": 768},
               "subsets": ["ci"], "intrinsics": "given",
               "thresholds": {"poses.registered_fraction": {"min": 1}, "poses.rotation_error_median_deg": {"max": 0.05}}},
              {"name": "fountain", "path": "../../shared/datasets/strecha/fountain-P11", "subsets": ["full"],
               "intrinsics": "given", "thresholds": {"poses.position_error_median_m": {"max": 0.0024}}}
            ]}
            """)
        try manifest.validate(file: "m.json")
        XCTAssertEqual(manifest.datasets(inSubset: "ci").map(\.name), ["vase"])
        XCTAssertEqual(manifest.datasets(inSubset: nil).map(\.name), ["vase", "fountain"])
        XCTAssertEqual(manifest.datasets[0].synthetic?.views, 40)
    }

    func testRejectsDuplicateNamesUnknownMetricsAndAmbiguousSources() throws {
        let duplicate = RegressionManifest(datasets: [
            .init(name: "a", path: "x", thresholds: [:]), .init(name: "a", path: "y", thresholds: [:]),
        ])
        XCTAssertThrowsError(try duplicate.validate(file: "m.json")) { XCTAssertTrue("\($0)".contains("appears twice")) }

        let unknown = RegressionManifest(datasets: [.init(name: "a", path: "x", thresholds: ["poses.speed": .init(max: 1)])])
        XCTAssertThrowsError(try unknown.validate(file: "m.json")) { XCTAssertTrue("\($0)".contains("unknown metric")) }

        let noSource = RegressionManifest(datasets: [.init(name: "a", thresholds: [:])])
        XCTAssertThrowsError(try noSource.validate(file: "m.json")) { XCTAssertTrue("\($0)".contains("exactly one")) }

        let emptyBound = RegressionManifest(datasets: [.init(name: "a", path: "x", thresholds: [Metric.registeredFraction: .init()])])
        XCTAssertThrowsError(try emptyBound.validate(file: "m.json"))
        // A name is the dataset's work folder: no path out of the output folder.
        for name in ["../../evil", "a/b", "..", ".hidden", ""] {
            let escaping = RegressionManifest(datasets: [.init(name: name, path: "x", thresholds: [:])])
            XCTAssertThrowsError(try escaping.validate(file: "m.json"), name) { XCTAssertTrue("\($0)".contains("must be a plain name"), "\($0)") }
        }
    }

    func testAnAbsoluteDatasetPathIsUsedAsGiven() {
        let runner = RegressionRunner(manifestDirectory: URL(fileURLWithPath: "/repo/Datasets"), workDirectory: URL(fileURLWithPath: "/tmp/w")) { _ in }
        XCTAssertEqual(runner.sceneDirectory("/data/scene").path, "/data/scene")
        XCTAssertEqual(runner.sceneDirectory("../shared/x").path, "/repo/shared/x")
    }

    func testJudgeFailsOnABrokenOrMissingMetricAndPassesOtherwise() {
        let dataset = RegressionManifest.Dataset(name: "d", path: "x", thresholds: [
            Metric.registeredFraction: .init(min: 1), Metric.rotationErrorMedian: .init(max: 0.05),
        ])
        XCTAssertEqual(DatasetOutcome.judge(dataset, metrics: [Metric.registeredFraction: 1, Metric.rotationErrorMedian: 0.02]).status, .passed)
        let broken = DatasetOutcome.judge(dataset, metrics: [Metric.registeredFraction: 1, Metric.rotationErrorMedian: 0.06])
        XCTAssertEqual(broken.status, .failed)
        XCTAssertEqual(broken.checks.filter { !$0.passed }.map(\.metric), [Metric.rotationErrorMedian])
        XCTAssertEqual(DatasetOutcome.judge(dataset, metrics: [Metric.registeredFraction: 1]).status, .failed)
        XCTAssertEqual(DatasetOutcome.judge(dataset, metrics: [Metric.registeredFraction: .nan, Metric.rotationErrorMedian: 0]).status, .failed)
    }

    func testTableShowsEveryCheckAndMarksFailures() {
        let dataset = RegressionManifest.Dataset(name: "vase", path: "x", thresholds: [Metric.rotationErrorMedian: .init(max: 0.05)])
        let table = RegressionTable.render([
            DatasetOutcome.judge(dataset, metrics: [Metric.rotationErrorMedian: 0.07]),
            DatasetOutcome(name: "fountain", status: .skipped, message: "../shared is absent"),
        ])
        let lines = table.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[1].contains("vase") && lines[1].contains("0.07") && lines[1].contains("≤ 0.05") && lines[1].hasSuffix("FAIL"))
        XCTAssertTrue(lines[2].contains("SKIPPED: ../shared is absent"))
    }
}
