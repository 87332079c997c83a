import Foundation
import ReconstructionCore
import XCTest

final class PoseAccuracyTests: XCTestCase {
    /// Ground truth on a circle; the estimate is the same cameras in another similarity frame.
    func cameras(count: Int) -> [NamedPose] {
        (0..<count).map { i in
            let angle = Double(i) / Double(count) * 2 * Double.pi
            let centre = Vector3(5 * cos(angle), 5 * sin(angle), 1)
            let rotation = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: angle).matrix
            return NamedPose(name: "\(i).jpg", worldFromCamera: RigidTransform(rotation: rotation, translation: centre))
        }
    }

    func testAnEstimateInAnotherSimilarityFrameScoresZeroError() throws {
        let truth = cameras(count: 6)
        let s = 0.3, r = UnitQuaternion(axis: Vector3(1, -1, 2), angleRadians: 1.1).matrix, t = Vector3(2, 0, -3)
        let estimated = truth.map { pose in
            NamedPose(name: pose.name, worldFromCamera: RigidTransform(
                rotation: r * pose.worldFromCamera!.rotation, translation: s * (r * pose.worldFromCamera!.translation) + t))
        }
        let report = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertEqual(report.registeredCount, 6)
        XCTAssertLessThan(report.maxPositionError, 1e-9)
        XCTAssertLessThan(report.maxRotationErrorDegrees, 1e-6)
        XCTAssertEqual(report.alignmentScale, 1 / s, accuracy: 1e-9)
    }

    func testKnownPerturbationsAreMeasuredAndMissingCamerasCounted() throws {
        let truth = cameras(count: 6)
        var estimated = truth
        // Rotate one camera by 0.5° about its own axis: rotation error 0.5° for it, centres untouched.
        let tilt = UnitQuaternion(axis: Vector3(0, 1, 0), angleRadians: 0.5 * Double.pi / 180).matrix
        estimated[2].worldFromCamera!.rotation = estimated[2].worldFromCamera!.rotation * tilt
        estimated[5].worldFromCamera = nil
        let report = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertEqual(report.registeredCount, 5)
        XCTAssertEqual(report.cameraCount, 6)
        XCTAssertEqual(report.maxRotationErrorDegrees, 0.5, accuracy: 1e-9)
        XCTAssertLessThan(report.maxPositionError, 1e-9)
        XCTAssertFalse(report.cameras[5].registered)
    }

    func testPhotosReEncodedUnderAnotherExtensionMatchTheirGroundTruth() throws {
        // Ground truth named for PNG originals, poses for the JPEG copies; "3" is ambiguous (two
        // estimates share its stem), so it counts as unregistered rather than matched at random.
        let truth = cameras(count: 6).map { NamedPose(name: $0.name.replacingOccurrences(of: ".jpg", with: ".png"), worldFromCamera: $0.worldFromCamera) }
        var estimated = cameras(count: 6)
        estimated.append(NamedPose(name: "3.tif", worldFromCamera: estimated[0].worldFromCamera))
        let report = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertEqual(report.registeredCount, 5)
        XCTAssertEqual(report.cameras.map(\.registered), [true, true, true, false, true, true])
        XCTAssertLessThan(report.maxPositionError, 1e-9)
    }

    func testEstimatedCentresThatCoincideAreAnErrorSayingSo() {
        let truth = cameras(count: 5)
        let estimated = truth.map { NamedPose(name: $0.name, worldFromCamera: RigidTransform(rotation: .identity, translation: Vector3(1, 2, 3))) }
        XCTAssertThrowsError(try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)) { error in
            XCTAssertEqual(error as? PoseAccuracyError, .degenerateCentres(5))
            XCTAssertTrue("\(error)".contains("coincide or lie on one line"), "\(error)")
        }
    }

    func testTooFewCommonCamerasIsAnErrorShowingNamesFromBothSides() {
        let truth = cameras(count: 4)
        XCTAssertThrowsError(try PoseAccuracyReport.evaluate(estimated: Array(truth.prefix(2)), groundTruth: truth))
        let renamed = truth.map { NamedPose(name: "IMG_" + $0.name, worldFromCamera: $0.worldFromCamera) }
        XCTAssertThrowsError(try PoseAccuracyReport.evaluate(estimated: renamed, groundTruth: truth)) { error in
            XCTAssertEqual("\(error)", "only 0 registered camera(s) match the ground truth by name; at least 3 are needed to align "
                + "(registered: IMG_0.jpg, IMG_1.jpg, IMG_2.jpg; ground truth: 0.jpg, 1.jpg, 2.jpg)")
        }
        // Unregistered estimates are not named: the names shown are the ones that could have matched.
        var few = truth
        for i in 0..<3 { few[i].worldFromCamera = nil }
        XCTAssertThrowsError(try PoseAccuracyReport.evaluate(estimated: few, groundTruth: truth)) { error in
            XCTAssertTrue("\(error)".hasPrefix("only 1 registered camera(s)") && "\(error)".contains("(registered: 3.jpg;"), "\(error)")
        }
    }

    func testCamerasMissingByNameAreToldApartFromUnregisteredOnesAndExtraEstimatesAreListed() throws {
        let truth = cameras(count: 6)
        var estimated = truth
        estimated[1].name = "renamed.jpg"        // registered, but its ground truth is 1.jpg
        estimated[4].worldFromCamera = nil       // present, not registered
        estimated.append(NamedPose(name: "other-scene.jpg", worldFromCamera: truth[0].worldFromCamera))
        let report = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth)
        XCTAssertEqual(report.registeredCount, 4)
        XCTAssertEqual(report.cameras.map(\.registered), [true, false, true, true, false, true])
        XCTAssertEqual(report.cameras.map(\.hasEstimate), [true, false, true, true, true, true])
        XCTAssertEqual(report.unmatchedEstimates, ["renamed.jpg", "other-scene.jpg"])
    }

    func testRotationAngleIsAccurateForTinyAnglesAndNonOrthonormalInput() {
        let angle = 0.001 * Double.pi / 180
        var m = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: angle).matrix
        XCTAssertEqual(m.rotationAngleDegrees, 0.001, accuracy: 1e-9)
        // Six significant digits, as ground-truth files print them.
        m = Matrix3(rowMajor: m.m.map { ($0 * 1e6).rounded() / 1e6 })
        XCTAssertEqual(m.rotationAngleDegrees, 0.001, accuracy: 2e-4)
    }
}
