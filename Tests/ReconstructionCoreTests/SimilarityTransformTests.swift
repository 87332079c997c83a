import ReconstructionCore
import XCTest

final class SimilarityTransformTests: XCTestCase {
    func testAligningRecoversAKnownSimilarityExactly() throws {
        let truth = SimilarityTransform(scale: 2.5, rotation: UnitQuaternion(axis: Vector3(1, 2, 3), angleRadians: 0.7).matrix,
                                        translation: Vector3(-1, 4, 0.5))
        let source = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1), Vector3(1, 1, 1), Vector3(-2, 3, 0.5)]
        let target = source.map(truth.apply)
        let estimate = try XCTUnwrap(SimilarityTransform.aligning(source, onto: target))
        XCTAssertEqual(estimate.scale, 2.5, accuracy: 1e-12)
        for (s, t) in zip(source, target) { XCTAssertLessThan(estimate.apply(s).distance(to: t), 1e-10) }
    }

    func testAligningRefusesFewerThanThreePoints() {
        XCTAssertNil(SimilarityTransform.aligning([Vector3(0, 0, 0), Vector3(1, 0, 0)], onto: [Vector3(0, 0, 0), Vector3(1, 0, 0)]))
    }
}
