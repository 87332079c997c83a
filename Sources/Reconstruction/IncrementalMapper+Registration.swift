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
        var world: [Vector3] = [], pixels: [(x: Double, y: Double)] = []
        for (keypoint, t) in tracks.trackOfKeypoint[image].enumerated() where t >= 0 {
            guard let x = points[Int(t)] else { continue }
            world.append(x)
            pixels.append(images[image].features.position(keypoint))
        }
        func registers(_ estimate: RobustEstimate<RigidTransform>) -> Bool {
            estimate.inlierCount >= options.minRegistrationInliers
                && Double(estimate.inlierCount) >= options.minRegistrationInlierRatio * Double(world.count)
        }
        var k = intrinsics(of: image)
        let atGuess = Result { try absolutePose(world: world, pixels: pixels, intrinsics: k) }
        var estimate = try? atGuess.get()
        focalFoundBySearch = false
        // A focal length only guessed for a camera not registered yet may be what keeps it out.
        if !(estimate.map(registers) ?? false), startsCameraGroup(image),
           let found = focalSearch(world: world, pixels: pixels, intrinsics: k, inliersAtGuess: estimate?.inlierCount ?? 0) {
            (k, estimate) = found
            focalFoundBySearch = true
        }
        guard let estimate else {
            if case .failure(let error) = atGuess {
                failureReason[image] = "pose estimation failed with \(world.count) 2D-3D correspondences: \(error)"
            }
            return false
        }
        inlierRatioRejected[image] = Double(estimate.inlierCount) < options.minRegistrationInlierRatio * Double(world.count)
        guard registers(estimate) else {
            failureReason[image] = "pose estimation found only \(estimate.inlierCount) inliers among \(world.count) 2D-3D correspondences"
            focalFoundBySearch = false
            return false
        }
        cameraIntrinsics[images[image].cameraGroup] = k
        cameraFromWorld[image] = estimate.model
        failureReason[image] = nil
        pairFailureReason[image] = nil
        return true
    }

    /// PnP with RANSAC at `intrinsics`, inliers within `absolutePoseMaxErrorPixels`.
    func absolutePose(world: [Vector3], pixels: [(x: Double, y: Double)], intrinsics k: CameraIntrinsics,
                      maxIterations: Int = 10_000) throws -> RobustEstimate<RigidTransform> {
        var normalized: [Double] = []
        normalized.reserveCapacity(2 * pixels.count)
        for p in pixels {
            let n = k.normalized(x: p.x, y: p.y)
            normalized += [n.u, n.v]
        }
        return try GeometryEstimators.absolutePose(
            worldPoints: world, normalized: normalized, focalLengthPixels: k.meanFocalLength,
            options: RansacOptions(maxError: options.absolutePoseMaxErrorPixels / k.meanFocalLength, maxIterations: maxIterations))
    }

    /// Whether `image` would be the first registered image of a camera group whose focal length
    /// is only guessed (no K, no EXIF: a photo alone at its size among others, not refined by
    /// bundle adjustment yet; possibly estimated from its group's pairs, which the search then
    /// replaces only when the estimate does not register it).
    func startsCameraGroup(_ image: Int) -> Bool {
        let group = images[image].cameraGroup
        return images[image].intrinsicsSource == .defaultGuess && !registered.contains { images[$0].cameraGroup == group }
    }

    /// The focal length that registers the most 2D-3D correspondences, searched over the range
    /// of real lenses (0.3 to 3 times the longer image side, as `FocalLengthFromPairs`), then
    /// around the best; nil unless it registers clearly more than the guess. A guess a third off
    /// leaves PnP with too few inliers (a 3072 px photo among 1024 px ones: 190 of 1242).
    func focalSearch(world: [Vector3], pixels: [(x: Double, y: Double)], intrinsics k: CameraIntrinsics,
                     inliersAtGuess: Int) -> (CameraIntrinsics, RobustEstimate<RigidTransform>)? {
        let side = Double(max(k.width, k.height))
        func attempt(_ focal: Double) -> (CameraIntrinsics, RobustEstimate<RigidTransform>)? {
            var c = k
            c.fy = focal * k.fy / k.fx
            c.fx = focal
            return (try? absolutePose(world: world, pixels: pixels, intrinsics: c, maxIterations: 2_000)).map { (c, $0) }
        }
        func best(_ focals: [Double]) -> (CameraIntrinsics, RobustEstimate<RigidTransform>)? {
            focals.compactMap(attempt).max { $0.1.inlierCount < $1.1.inlierCount }
        }
        let steps = 24, low = log(0.3 * side), high = log(3.0 * side)
        let grid = (0...steps).map { exp(low + (high - low) * Double($0) / Double(steps)) }
        guard let coarse = best(grid) else { return nil }
        let step = exp((high - low) / Double(steps))
        let fine = (-4...4).map { coarse.0.fx * pow(step, Double($0) / 4) }
        guard let found = best(fine), Double(found.1.inlierCount) > options.focalSearchMinGain * Double(inliersAtGuess) else { return nil }
        // The pose and inliers again at the chosen focal length, with the full RANSAC budget.
        return (try? absolutePose(world: world, pixels: pixels, intrinsics: found.0)).map { (found.0, $0) }
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
