import BatchRunner
import Foundation
import Reconstruction
import XCTest

/// Which failures of a job the runner retries: those the same photos would not repeat.
final class SessionJobExecutorTests: XCTestCase {
    func testFailuresTheSamePhotosRepeatAreNotRetried() {
        // Stereo that finds no view to match fails the same way every time (it was retried twice,
        // 10 and 20 s later, before the job failed).
        XCTAssertTrue(SessionJobExecutor.isDeterministic(DenseStereo.DenseStereoError.noUsableViews([])))
        XCTAssertTrue(SessionJobExecutor.isDeterministic(PoseEstimation.PoseEstimationError.reconstructionFailed("no pair")))
        // A photo that could not be read now may be readable on the next attempt (a network file system).
        XCTAssertFalse(SessionJobExecutor.isDeterministic(DenseStereo.DenseStereoError.unreadableImage(name: "a.jpg", reason: "I/O error")))
        XCTAssertFalse(SessionJobExecutor.isDeterministic(CocoaError(.fileWriteOutOfSpace)))
    }
}
