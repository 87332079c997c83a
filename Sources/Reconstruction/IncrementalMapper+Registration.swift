import Foundation
import ReconstructionCore

extension IncrementalMapper {
    /// Unregistered images ordered by how many triangulated points they see.
    func nextImageCandidates() -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for image in images.indices where cameraFromWorld[image] == nil {
            let visible = visiblePointCount(image)
            if visible >= options.minRegistrationInliers { out.append((image, visible)) }
        }
        return out.sorted { $0.1 > $1.1 }
    }

    /// How many of the image's keypoints belong to tracks with a reconstructed point.
    func visiblePointCount(_ image: Int) -> Int {
        var visible = 0
        for t in tracks.trackOfKeypoint[image] where t >= 0 && points[Int(t)] != nil { visible += 1 }
        return visible
    }

    mutating func register(_ image: Int) -> Bool {
        let k = intrinsics(of: image)
        var world: [Vector3] = [], normalized: [Double] = []
        for (keypoint, t) in tracks.trackOfKeypoint[image].enumerated() where t >= 0 {
            guard let x = points[Int(t)] else { continue }
            let p = images[image].features.position(keypoint)
            let n = k.normalized(x: p.x, y: p.y)
            world.append(x)
            normalized += [n.u, n.v]
        }
        do {
            let estimate = try GeometryEstimators.absolutePose(
                worldPoints: world, normalized: normalized, focalLengthPixels: k.meanFocalLength,
                options: RansacOptions(maxError: options.absolutePoseMaxErrorPixels / k.meanFocalLength))
            let inliers = estimate.inlierCount
            inlierRatioRejected[image] = Double(inliers) < options.minRegistrationInlierRatio * Double(world.count)
            guard inliers >= options.minRegistrationInliers, !inlierRatioRejected[image] else {
                failureReason[image] = "pose estimation found only \(inliers) inliers among \(world.count) 2D-3D correspondences"
                return false
            }
            cameraFromWorld[image] = estimate.model
            failureReason[image] = nil
            return true
        } catch {
            failureReason[image] = "pose estimation failed with \(world.count) 2D-3D correspondences: \(error)"
            return false
        }
    }

    // MARK: Triangulation

    /// (Re)triangulates a track from its observations in registered images; true if it has a point.
    @discardableResult
    mutating func triangulate(track t: Int) -> Bool {
        let track = tracks.tracks[t]
        var rays: [Triangulation.Ray] = []
        var used: [Int] = []
        for (i, o) in track.enumerated() {
            guard let pose = cameraFromWorld[o.imageIndex] else { continue }
            let k = keypoint(o)
            let n = intrinsics(of: o.imageIndex).normalized(x: k.x, y: k.y)
            rays.append(Triangulation.Ray(origin: pose.cameraCentreInWorld, direction: pose.rotation.transposed * Vector3(n.u, n.v, 1)))
            used.append(i)
        }
        guard rays.count >= 2, let x = Triangulation.point(closestTo: rays) else { return false }
        points[t] = x
        return updateInliers(track: t, maxError: options.maxReprojectionErrorPixels)
    }

    /// Marks which observations support track `t`'s point; drops the point if fewer than two do
    /// or if its supporting rays are too close to parallel.
    @discardableResult
    mutating func updateInliers(track t: Int, maxError: Double) -> Bool {
        guard let x = points[t] else { return false }
        let track = tracks.tracks[t]
        var centres: [Vector3] = []
        for (i, o) in track.enumerated() {
            let ok = (reprojectionError(x, o) ?? .infinity) <= maxError
            inlier[t][i] = ok
            if ok { centres.append(cameraFromWorld[o.imageIndex]!.cameraCentreInWorld) }
        }
        var maxAngle = 0.0
        if centres.count >= 2 {
            outer: for a in 0..<centres.count {
                for b in (a + 1)..<centres.count {
                    maxAngle = max(maxAngle, Triangulation.angleDegrees(point: x, centre1: centres[a], centre2: centres[b]))
                    if maxAngle >= options.minTriangulationAngleDegrees { break outer }
                }
            }
        }
        if centres.count < 2 || maxAngle < options.minTriangulationAngleDegrees {
            points[t] = nil
            for i in inlier[t].indices { inlier[t][i] = false }
            return false
        }
        return true
    }

    /// After registering `image`: continue existing points into it and triangulate new tracks.
    mutating func extendTracks(into image: Int) {
        for t in tracks.trackOfKeypoint[image] where t >= 0 {
            let track = Int(t)
            if points[track] != nil {
                updateInliers(track: track, maxError: options.maxReprojectionErrorPixels)
            } else {
                triangulate(track: track)
            }
        }
    }
}
