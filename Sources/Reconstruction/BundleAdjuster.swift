import CReconstruction
import ReconstructionCore

/// A bundle-adjustment problem in flat buffers, ready for the Ceres kernel.
public struct BundleAdjustmentProblem: Sendable {
    /// Which intrinsics a camera lets the solver refine.
    public struct Refinement: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let focalLength = Refinement(rawValue: Int32(RC_REFINE_FOCAL))
        public static let principalPoint = Refinement(rawValue: Int32(RC_REFINE_PRINCIPAL_POINT))
        public static let k1 = Refinement(rawValue: Int32(RC_REFINE_K1))
        public static let k2 = Refinement(rawValue: Int32(RC_REFINE_K2))
    }

    public var cameras: [CameraIntrinsics] = []
    public var cameraRefinement: [Refinement] = []
    public var cameraFromWorld: [RigidTransform] = []
    public var imageCamera: [Int] = []
    public var poseFixed: [Bool] = []
    /// An image whose translation along `scaleAnchorAxis` is held fixed to remove the scale gauge.
    public var scaleAnchor: (image: Int, axis: Int)?
    public var points: [Vector3] = []
    public var observationImage: [Int32] = []
    public var observationPoint: [Int32] = []
    /// Observed pixels, flat (x, y).
    public var observationPixels: [Double] = []
    /// Per observation, the weight of its residual (1 / its noise level relative to a unit-noise keypoint).
    public var observationWeights: [Double] = []

    public init() {}

    public mutating func addCamera(_ intrinsics: CameraIntrinsics, refine: Refinement) -> Int {
        cameras.append(intrinsics)
        cameraRefinement.append(refine)
        return cameras.count - 1
    }

    public mutating func addImage(cameraFromWorld pose: RigidTransform, camera: Int, fixed: Bool) -> Int {
        cameraFromWorld.append(pose)
        imageCamera.append(camera)
        poseFixed.append(fixed)
        return cameraFromWorld.count - 1
    }

    public mutating func addPoint(_ p: Vector3) -> Int {
        points.append(p)
        return points.count - 1
    }

    public mutating func addObservation(image: Int, point: Int, x: Double, y: Double, weight: Double = 1) {
        observationWeights.append(weight)
        observationImage.append(Int32(image))
        observationPoint.append(Int32(point))
        observationPixels.append(x)
        observationPixels.append(y)
    }
}

/// Runs bundle adjustment (Ceres) on a `BundleAdjustmentProblem`.
public struct BundleAdjuster: Sendable {
    public enum Loss: Sendable, Equatable { case trivial, huber, cauchy }

    public struct Options: Sendable, Equatable {
        /// Solver iteration cap.
        public var maxIterations = 50
        /// Robust loss on reprojection residuals.
        public var loss: Loss = .huber
        /// Residual (pixels) beyond which the robust loss down-weights.
        public var lossScalePixels = 1.0
        /// Relative cost decrease that ends the solve.
        public var functionTolerance = 1e-6
        /// Solver threads.
        public var threads = 2
        /// Compare the Jacobians with numeric differences at every evaluation (Ceres'
        /// `check_gradients`, to 1e-6 relative); a mismatch fails the solve. Meant for tests of
        /// the written-out Jacobians: it costs a numeric differentiation per evaluation, and its
        /// steps (1e-6 of each value) are too small for small parameters such as k1 and k2, whose
        /// derivatives are checked on their own (`rc_reprojection_jacobians`).
        public var checkGradients = false
        public init() {}
    }

    public struct Summary: Sendable {
        public var initialCost: Double
        public var finalCost: Double
        public var iterations: Int
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Solves in place: cameras, poses and points of `problem` are replaced by the refined values.
    @discardableResult
    public func solve(_ problem: inout BundleAdjustmentProblem) throws -> Summary {
        var cameras = problem.cameras.flatMap { [$0.fx, $0.fy, $0.cx, $0.cy, $0.k1, $0.k2] }
        let refine = problem.cameraRefinement.map(\.rawValue)
        var poses = problem.cameraFromWorld.flatMap { pose -> [Double] in
            UnitQuaternion(pose.rotation).array + pose.translation.array
        }
        let imageCamera = problem.imageCamera.map(Int32.init)
        let fixed = problem.poseFixed.map { UInt8($0 ? 1 : 0) }
        var points = problem.points.flatMap(\.array)
        var summary = rc_bundle_summary()
        var cOptions = rc_bundle_options(
            max_iterations: Int32(options.maxIterations),
            loss: options.loss == .trivial ? Int32(RC_LOSS_TRIVIAL) : options.loss == .huber ? Int32(RC_LOSS_HUBER) : Int32(RC_LOSS_CAUCHY),
            loss_scale_pixels: options.lossScalePixels, function_tolerance: options.functionTolerance,
            num_threads: Int32(options.threads), check_gradients: options.checkGradients ? 1 : 0)
        let anchor = problem.scaleAnchor
        try cameras.withUnsafeMutableBufferPointer { cameraBuffer in
            try poses.withUnsafeMutableBufferPointer { poseBuffer in
                try points.withUnsafeMutableBufferPointer { pointBuffer in
                    try refine.withUnsafeBufferPointer { refineBuffer in
                        try imageCamera.withUnsafeBufferPointer { imageCameraBuffer in
                            try fixed.withUnsafeBufferPointer { fixedBuffer in
                                try problem.observationImage.withUnsafeBufferPointer { obsImage in
                                    try problem.observationPoint.withUnsafeBufferPointer { obsPoint in
                                        try problem.observationPixels.withUnsafeBufferPointer { obsXY in
                                          try problem.observationWeights.withUnsafeBufferPointer { obsWeight in
                                            var c = rc_bundle_problem(
                                                camera_count: Int32(problem.cameras.count), cameras: cameraBuffer.baseAddress,
                                                camera_refine: refineBuffer.baseAddress,
                                                image_count: Int32(problem.cameraFromWorld.count), poses: poseBuffer.baseAddress,
                                                image_camera: imageCameraBuffer.baseAddress, pose_fixed: fixedBuffer.baseAddress,
                                                scale_anchor_image: Int32(anchor?.image ?? -1), scale_anchor_axis: Int32(anchor?.axis ?? 0),
                                                point_count: Int32(problem.points.count), points: pointBuffer.baseAddress,
                                                observation_count: Int32(problem.observationImage.count),
                                                observation_image: obsImage.baseAddress, observation_point: obsPoint.baseAddress,
                                                observation_xy: obsXY.baseAddress, observation_weight: obsWeight.baseAddress)
                                            try ShimError.check { rc_bundle_adjust(&c, &cOptions, &summary, $0) }
                                          }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for c in problem.cameras.indices {
            let v = Array(cameras[(6 * c)..<(6 * c + 6)])
            problem.cameras[c].fx = v[0]
            problem.cameras[c].fy = v[1]
            problem.cameras[c].cx = v[2]
            problem.cameras[c].cy = v[3]
            problem.cameras[c].k1 = v[4]
            problem.cameras[c].k2 = v[5]
        }
        for i in problem.cameraFromWorld.indices {
            let v = Array(poses[(7 * i)..<(7 * i + 7)])
            problem.cameraFromWorld[i] = RigidTransform(
                rotation: UnitQuaternion(w: v[0], x: v[1], y: v[2], z: v[3]).matrix, translation: Vector3(v[4], v[5], v[6]))
        }
        for p in problem.points.indices {
            problem.points[p] = Vector3(points[3 * p], points[3 * p + 1], points[3 * p + 2])
        }
        return Summary(initialCost: summary.initial_cost, finalCost: summary.final_cost, iterations: Int(summary.iterations))
    }
}
