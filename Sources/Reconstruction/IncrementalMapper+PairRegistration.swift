import Foundation
import ReconstructionCore

/// Registration through one verified pair, for an image that sees too few reconstructed points
/// for PnP but shares a well-supported pair with a registered image (typical of wide-baseline
/// captures, where three consecutive views overlap little while each two neighbours overlap well).
/// The pair's relative pose gives the rotation and the direction of the baseline from hundreds of
/// matches; only the baseline's length comes from the few reconstructed points both images see.
extension IncrementalMapper {
    /// A first pose for an unregistered image, from a pair with a registered one.
    struct PairRegistration {
        var image: Int
        var cameraFromWorld: RigidTransform
        /// Tracks with a point that the pair's inlier matches reach in both images (and that fix a
        /// positive baseline length).
        var sharedTracks: [Int]
        /// All such points, including those that fix no usable length: the support must reach half.
        var sharedCount: Int
        var pairInliers: Int
    }

    /// Registers an image through a pair once PnP can register nothing more, or returns nil when
    /// no pair qualifies. Images that PnP rejected for too small a share of inliers keep that
    /// verdict; those with too few points or inliers are tried. Each candidate is placed, its
    /// pair's tracks triangulated and the image adjusted with them; it is kept only if at least
    /// `minPairRegistrationPoints` (and at least half) of the shared points then reproject into
    /// it, and undone otherwise.
    mutating func registerThroughPair() -> Int? {
        var candidates: [PairRegistration] = []
        for g in geometries where g.inlierCount >= options.minPairRegistrationInliers
            && (g.medianTriangulationAngleDegrees ?? .infinity) >= options.minTriangulationAngleDegrees {
            let firstRegistered = cameraFromWorld[g.pair.first] != nil
            let image = firstRegistered ? g.pair.second : g.pair.first
            guard firstRegistered != (cameraFromWorld[g.pair.second] != nil),
                  !inlierRatioRejected[image],
                  let candidate = pairRegistration(g, anchorIsFirst: firstRegistered) else { continue }
            candidates.append(candidate)
        }
        candidates.sort { ($0.sharedTracks.count, $0.pairInliers) > ($1.sharedTracks.count, $1.pairInliers) }
        for candidate in candidates where cameraFromWorld[candidate.image] == nil {
            let saved = (cameraFromWorld, points, inlier)
            let image = candidate.image
            cameraFromWorld[image] = candidate.cameraFromWorld
            extendTracks(into: image)
            // The shared points are what fix the baseline's length: adjust with all of them.
            for t in candidate.sharedTracks {
                for (i, o) in tracks.tracks[t].enumerated() where o.imageIndex == image { inlier[t][i] = true }
            }
            localAdjustment(around: image)
            let support = candidate.sharedTracks.filter { t in
                points[t] != nil && tracks.tracks[t].indices.contains { tracks.tracks[t][$0].imageIndex == image && inlier[t][$0] }
            }.count
            if support >= options.minPairRegistrationPoints && 2 * support >= candidate.sharedCount {
                failureReason[image] = nil
                pairFailureReason[image] = nil
                return image
            }
            (cameraFromWorld, points, inlier) = saved
            pairFailureReason[image] = "with \(candidate.pairInliers) inliers, only \(support) of the "
                + "\(candidate.sharedCount) points both photos see fit one baseline length "
                + "(\(options.minPairRegistrationPoints) and half are needed)"
        }
        return nil
    }

    /// The pair's unregistered image placed by the pair's relative pose, with the baseline length
    /// at which the median shared point reprojects onto its keypoint; nil with too few shared points.
    func pairRegistration(_ g: TwoViewGeometry, anchorIsFirst: Bool) -> PairRegistration? {
        guard let secondFromFirst = relativePose(g), secondFromFirst.translation.length > 0 else { return nil }
        let anchor = anchorIsFirst ? g.pair.first : g.pair.second
        let image = anchorIsFirst ? g.pair.second : g.pair.first
        let imageFromAnchor = anchorIsFirst ? secondFromFirst : secondFromFirst.inverse
        let r = imageFromAnchor.rotation, direction = imageFromAnchor.translation.normalized
        let anchorKeypoints = anchorIsFirst ? g.keypoints1 : g.keypoints2
        let imageKeypoints = anchorIsFirst ? g.keypoints2 : g.keypoints1
        let anchorPose = cameraFromWorld[anchor]!
        let kImage = intrinsics(of: image)

        // Per shared point, the baseline length that puts it on its keypoint's ray (least squares
        // along the epipolar line: n × (R·X + s·t) = 0, X in the anchor's camera frame).
        var sharedTracks: [Int] = []
        var scales: [Double] = []
        var sharedCount = 0
        for (a, b) in zip(anchorKeypoints, imageKeypoints) {
            let t = tracks.trackOfKeypoint[anchor][Int(a)]
            guard t >= 0, tracks.trackOfKeypoint[image][Int(b)] == t, let x = points[Int(t)],
                  let error = reprojectionError(x, SparseScene.Observation(imageIndex: anchor, keypointIndex: Int(a))),
                  error <= options.maxReprojectionErrorPixels else { continue }
            sharedCount += 1
            let pixel = images[image].features.position(Int(b))
            let n = kImage.normalized(x: pixel.x, y: pixel.y)
            let ray = Vector3(n.u, n.v, 1)
            let across = ray.cross(direction)
            let conditioning = across.dot(across)
            guard conditioning > 1e-12 else { continue }
            let scale = -across.dot(ray.cross(r * anchorPose.apply(x))) / conditioning
            guard scale > 0 else { continue }
            sharedTracks.append(Int(t))
            scales.append(scale)
        }
        guard !scales.isEmpty, sharedTracks.count >= options.minPairRegistrationPoints else { return nil }
        let scale = scales.sorted()[scales.count / 2]
        let pose = RigidTransform(rotation: r, translation: scale * direction) * anchorPose
        return PairRegistration(image: image, cameraFromWorld: pose, sharedTracks: sharedTracks,
                                sharedCount: sharedCount, pairInliers: g.inlierCount)
    }
}
