import Foundation
import ReconstructionCore
import XCTest

final class SurfaceAccuracyTests: XCTestCase {
    func testIdenticalMeshesScoreFOneAndZeroChamfer() throws {
        let mesh = TestMeshes.sphere(radius: 1.5, subdivisions: 3)
        let result = try SurfaceAccuracy.evaluate(reconstruction: mesh, groundTruth: mesh)
        XCTAssertEqual(result.precision, 1)
        XCTAssertEqual(result.recall, 1)
        XCTAssertEqual(result.fScore, 1)
        XCTAssertLessThan(result.chamferDistanceMetres, 1e-6)
        XCTAssertLessThan(result.reconstructionToGroundTruth.maxMetres, 1e-5)
        let bounds = try XCTUnwrap(mesh.bounds)
        let diagonal = Double(simdLength(bounds.max - bounds.min))
        XCTAssertEqual(result.groundTruthDiagonalMetres, diagonal, accuracy: 1e-6)
        XCTAssertEqual(result.thresholdMetres, 0.01 * diagonal, accuracy: 1e-9)
        XCTAssertGreaterThan(result.groundTruthToReconstruction.sampleCount, 1000)
    }

    /// Concentric spheres 1 m and 1.01 m: every distance is the 1 cm radius difference (to
    /// within the faceting), so precision and recall jump from 0 to 1 as τ crosses 1 cm.
    func testConcentricSpheresMeasureTheRadiusDifferenceAndSwitchAtTau() throws {
        let truth = TestMeshes.sphere(radius: 1, subdivisions: 4)
        let larger = TestMeshes.sphere(radius: 1.01, subdivisions: 4)
        var options = SurfaceAccuracy.Options()
        options.thresholdMetres = 0.0095
        options.sampleCount = 20_000
        let below = try SurfaceAccuracy.measure(reconstruction: larger, groundTruth: truth, options: options)
        for d in below.reconstructionToGroundTruthMetres + below.groundTruthToReconstructionMetres {
            XCTAssertEqual(d, 0.01, accuracy: 0.0003)
        }
        XCTAssertEqual(below.accuracy.chamferDistanceMetres, 0.01, accuracy: 0.0002)
        XCTAssertEqual(below.accuracy.reconstructionToGroundTruth.medianMetres, 0.01, accuracy: 0.0002)
        XCTAssertEqual(below.accuracy.precision, 0)
        XCTAssertEqual(below.accuracy.recall, 0)
        XCTAssertEqual(below.accuracy.fScore, 0)

        options.thresholdMetres = 0.0105
        let above = try SurfaceAccuracy.evaluate(reconstruction: larger, groundTruth: truth, options: options)
        XCTAssertEqual(above.precision, 1)
        XCTAssertEqual(above.recall, 1)
        XCTAssertEqual(above.thresholdMetres, 0.0105)
    }

    func testHalfTheSurfaceHasFullPrecisionAndHalfRecall() throws {
        let truth = TestMeshes.sphere(radius: 1, subdivisions: 4)
        let half = TestMeshes.filtered(truth) { $0.z > 0 }
        let result = try SurfaceAccuracy.evaluate(reconstruction: half, groundTruth: truth)
        XCTAssertEqual(result.precision, 1)
        // Half, plus the band within τ (≈ 3.5 cm) below the cut: about τ / 2 of the sphere.
        XCTAssertEqual(result.recall, 0.5 + result.thresholdMetres / 2, accuracy: 0.015)
        XCTAssertEqual(result.fScore, 2 * result.recall / (1 + result.recall), accuracy: 1e-12)
        // The far pole of the ground truth is about √2 m from the cut rim.
        XCTAssertEqual(result.groundTruthToReconstruction.maxMetres, 2.0.squareRoot(), accuracy: 0.02)
    }

    func testCroppingDropsBackgroundPointsOfAPointCloud() throws {
        let truth = TestMeshes.grid(size: 1, cells: 8)
        var cloud = PointCloud(positions: truth.sampledPoints(count: 20_000, seed: 9))
        // A "ground plane" far from the object: 5 000 points 3 m away.
        var random = TestRandom(seed: 4)
        cloud.positions += (0..<5000).map { _ in SIMD3(random.uniform(-4...5), random.uniform(-4...5), -3) }
        var options = SurfaceAccuracy.Options()
        let uncropped = try SurfaceAccuracy.evaluate(reconstruction: cloud, groundTruth: truth, options: options)
        XCTAssertEqual(uncropped.precision, 0.8, accuracy: 1e-9)
        XCTAssertNil(uncropped.cropBox)
        options.cropMarginFraction = 0.1
        let cropped = try SurfaceAccuracy.evaluate(reconstruction: cloud, groundTruth: truth, options: options)
        XCTAssertEqual(cropped.precision, 1)
        XCTAssertEqual(cropped.samplesOutsideCrop, 5000)
        XCTAssertGreaterThan(cropped.recall, 0.99)
        let box = try XCTUnwrap(cropped.cropBox)
        XCTAssertEqual(box.centre.x, 0.5, accuracy: 1e-6)
        XCTAssertEqual(box.halfExtents.x, 0.5 + 0.1 * 2.0.squareRoot(), accuracy: 1e-6)
    }

    func testCroppingAMeshKeepsOnlyTheObjectRegion() throws {
        let truth = TestMeshes.grid(size: 1, cells: 8)
        var scene = truth
        scene.append(TestMeshes.grid(size: 10, cells: 4, height: -2))  // a large ground 2 m below
        var options = SurfaceAccuracy.Options()
        options.cropMarginFraction = 0.05
        let result = try SurfaceAccuracy.evaluate(reconstruction: scene, groundTruth: truth, options: options)
        XCTAssertEqual(result.precision, 1)
        XCTAssertEqual(result.recall, 1)
    }

    func testEmptyInputsAreReportedAsErrors() {
        let truth = TestMeshes.grid()
        XCTAssertThrowsError(try SurfaceAccuracy.evaluate(reconstruction: PointCloud(), groundTruth: truth)) {
            XCTAssertEqual($0 as? SurfaceAccuracyError, .emptyReconstruction(cropped: false))
        }
        var options = SurfaceAccuracy.Options()
        options.cropMarginFraction = 0
        let far = PointCloud(positions: [[50, 50, 50]])
        XCTAssertThrowsError(try SurfaceAccuracy.evaluate(reconstruction: far, groundTruth: truth, options: options)) {
            XCTAssertEqual($0 as? SurfaceAccuracyError, .emptyReconstruction(cropped: true))
        }
        XCTAssertThrowsError(try SurfaceAccuracy.evaluate(reconstruction: truth, groundTruth: TriangleMesh())) {
            XCTAssertEqual($0 as? SurfaceAccuracyError, .emptyGroundTruth)
        }
    }

    func testResultRoundTripsThroughJSON() throws {
        let truth = TestMeshes.grid()
        let result = try SurfaceAccuracy.evaluate(reconstruction: truth, groundTruth: truth)
        let data = try JSONEncoder().encode(result)
        XCTAssertEqual(try JSONDecoder().decode(SurfaceAccuracy.self, from: data), result)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNotNil(object["fScore"])
        XCTAssertNotNil(object["thresholdMetres"])
    }
}
