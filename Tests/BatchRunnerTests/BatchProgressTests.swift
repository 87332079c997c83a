import BatchRunner
import Foundation
import XCTest

/// The batch's time left comes from the running jobs' estimates and the mean job duration.
final class BatchProgressTests: XCTestCase {
    func testTimeLeftSpreadsQueuedWorkOverTheWorkers() {
        var progress = BatchProgress(queued: 5, workers: 2)
        progress.apply(.started(jobID: "a", attempt: 1, estimatedBytes: 0), now: 0)
        progress.apply(.started(jobID: "b", attempt: 1, estimatedBytes: 0), now: 0)
        XCTAssertNil(progress.etaSeconds(now: 1), "no estimate yet")
        progress.apply(.progress(jobID: "a", JobProgress(stage: "features", fraction: 0.5, etaSeconds: 4)), now: 4)
        progress.apply(.progress(jobID: "b", JobProgress(stage: "features", fraction: 0.5, etaSeconds: 4)), now: 4)
        // Mean job ≈ 4 s elapsed + 4 s left = 8 s; (4 + 4 + 3 × 8) / 2 = 16 s.
        XCTAssertEqual(progress.etaSeconds(now: 4) ?? -1, 16, accuracy: 1e-9)
        progress.apply(.completed(jobID: "a", seconds: 6, outputDirectory: URL(fileURLWithPath: "/"), files: 1), now: 6)
        XCTAssertEqual(progress.completed, 1)
        XCTAssertEqual(progress.queued, 3)
        // Mean of finished jobs (6 s): (4 + 3 × 6) / 2 = 11 s.
        XCTAssertEqual(progress.etaSeconds(now: 6) ?? -1, 11, accuracy: 1e-9)
    }

    func testAnEmptyQueueHasNothingLeft() {
        XCTAssertEqual(BatchProgress(queued: 0, workers: 1).etaSeconds(), 0)
    }
}
