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

extension TwoViewGeometry {
    /// The inlier matches' pixel positions in each image, flat (x, y) per match.
    func pixels(_ features1: ImageFeatures, _ features2: ImageFeatures) -> (first: [Double], second: [Double]) {
        var first = [Double](), second = [Double]()
        first.reserveCapacity(2 * inlierCount)
        second.reserveCapacity(2 * inlierCount)
        for (a, b) in zip(keypoints1, keypoints2) {
            let p = features1.position(Int(a)), q = features2.position(Int(b))
            first += [p.x, p.y]
            second += [q.x, q.y]
        }
        return (first, second)
    }

    /// The same in normalised image coordinates of each image's intrinsics.
    func normalized(_ features1: ImageFeatures, _ features2: ImageFeatures, _ intrinsics1: CameraIntrinsics,
                    _ intrinsics2: CameraIntrinsics) -> (first: [Double], second: [Double])
    {
        var (first, second) = pixels(features1, features2)
        for i in stride(from: 0, to: first.count, by: 2) {
            let u = intrinsics1.normalized(x: first[i], y: first[i + 1]), v = intrinsics2.normalized(x: second[i], y: second[i + 1])
            (first[i], first[i + 1], second[i], second[i + 1]) = (u.u, u.v, v.u, v.v)
        }
        return (first, second)
    }

    /// The share of the inliers that a homography also explains within `maxErrorPixels` (near 1:
    /// one plane or a pure rotation, where F and the relative pose are not determined).
    func homographyInlierShare(_ features1: ImageFeatures, _ features2: ImageFeatures, maxErrorPixels: Double) -> Double {
        let (pixels1, pixels2) = pixels(features1, features2)
        let options = RansacOptions(maxError: maxErrorPixels, confidence: 0.999, maxIterations: 2_000)
        let inliers = (try? GeometryEstimators.homography(pixels1: pixels1, pixels2: pixels2, options: options).inlierCount) ?? 0
        return Double(inliers) / Double(max(1, inlierCount))
    }
}
