import CReconstruction
import Reconstruction
import ReconstructionCore
import XCTest

final class BundleAdjusterTests: XCTestCase {
    /// Noisy observations (σ = 0.5 px), poses perturbed by ~1° and 5 %, points by 5 cm: bundle
    /// adjustment must return to the true poses.
    func testRecoversKnownPosesFromNoisyObservations() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 5, seed: 11)
        var rng = SplitMix64(seed: 5)
        var problem = BundleAdjustmentProblem()
        let camera = problem.addCamera(scene.intrinsics, refine: [])
        for (i, truth) in scene.cameraFromWorld.enumerated() {
            var pose = truth
            if i > 0 {
                let wobble = UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()), angleRadians: 0.02).matrix
                pose = RigidTransform(rotation: wobble * truth.rotation, translation: truth.translation + Vector3(0.2, -0.1, 0.15))
            }
            _ = problem.addImage(cameraFromWorld: pose, camera: camera, fixed: i == 0)
        }
        // Gauge: camera 0 fixed; camera 1's translation along x fixed at its true value (scale).
        problem.cameraFromWorld[1].translation.x = scene.cameraFromWorld[1].translation.x
        problem.scaleAnchor = (image: 1, axis: 0)
        for (p, x) in scene.points.enumerated() {
            let index = problem.addPoint(x + Vector3(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)))
            for c in scene.cameraFromWorld.indices {
                let pixel = scene.pixel(point: p, camera: c)
                problem.addObservation(image: c, point: index, x: pixel.x + 0.5 * rng.gaussian(), y: pixel.y + 0.5 * rng.gaussian())
            }
        }
        var options = BundleAdjuster.Options()
        options.maxIterations = 100
        options.functionTolerance = 1e-10
        options.loss = .trivial
        let summary = try BundleAdjuster(options: options).solve(&problem)
        XCTAssertLessThan(summary.finalCost, summary.initialCost)
        // At the optimum the residual RMS is the injected noise (0.5 px) times √((N − P) / N):
        // N residuals, P free parameters (points, 4 free poses, minus the fixed scale coordinate).
        let n = Double(problem.observationImage.count * 2), parameters = Double(3 * 300 + 6 * 4 - 1)
        let rms = (2 * summary.finalCost / n).squareRoot()
        XCTAssertEqual(rms, 0.5 * ((n - parameters) / n).squareRoot(), accuracy: 0.03)
        for (estimate, truth) in zip(problem.cameraFromWorld, scene.cameraFromWorld) {
            XCTAssertLessThan((estimate.rotation.transposed * truth.rotation).rotationAngleDegrees, 0.05)
            XCTAssertLessThan(estimate.cameraCentreInWorld.distance(to: truth.cameraCentreInWorld), 0.02)
        }
    }

    func testRefinesAFocalLengthThatStartsWrong() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 5, seed: 12)
        var problem = BundleAdjustmentProblem()
        let camera = problem.addCamera(scene.intrinsicsWithWrongFocalLength, refine: [.focalLength])
        for (i, pose) in scene.cameraFromWorld.enumerated() { _ = problem.addImage(cameraFromWorld: pose, camera: camera, fixed: i == 0) }
        problem.scaleAnchor = (image: 1, axis: 0)
        try solveWithExactObservations(scene, &problem)
        XCTAssertEqual(problem.cameras[0].fx, 800, accuracy: 0.5)
        XCTAssertEqual(problem.cameras[0].fy, 800, accuracy: 0.5)
    }

    /// Photos from two cameras in one problem: one camera held, the other's focal length refined
    /// from a wrong start. Only the refined one moves, to the truth, and the poses stay right.
    func testHeldAndRefinedCamerasShareOneProblem() throws {
        let scene = SyntheticScene(pointCount: 300, cameraCount: 6, seed: 13)
        var problem = BundleAdjustmentProblem()
        let held = problem.addCamera(scene.intrinsics, refine: [])
        let refined = problem.addCamera(scene.intrinsicsWithWrongFocalLength, refine: [.focalLength])
        for (i, pose) in scene.cameraFromWorld.enumerated() {
            _ = problem.addImage(cameraFromWorld: pose, camera: i % 2 == 0 ? held : refined, fixed: i == 0)
        }
        problem.scaleAnchor = (image: 2, axis: 0)
        try solveWithExactObservations(scene, &problem)
        XCTAssertEqual(problem.cameras[held].fx, 800)
        XCTAssertEqual(problem.cameras[held].fy, 800)
        XCTAssertEqual(problem.cameras[refined].fx, 800, accuracy: 0.5)
        XCTAssertEqual(problem.cameras[refined].fy, 800, accuracy: 0.5)
        for (estimate, truth) in zip(problem.cameraFromWorld, scene.cameraFromWorld) {
            XCTAssertLessThan((estimate.rotation.transposed * truth.rotation).rotationAngleDegrees, 0.01)
            XCTAssertLessThan(estimate.cameraCentreInWorld.distance(to: truth.cameraCentreInWorld), 0.005)
        }
    }

    /// The Jacobians written out agree with numeric differences at every point the solver
    /// evaluates (radial distortion, poses away from the truth, noisy weighted observations), for
    /// held intrinsics and for a refined focal length and principal point; Ceres fails the solve on
    /// a mismatch. (Ceres' check steps each parameter by 1e-6 of its value, too little for k1 and
    /// k2: the next test checks those.)
    func testWrittenOutJacobiansMatchNumericDifferences() throws {
        for refine: BundleAdjustmentProblem.Refinement in [[], [.focalLength, .principalPoint]] {
            let scene = SyntheticScene(pointCount: 40, cameraCount: 4, seed: 14)
            var rng = SplitMix64(seed: 7)
            var lens = scene.intrinsics
            lens.k1 = -0.08
            lens.k2 = 0.02
            var start = lens
            start.fx *= 1.02
            start.fy *= 1.02
            start.cx += 3
            var problem = BundleAdjustmentProblem()
            let camera = problem.addCamera(refine.isEmpty ? lens : start, refine: refine)
            for (i, truth) in scene.cameraFromWorld.enumerated() {
                let wobble = UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()), angleRadians: 0.03).matrix
                let pose = i == 0 ? truth : RigidTransform(rotation: wobble * truth.rotation, translation: truth.translation + Vector3(0.1, -0.05, 0.2))
                _ = problem.addImage(cameraFromWorld: pose, camera: camera, fixed: i == 0)
            }
            problem.scaleAnchor = (image: 1, axis: 0)
            for x in scene.points {
                let index = problem.addPoint(x + Vector3(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)))
                for c in scene.cameraFromWorld.indices {
                    let pixel = try XCTUnwrap(lens.project(scene.cameraFromWorld[c].apply(x)))
                    problem.addObservation(image: c, point: index, x: pixel.x + rng.gaussian(), y: pixel.y + rng.gaussian(),
                                           weight: rng.uniform(0.5, 1))
                }
            }
            var options = BundleAdjuster.Options()
            options.maxIterations = 5
            options.checkGradients = true
            let summary = try BundleAdjuster(options: options).solve(&problem)
            XCTAssertLessThan(summary.finalCost, summary.initialCost, "refined: \(refine)")
        }
    }

    /// Every derivative of the reprojection residual (by the six intrinsics, the pose's seven
    /// coordinates and the point) against central differences, at random cameras, poses and points
    /// with strong distortion; steps of 1e-6 in absolute terms, so k2 is stepped as finely as the rest.
    func testReprojectionJacobiansMatchCentralDifferences() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<200 {
            let camera = [rng.uniform(500, 3000), rng.uniform(500, 3000), rng.uniform(300, 1600), rng.uniform(200, 1000),
                          rng.uniform(-0.3, 0.3), rng.uniform(-0.1, 0.1)]
            let rotation = UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()), angleRadians: rng.uniform(0, 3))
            let pose = rotation.array + [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)]
            // A point in front of the camera, within about 35° of its axis.
            let inCamera = Vector3(rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(3, 6))
            let world = rotation.matrix.transposed * (inCamera - Vector3(pose[4], pose[5], pose[6]))
            let point = world.array
            let observed = (rng.uniform(0, 3000), rng.uniform(0, 2000)), weight = rng.uniform(0.2, 1)
            func evaluate(_ c: [Double], _ q: [Double], _ x: [Double], jacobians: Bool) -> [Double] {
                var residual = [0.0, 0.0], byCamera = [Double](repeating: 0, count: 12)
                var byPose = [Double](repeating: 0, count: 14), byPoint = [Double](repeating: 0, count: 6)
                guard jacobians else {
                    rc_reprojection_jacobians(c, q, x, observed.0, observed.1, weight, &residual, nil, nil, nil)
                    return residual
                }
                rc_reprojection_jacobians(c, q, x, observed.0, observed.1, weight, &residual, &byCamera, &byPose, &byPoint)
                return byCamera + byPose + byPoint
            }
            let analytic = evaluate(camera, pose, point, jacobians: true)
            // Parameter j of the block: its column in the row-major 2×n Jacobian.
            let blocks = [(camera, 0, 6), (pose, 12, 7), (point, 26, 3)]
            for (blockIndex, (values, offset, width)) in blocks.enumerated() {
                for j in 0..<width {
                    let h = 1e-6
                    var plus = [camera, pose, point], minus = [camera, pose, point]
                    plus[blockIndex][j] += h
                    minus[blockIndex][j] -= h
                    let rPlus = evaluate(plus[0], plus[1], plus[2], jacobians: false)
                    let rMinus = evaluate(minus[0], minus[1], minus[2], jacobians: false)
                    for row in 0..<2 {
                        let numeric = (rPlus[row] - rMinus[row]) / (2 * h)
                        let written = analytic[offset + row * width + j]
                        let error = abs(written - numeric) / max(1, abs(written))
                        XCTAssertLessThan(error, 1e-5, "block \(blockIndex) parameter \(j) row \(row): \(written) vs \(numeric) (values \(values))")
                    }
                }
            }
        }
    }

    /// Two fixed cameras disagree about a point by 10 px; the point follows the heavier observation.
    func testObservationWeightsSetHowStronglyEachResidualPulls() throws {
        let scene = SyntheticScene(pointCount: 1, cameraCount: 2, seed: 3)
        func solve(weights: (Double, Double)) throws -> (Double, Double) {
            var problem = BundleAdjustmentProblem()
            let camera = problem.addCamera(scene.intrinsics, refine: [])
            for pose in scene.cameraFromWorld { _ = problem.addImage(cameraFromWorld: pose, camera: camera, fixed: true) }
            let point = problem.addPoint(scene.points[0])
            let a = scene.pixel(point: 0, camera: 0), b = scene.pixel(point: 0, camera: 1)
            problem.addObservation(image: 0, point: point, x: a.x, y: a.y, weight: weights.0)
            problem.addObservation(image: 1, point: point, x: b.x, y: b.y + 10, weight: weights.1)
            var options = BundleAdjuster.Options()
            options.loss = .trivial
            options.functionTolerance = 1e-12
            try BundleAdjuster(options: options).solve(&problem)
            func error(_ c: Int, _ target: (x: Double, y: Double)) -> Double {
                let p = scene.intrinsics.project(problem.cameraFromWorld[c].apply(problem.points[0]))!
                return hypot(p.x - target.x, p.y - target.y)
            }
            return (error(0, a), error(1, (b.x, b.y + 10)))
        }
        let equal = try solve(weights: (1, 1))
        XCTAssertEqual(equal.0, equal.1, accuracy: 0.5)
        let skewed = try solve(weights: (1, 0.1))
        XCTAssertLessThan(skewed.0, 0.05 * skewed.1)
    }

    func testOutOfRangeIndicesAreRejectedNotCrashed() {
        var problem = BundleAdjustmentProblem()
        let camera = problem.addCamera(CameraIntrinsics(width: 10, height: 10, fx: 10, fy: 10, cx: 5, cy: 5), refine: [])
        _ = problem.addImage(cameraFromWorld: .identity, camera: camera, fixed: false)
        _ = problem.addPoint(Vector3(0, 0, 1))
        problem.addObservation(image: 3, point: 0, x: 1, y: 1)
        XCTAssertThrowsError(try BundleAdjuster().solve(&problem)) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
    }

    /// Adds every point of `scene` at its true position, seen without noise by every camera, and
    /// solves to a tight tolerance.
    private func solveWithExactObservations(_ scene: SyntheticScene, _ problem: inout BundleAdjustmentProblem) throws {
        for (p, x) in scene.points.enumerated() {
            let index = problem.addPoint(x)
            for c in scene.cameraFromWorld.indices {
                let pixel = scene.pixel(point: p, camera: c)
                problem.addObservation(image: c, point: index, x: pixel.x, y: pixel.y)
            }
        }
        var options = BundleAdjuster.Options()
        options.maxIterations = 100
        options.functionTolerance = 1e-12
        try BundleAdjuster(options: options).solve(&problem)
    }
}

private extension SyntheticScene {
    /// The scene's intrinsics with the focal length 5 % short (760 instead of 800 px).
    var intrinsicsWithWrongFocalLength: CameraIntrinsics {
        var wrong = intrinsics
        wrong.fx = 760
        wrong.fy = 760
        return wrong
    }
}
