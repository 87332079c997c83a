import ReconstructionCore

/// A geometrically verified image pair: the inlier matches and, when cameras are calibrated,
/// the relative pose.
public struct TwoViewGeometry: Sendable {
    public var pair: ImagePair
    /// Keypoint indices in the first image of each inlier match.
    public var keypoints1: [Int32]
    /// Keypoint indices in the second image, aligned with `keypoints1`.
    public var keypoints2: [Int32]
    /// Second camera from first (unit baseline), from the essential matrix; nil if uncalibrated.
    public var secondFromFirst: RigidTransform?
    /// Median angle between the two viewing rays of the inliers, in degrees (nil without a pose).
    public var medianTriangulationAngleDegrees: Double?

    public var inlierCount: Int { keypoints1.count }

    public init(pair: ImagePair, keypoints1: [Int32], keypoints2: [Int32], secondFromFirst: RigidTransform?,
                medianTriangulationAngleDegrees: Double?) {
        self.pair = pair
        self.keypoints1 = keypoints1
        self.keypoints2 = keypoints2
        self.secondFromFirst = secondFromFirst
        self.medianTriangulationAngleDegrees = medianTriangulationAngleDegrees
    }
}
