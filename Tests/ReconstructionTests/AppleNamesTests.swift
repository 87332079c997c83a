import Reconstruction
import ReconstructionCore
import XCTest

/// Apple's names for the session's types say the same as ours.
final class AppleNamesTests: XCTestCase {
    func testABoxFromItsCornersHasThoseCornersAndSize() {
        let box = BoundingBox(min: Vector3(-1, 0, 2), max: Vector3(3, 0.5, 2.5))
        XCTAssertEqual(box.centre, Vector3(1, 0.25, 2.25))
        XCTAssertEqual(box.center, box.centre)
        XCTAssertEqual(box.halfExtents, Vector3(2, 0.25, 0.25))
        XCTAssertEqual(box.extents, Vector3(4, 0.5, 0.5))
        XCTAssertEqual(box.min, Vector3(-1, 0, 2))
        XCTAssertEqual(box.max, Vector3(3, 0.5, 2.5))
        // The robust estimate (which calls Swift's min and max beside the box's) still bounds its points.
        let estimated = BoundingBox.estimate(enclosing: [SIMD3(0, 0, 0), SIMD3(1, 2, 3)], trimmedFraction: 0, marginFraction: 0)
        XCTAssertEqual(estimated?.min, Vector3(0, 0, 0))
        XCTAssertEqual(estimated?.max, Vector3(1, 2, 3))
    }

    func testAPosesTranslationIsTheCameraPosition() {
        let worldFromCamera = RigidTransform(rotation: Matrix3(rows: Vector3(0, 0, 1), Vector3(1, 0, 0), Vector3(0, 1, 0)),
                                             translation: Vector3(0.5, -2, 7))
        let pose: PhotogrammetrySession.Pose = PhotogrammetrySession.Poses.Pose(
            worldFromCamera: worldFromCamera, intrinsics: CameraIntrinsics(width: 4, height: 3, fx: 2, fy: 2, cx: 2, cy: 1.5))
        XCTAssertEqual(pose.translation, SIMD3<Float>(0.5, -2, 7))
        XCTAssertEqual(worldFromCamera.inverse.cameraCentreInWorld.x, 0.5, accuracy: 1e-12)
    }

    /// Each pipeline stage is reported as one of Apple's, in the same order, and every one of
    /// Apple's stages is reached.
    func testPipelineStagesMapOntoApplesInOrder() {
        typealias AppleStage = PhotogrammetrySession.Output.ProcessingStage
        let apple = ProcessingStage.allCases.map(AppleStage.init)
        XCTAssertEqual(Set(apple), Set(AppleStage.allCases))
        let positions = apple.map { AppleStage.allCases.firstIndex(of: $0)! }
        XCTAssertEqual(positions, positions.sorted())
        XCTAssertEqual(AppleStage(.features), .preProcessing)
        XCTAssertEqual(AppleStage(.mapping), .imageAlignment)
        XCTAssertEqual(AppleStage(.dense), .pointCloudGeneration)
        XCTAssertEqual(AppleStage(.model), .textureMapping)
    }

    /// Code ported from Apple's platforms prints `localizedDescription`: it says what went wrong.
    func testErrorsSayWhatWentWrongThroughLocalizedDescription() {
        let errors: [any Error] = [
            PhotogrammetrySession.Error.duplicateSampleName("0001.jpg"),
            PoseEstimation.PoseEstimationError.reconstructionFailed("no initial pair"),
            ModelBuildError.emptySurface,
        ]
        for error in errors {
            XCTAssertEqual(error.localizedDescription, "\(error)")
            XCTAssertFalse(error.localizedDescription.contains("could not be completed"))
        }
    }
}
