import Foundation
import Regression
import ReconstructionCore
import XCTest

final class SurfaceEvaluationTests: XCTestCase {
    /// The surface is aligned with the cameras `evaluate-poses` scores: photos re-encoded under
    /// another extension (`0001.jpg` estimated, `0001.png` true) still match their ground truth.
    func testAlignmentMatchesPhotosReEncodedUnderAnotherExtension() throws {
        let truth = (0..<5).map { i in
            NamedPose(name: String(format: "%04d.png", i),
                      worldFromCamera: RigidTransform(rotation: .identity, translation: Vector3(Double(i), 0.1 * Double(i * i), Double(i % 2))))
        }
        let shift = Vector3(1, -2, 0.5)
        let estimated = truth.map { pose in
            NamedPose(name: pose.name.replacingOccurrences(of: ".png", with: ".jpg"),
                      worldFromCamera: RigidTransform(rotation: .identity, translation: 0.5 * (pose.worldFromCamera!.translation - shift)))
        }
        let similarity = try XCTUnwrap(SurfaceEvaluation.alignment(estimated: estimated, groundTruth: truth))
        for (e, t) in zip(estimated, truth) {
            XCTAssertLessThan(similarity.apply(e.worldFromCamera!.translation).distance(to: t.worldFromCamera!.translation), 1e-9)
        }
        XCTAssertNil(SurfaceEvaluation.alignment(estimated: estimated.map { NamedPose(name: "IMG_" + $0.name, worldFromCamera: $0.worldFromCamera) },
                                                 groundTruth: truth), "names that match nothing")
    }
}
