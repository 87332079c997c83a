import CReconstruction
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// PatchMatch stereo on exact renderings of textured planes with known depth and normals.
final class DepthMapEstimatorTests: XCTestCase {
    /// Accuracy of one estimate against the scene's truth, over the pixels with a depth and a
    /// cost below `maxCost`: depth within a relative `tolerance`, normals within `maxAngleDegrees`.
    struct Accuracy {
        var coverage: Double          // fraction of pixels with a true depth that got a depth
        var withinTolerance: Double   // fraction of those within the relative depth tolerance
        var normalsWithin: Double     // fraction of those with the normal within the angle
        var medianRelativeError: Double
        var medianNormalErrorDegrees: Double
    }

    static func accuracy(_ estimate: DepthMapEstimator.Estimate, scene: StereoTestScene, maxCost: Float = 0.5,
                         tolerance: Double = 0.005, maxAngleDegrees: Double = 10) -> Accuracy {
        let k = scene.intrinsics
        var truthCount = 0, validCount = 0, within = 0, normalsWithin = 0
        var errors: [Double] = []
        var angles: [Double] = []
        let rotation = scene.cameraFromWorld[0].rotation
        for y in 0..<k.height {
            for x in 0..<k.width {
                guard let hit = scene.hit(camera: 0, x: Double(x) + 0.5, y: Double(y) + 0.5) else { continue }
                truthCount += 1
                let i = y * k.width + x
                let d = Double(estimate.depth.metres[i])
                guard d > 0, estimate.costs[i] < maxCost else { continue }
                validCount += 1
                let relative = abs(d - hit.depth) / hit.depth
                errors.append(relative)
                if relative <= tolerance { within += 1 }
                let truthNormal = rotation * hit.normalInWorld
                let n = estimate.normalsInCamera[i]
                let cosine = Double(n.x) * truthNormal.x + Double(n.y) * truthNormal.y + Double(n.z) * truthNormal.z
                if cosine >= cos(maxAngleDegrees * Double.pi / 180) { normalsWithin += 1 }
                angles.append(acos(min(1, max(-1, cosine))) * 180 / Double.pi)
            }
        }
        errors.sort()
        angles.sort()
        return Accuracy(coverage: Double(validCount) / Double(max(1, truthCount)),
                        withinTolerance: Double(within) / Double(max(1, validCount)),
                        normalsWithin: Double(normalsWithin) / Double(max(1, validCount)),
                        medianRelativeError: errors.isEmpty ? 1 : errors[errors.count / 2],
                        medianNormalErrorDegrees: angles.isEmpty ? 180 : angles[angles.count / 2])
    }

    static func views(of scene: StereoTestScene) -> [DepthMapEstimator.View] {
        scene.cameraFromWorld.indices.map { c in
            DepthMapEstimator.View(image: scene.render(camera: c), intrinsics: scene.intrinsics,
                                   cameraFromWorld: scene.cameraFromWorld[c])
        }
    }

    static func estimator(portable: Bool = false) -> DepthMapEstimator {
        var options = DepthMapEstimator.Options()
        options.threads = 2
        options.portableKernel = portable
        return DepthMapEstimator(options: options)
    }

    func testSlantedPlaneDepthIsWithinHalfAPercentOnNinetyFivePercentOfPixels() throws {
        let scene = StereoTestScene.slantedPlane()
        let views = Self.views(of: scene)
        let estimate = try Self.estimator().estimate(reference: views[0], sources: Array(views[1...]), depthRange: 2...12)
        let result = Self.accuracy(estimate, scene: scene)
        print("slanted plane:", result)
        XCTAssertGreaterThan(result.coverage, 0.9)
        XCTAssertGreaterThanOrEqual(result.withinTolerance, 0.95)
        XCTAssertLessThan(result.medianNormalErrorDegrees, 3)
        XCTAssertGreaterThanOrEqual(result.normalsWithin, 0.9)
    }

    func testBoxCornerDepthsAndNormalsFollowBothPlanes() throws {
        let scene = StereoTestScene.boxCorner()
        let views = Self.views(of: scene)
        let estimate = try Self.estimator().estimate(reference: views[0], sources: Array(views[1...]), depthRange: 2...12)
        let result = Self.accuracy(estimate, scene: scene)
        print("box corner:", result)
        XCTAssertGreaterThan(result.coverage, 0.85)
        XCTAssertGreaterThanOrEqual(result.withinTolerance, 0.95)
        XCTAssertLessThan(result.medianNormalErrorDegrees, 3)
        XCTAssertGreaterThanOrEqual(result.normalsWithin, 0.85)
    }

    /// The portable kernel (what CPUs without AVX2 run) is as accurate as the vector one.
    func testPortableKernelIsAsAccurate() throws {
        let scene = StereoTestScene.slantedPlane()
        let views = Self.views(of: scene)
        let estimate = try Self.estimator(portable: true).estimate(reference: views[0], sources: Array(views[1...]), depthRange: 2...12)
        let result = Self.accuracy(estimate, scene: scene)
        XCTAssertGreaterThan(result.coverage, 0.9)
        XCTAssertGreaterThanOrEqual(result.withinTolerance, 0.95)
        XCTAssertLessThan(result.medianNormalErrorDegrees, 3)
    }

    /// The estimate does not depend on how many threads the kernel uses.
    func testThreadCountDoesNotChangeTheResult() throws {
        let scene = StereoTestScene.slantedPlane(width: 120, height: 90)
        let views = Self.views(of: scene)
        var one = DepthMapEstimator.Options()
        one.threads = 1
        var three = one
        three.threads = 3
        let a = try DepthMapEstimator(options: one).estimate(reference: views[0], sources: Array(views[1...]), depthRange: 2...12)
        let b = try DepthMapEstimator(options: three).estimate(reference: views[0], sources: Array(views[1...]), depthRange: 2...12)
        XCTAssertEqual(a, b)
    }
}
