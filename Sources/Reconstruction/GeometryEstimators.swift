import CReconstruction
import ReconstructionCore

/// Robust estimation settings shared by the RANSAC-based estimators.
public struct RansacOptions: Sendable, Equatable {
    /// Inlier threshold (units depend on the estimator; see each function).
    public var maxError: Double
    /// Probability of finding the best model.
    public var confidence: Double = 0.9999
    /// Iteration cap.
    public var maxIterations: Int = 10_000

    public init(maxError: Double, confidence: Double = 0.9999, maxIterations: Int = 10_000) {
        self.maxError = maxError
        self.confidence = confidence
        self.maxIterations = maxIterations
    }

    var c: rc_ransac_options {
        rc_ransac_options(max_error: maxError, confidence: confidence, max_iterations: Int32(maxIterations))
    }
}

/// A robustly estimated model and which correspondences support it.
public struct RobustEstimate<Model: Sendable>: Sendable {
    public var model: Model
    public var inlierMask: [Bool]
    public var inlierCount: Int { inlierMask.lazy.filter { $0 }.count }
}

/// Thin typed wrappers over the shim's robust estimators. Points are flat `[x0, y0, x1, y1, …]`.
public enum GeometryEstimators {
    /// Relative pose (second camera from first, unit translation) from normalised coordinates;
    /// `options.maxError` is in normalised units (pixels / focal length).
    public static func relativePose(normalized1: [Double], normalized2: [Double], options: RansacOptions)
        throws -> RobustEstimate<RigidTransform>
    {
        let n = normalized1.count / 2
        var rotation = [Double](repeating: 0, count: 9), translation = [Double](repeating: 0, count: 3)
        var mask = [UInt8](repeating: 0, count: n)
        var inliers: Int32 = 0
        var o = options.c
        try ShimError.check {
            rc_estimate_relative_pose(normalized1, normalized2, Int32(n), &o, &rotation, &translation, &mask, &inliers, $0)
        }
        let pose = RigidTransform(rotation: Matrix3(rowMajor: rotation),
                                  translation: Vector3(translation[0], translation[1], translation[2]))
        return RobustEstimate(model: pose, inlierMask: mask.map { $0 != 0 })
    }

    /// Fundamental matrix (row-major) from pixel coordinates; `options.maxError` in pixels.
    public static func fundamental(pixels1: [Double], pixels2: [Double], options: RansacOptions)
        throws -> RobustEstimate<Matrix3>
    {
        let n = pixels1.count / 2
        var f = [Double](repeating: 0, count: 9)
        var mask = [UInt8](repeating: 0, count: n)
        var inliers: Int32 = 0
        var o = options.c
        try ShimError.check { rc_estimate_fundamental(pixels1, pixels2, Int32(n), &o, &f, &mask, &inliers, $0) }
        return RobustEstimate(model: Matrix3(rowMajor: f), inlierMask: mask.map { $0 != 0 })
    }

    /// Homography (row-major) from pixel coordinates; `options.maxError` in pixels.
    public static func homography(pixels1: [Double], pixels2: [Double], options: RansacOptions)
        throws -> RobustEstimate<Matrix3>
    {
        let n = pixels1.count / 2
        var h = [Double](repeating: 0, count: 9)
        var mask = [UInt8](repeating: 0, count: n)
        var inliers: Int32 = 0
        var o = options.c
        try ShimError.check { rc_estimate_homography(pixels1, pixels2, Int32(n), &o, &h, &mask, &inliers, $0) }
        return RobustEstimate(model: Matrix3(rowMajor: h), inlierMask: mask.map { $0 != 0 })
    }

    /// Camera-from-world pose from world points and normalised image coordinates;
    /// `options.maxError` in normalised units, `focalLengthPixels` only conditions the problem.
    public static func absolutePose(worldPoints: [Vector3], normalized: [Double], focalLengthPixels: Double,
                                    options: RansacOptions) throws -> RobustEstimate<RigidTransform>
    {
        let n = worldPoints.count
        let flatWorld = worldPoints.flatMap(\.array)
        var rotation = [Double](repeating: 0, count: 9), translation = [Double](repeating: 0, count: 3)
        var mask = [UInt8](repeating: 0, count: n)
        var inliers: Int32 = 0
        var o = options.c
        try ShimError.check {
            rc_estimate_absolute_pose(flatWorld, normalized, Int32(n), &o, focalLengthPixels, &rotation, &translation,
                                      &mask, &inliers, $0)
        }
        let pose = RigidTransform(rotation: Matrix3(rowMajor: rotation),
                                  translation: Vector3(translation[0], translation[1], translation[2]))
        return RobustEstimate(model: pose, inlierMask: mask.map { $0 != 0 })
    }
}
