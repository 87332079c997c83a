import Foundation
import ReconstructionCore

/// Matches one image pair and verifies the matches geometrically.
public struct PairVerifier: Sendable {
    public struct Options: Sendable, Equatable {
        public var matcher = DescriptorMatcher.Options()
        /// Epipolar inlier threshold in pixels (calibrated cameras: Sampson distance via E).
        public var maxEpipolarErrorPixels = 1.5
        /// Epipolar threshold in pixels when the focal length is only a guess (fundamental matrix).
        public var maxEpipolarErrorUncalibratedPixels = 3.0
        /// Pairs with fewer inliers are discarded.
        public var minInliers = 20
        /// RANSAC confidence.
        public var confidence = 0.9999
        /// RANSAC iteration cap for the essential matrix (COLMAP's). A pair runs fewer draws
        /// when an inlier ratio of `minInlierRatio`, or `minInliers` of its matches, needs fewer.
        public var maxIterations = 10_000
        /// Lowest inlier ratio the essential-matrix RANSAC draws enough samples for (COLMAP's).
        public var minInlierRatio = 0.25
        /// RANSAC iteration cap for the fundamental matrix (seven-point samples need more draws).
        public var maxIterationsUncalibrated = 5_000
        /// A match whose keypoint moved at most this far between two photos of one camera is
        /// still, pixels (see `minStillMatches`).
        public var stillMatchPixels = 2.0
        /// When a pair of photos from one camera (equal intrinsics) has at least this many still
        /// matches, they are a large share of its matches (`minStillFraction`) and its other
        /// matches clearly move (`minMovingMedianFraction`), the still ones are dropped before
        /// verification. Something that keeps its place in the frame while the rest of the scene
        /// moves across it is fixed to the camera, such as the backdrop of a turntable capture. On
        /// a turntable such matches are most of a pair's, and RANSAC then misses the object's
        /// motion or keeps them among its inliers. (A small date stamp gives a few still matches,
        /// which stay and fail verification as outliers.) Two photos of one scene from different
        /// places share a few percent of still matches at most, and photos taken a small step
        /// apart (video frames) have no clearly moving majority, so both keep all their matches.
        public var minStillMatches = 20
        /// The other matches move clearly when their median displacement is at least this fraction
        /// of the photo's diagonal (1 %: 13 px at 1024 × 768, 50 px at 4032 × 3024).
        public var minMovingMedianFraction = 0.01
        /// Still matches are dropped only when they are at least this fraction of the pair's: the
        /// backdrop dominates. Where both cameras aim at one point of a surface, the surface
        /// around it keeps its place in both photos (its displacement grows with the square of
        /// the distance from the point) and gives a few percent of still matches of its own.
        public var minStillFraction = 0.25
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Why a pair was not verified.
    public enum Rejection: Error, Equatable {
        case tooFewMatches(Int)
        case tooFewInliers(Int)
        case estimationFailed(String)
    }

    /// Matches and verifies images `pair.first` / `pair.second`. `calibrated` selects the essential
    /// matrix (with the relative pose) over the fundamental matrix.
    public func verify(pair: ImagePair, features1: ImageFeatures, features2: ImageFeatures,
                       intrinsics1: CameraIntrinsics, intrinsics2: CameraIntrinsics, calibrated: Bool)
        -> Result<TwoViewGeometry, Rejection>
    {
        var matches: [(Int32, Int32)]
        do {
            matches = try DescriptorMatcher(options: options.matcher).match(features1.descriptors, features2.descriptors)
        } catch {
            return .failure(.estimationFailed("\(error)"))
        }
        if intrinsics1 == intrinsics2 { matches = movingMatches(matches, features1: features1, features2: features2) }
        guard matches.count >= options.minInliers else { return .failure(.tooFewMatches(matches.count)) }

        let candidate = TwoViewGeometry(pair: pair, keypoints1: matches.map(\.0), keypoints2: matches.map(\.1),
                                        secondFromFirst: nil, medianTriangulationAngleDegrees: nil)
        let views = Views(features1: features1, features2: features2, intrinsics1: intrinsics1, intrinsics2: intrinsics2)
        return calibrated ? essentialGeometry(candidate, views) : fundamentalGeometry(candidate, views)
    }

    /// `matches` without their still ones (keypoints within `stillMatchPixels` of the same place)
    /// when there are at least `minStillMatches` of them, they are at least `minStillFraction` of
    /// the matches, and the rest clearly move (median displacement at least
    /// `minMovingMedianFraction` of the diagonal); otherwise all of them.
    /// For photos of one camera (the caller checks that their intrinsics are equal).
    public func movingMatches(_ matches: [(Int32, Int32)], features1: ImageFeatures, features2: ImageFeatures) -> [(Int32, Int32)] {
        var moving: [(Int32, Int32)] = [], displacements: [Double] = []
        for (a, b) in matches {
            let p = features1.position(Int(a)), q = features2.position(Int(b))
            let d = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
            if d > options.stillMatchPixels {
                moving.append((a, b))
                displacements.append(d)
            }
        }
        let diagonal = Double(features1.imageWidth * features1.imageWidth + features1.imageHeight * features1.imageHeight).squareRoot()
        let still = matches.count - moving.count
        guard still >= options.minStillMatches, Double(still) >= options.minStillFraction * Double(matches.count),
              !displacements.isEmpty, Statistics.median(displacements) >= options.minMovingMedianFraction * diagonal
        else { return matches }
        return moving
    }

    /// Verifies an already matched pair again with an essential matrix under new intrinsics (a
    /// pair first verified with a fundamental matrix, once a focal length is known): keeps the
    /// matches that fit it, with the relative pose; nil when too few do.
    public func verifyCalibrated(_ g: TwoViewGeometry, features1: ImageFeatures, features2: ImageFeatures,
                                 intrinsics1: CameraIntrinsics, intrinsics2: CameraIntrinsics) -> TwoViewGeometry?
    {
        try? essentialGeometry(g, Views(features1: features1, features2: features2, intrinsics1: intrinsics1,
                                        intrinsics2: intrinsics2)).get()
    }

    /// The two images of a pair: their features and intrinsics.
    struct Views {
        var features1: ImageFeatures, features2: ImageFeatures
        var intrinsics1: CameraIntrinsics, intrinsics2: CameraIntrinsics
    }

    /// The matches of `candidate` that an essential matrix fits, with the relative pose.
    func essentialGeometry(_ candidate: TwoViewGeometry, _ views: Views) -> Result<TwoViewGeometry, Rejection> {
        let (n1, n2) = candidate.normalized(views.features1, views.features2, views.intrinsics1, views.intrinsics2)
        let focal = (views.intrinsics1.meanFocalLength + views.intrinsics2.meanFocalLength) / 2
        do {
            let estimate = try GeometryEstimators.relativePose(
                normalized1: n1, normalized2: n2,
                options: RansacOptions(maxError: options.maxEpipolarErrorPixels / focal, confidence: options.confidence,
                                       maxIterations: essentialIterationCap(matchCount: candidate.inlierCount)))
            return keep(candidate, estimate.inlierMask, pose: estimate.model, views)
        } catch {
            return .failure(.estimationFailed("\(error)"))
        }
    }

    /// The matches of `candidate` that a fundamental matrix fits (no pose).
    func fundamentalGeometry(_ candidate: TwoViewGeometry, _ views: Views) -> Result<TwoViewGeometry, Rejection> {
        let (pixels1, pixels2) = candidate.pixels(views.features1, views.features2)
        do {
            let estimate = try GeometryEstimators.fundamental(
                pixels1: pixels1, pixels2: pixels2,
                options: RansacOptions(maxError: options.maxEpipolarErrorUncalibratedPixels,
                                       confidence: options.confidence, maxIterations: options.maxIterationsUncalibrated))
            return keep(candidate, estimate.inlierMask, pose: nil, views)
        } catch {
            return .failure(.estimationFailed("\(error)"))
        }
    }

    /// The candidate's matches where `mask` holds, if there are enough, with the pose and its
    /// median triangulation angle.
    func keep(_ candidate: TwoViewGeometry, _ mask: [Bool], pose: RigidTransform?, _ views: Views)
        -> Result<TwoViewGeometry, Rejection>
    {
        let inlierCount = mask.lazy.filter { $0 }.count
        guard inlierCount >= options.minInliers else { return .failure(.tooFewInliers(inlierCount)) }
        var k1 = [Int32](), k2 = [Int32]()
        k1.reserveCapacity(inlierCount)
        k2.reserveCapacity(inlierCount)
        for i in mask.indices where mask[i] {
            k1.append(candidate.keypoints1[i])
            k2.append(candidate.keypoints2[i])
        }
        let angle = pose.map {
            Self.medianTriangulationAngle(pose: $0, features1: views.features1, features2: views.features2,
                                          keypoints1: k1, keypoints2: k2, intrinsics1: views.intrinsics1,
                                          intrinsics2: views.intrinsics2)
        }
        return .success(TwoViewGeometry(pair: candidate.pair, keypoints1: k1, keypoints2: k2, secondFromFirst: pose,
                                        medianTriangulationAngleDegrees: angle))
    }

    /// Draws that find an all-inlier five-point sample with `options.confidence` when a pair's
    /// inlier ratio is the least it could be and still pass: at least `minInlierRatio`, and at
    /// least `minInliers` of `matchCount`. A pair that does not overlap, with few matches, so
    /// stops long before `maxIterations`; an overlapping one stops earlier still, as RANSAC's own
    /// estimate of its inlier ratio rises.
    public func essentialIterationCap(matchCount: Int) -> Int {
        guard matchCount > 0 else { return 1 }
        let ratio = min(1, max(options.minInlierRatio, Double(options.minInliers) / Double(matchCount)))
        let allInliers = pow(ratio, 5)
        guard allInliers < 1 else { return 1 }
        let draws = log(1 - options.confidence) / log(1 - allInliers)
        return max(1, min(options.maxIterations, Int(draws.rounded(.up))))
    }

    /// Median ray angle over the inliers for a two-view pose (first camera at the origin).
    static func medianTriangulationAngle(pose: RigidTransform, features1: ImageFeatures, features2: ImageFeatures,
                                         keypoints1: [Int32], keypoints2: [Int32],
                                         intrinsics1: CameraIntrinsics, intrinsics2: CameraIntrinsics) -> Double
    {
        let centre2 = pose.cameraCentreInWorld
        let rotation2T = pose.rotation.transposed
        var angles: [Double] = []
        angles.reserveCapacity(keypoints1.count)
        for (a, b) in zip(keypoints1, keypoints2) {
            let p = features1.position(Int(a)), q = features2.position(Int(b))
            let n1 = intrinsics1.normalized(x: p.x, y: p.y), n2 = intrinsics2.normalized(x: q.x, y: q.y)
            let rays = [Triangulation.Ray(origin: .zero, direction: Vector3(n1.u, n1.v, 1)),
                        Triangulation.Ray(origin: centre2, direction: rotation2T * Vector3(n2.u, n2.v, 1))]
            if let x = Triangulation.point(closestTo: rays) {
                angles.append(Triangulation.angleDegrees(point: x, centre1: .zero, centre2: centre2))
            }
        }
        return Statistics.median(angles)
    }
}
