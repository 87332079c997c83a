import Reconstruction
import ReconstructionCore
import Regression
import XCTest

/// The session's stereo size follows the largest requested detail level unless it is set.
final class FolderModelStagesTests: XCTestCase {
    func testStereoSizeFollowsTheLargestRequestedLevelUnlessSet() {
        let custom = CustomDetailSpecification()
        var stages = FolderModelStages()
        XCTAssertEqual(stages.denseOptions(for: [.preview, .reduced], custom: custom).stereo.maxImageDimension, 768)
        XCTAssertEqual(stages.denseOptions(for: [.preview, .medium], custom: custom).stereo.maxImageDimension, 1024)
        XCTAssertEqual(stages.denseOptions(for: [.full, .preview], custom: custom).stereo.maxImageDimension, 1536)
        XCTAssertEqual(stages.denseOptions(for: [], custom: custom).stereo.maxImageDimension,
                       DenseRun.Options().stereo.maxImageDimension, "no model request: the dense options as given")

        stages.stereoImageDimension = 640
        XCTAssertEqual(stages.denseOptions(for: [.full], custom: custom).stereo.maxImageDimension, 640, "an explicit size wins")
        XCTAssertEqual(stages.stereoImageDimension(for: [.full], custom: custom), 640, "and the session's time estimate sees it")
        XCTAssertEqual(FolderModelStages().stereoImageDimension(for: [.medium], custom: custom), 1024)
        // Only the stereo size changes; the checkpoint key (the options' description) differs with it.
        var expected = stages.dense
        expected.stereo.maxImageDimension = 640
        XCTAssertEqual("\(stages.denseOptions(for: [.full], custom: custom))", "\(expected)")
        XCTAssertNotEqual("\(FolderModelStages().denseOptions(for: [.full], custom: custom))",
                          "\(FolderModelStages().denseOptions(for: [.preview], custom: custom))")
    }
}
