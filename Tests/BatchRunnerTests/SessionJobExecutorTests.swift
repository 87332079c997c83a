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

    /// The photos a job could not place come in one note, naming at most ten, saying how many of
    /// the usable photos they are, and warning when they are most of them.
    func testUnplacedPhotosAreOneNoteThatWarnsWhenTheyAreMost() {
        let one = SessionJobExecutor.unplacedNote(["zz.png"], usable: 4)
        XCTAssertEqual(one, "not registered: zz.png (1 of 4 usable photos: no pose; the outputs hold the registered photos only)")
        let many = SessionJobExecutor.unplacedNote((1...14).map { "IMG_\($0).jpg" }, usable: 16)
        XCTAssertTrue(many.hasPrefix("not registered: IMG_1.jpg, IMG_2.jpg"), many)
        XCTAssertTrue(many.contains("IMG_10.jpg and 4 more (14 of 16 usable photos"), many)
        XCTAssertTrue(many.contains("most photos were not placed"), many)
    }

    func testTheSameFailureOfSeveralRequestsIsSaidOnce() {
        let message = SessionJobExecutor.failureMessage([("poses", "need at least 2 usable images"), ("pointCloud", "need at least 2 usable images"),
                                                         ("model a.usdz (reduced)", "need at least 2 usable images"),
                                                         ("writing outputs", "disk full"), ("writing outputs", "disk full")])
        XCTAssertEqual(message, "poses, pointCloud, model a.usdz (reduced): need at least 2 usable images; writing outputs: disk full")
    }
}
