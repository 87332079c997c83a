import Foundation
import ReconstructionCore

extension IncrementalMapper {
    /// Finishing step `step` (1…`MappingProgress.finishingStepCount`), once every image that can
    /// register has.
    mutating func finish(step: Int) {
        switch step {
        case 1:
            // Retriangulate tracks that lost or never had a point, now that all cameras are known.
            for t in points.indices where points[t] == nil { triangulate(track: t) }
        case 2:
            finalLossScale = options.finalLossNoiseMultiple.flatMap { multiple in keypointNoiseSigma().map { multiple * $0 } }
            globalAdjustment(noiseScaled(options.finalAdjustment), refineIntrinsics: true)
            filterObservations(maxError: options.finalMaxReprojectionErrorPixels)
        default:
            globalAdjustment(noiseScaled(options.polishAdjustment), refineIntrinsics: true)
            filterObservations(maxError: options.finalMaxReprojectionErrorPixels)
        }
    }

    /// `o` with a Cauchy loss at `finalLossScale`, when there is one. The scale is measured once,
    /// before the final adjustment: measured again after a robust fit, the core of the residuals
    /// has shrunk, and each new scale would be smaller than the last.
    func noiseScaled(_ o: BundleAdjuster.Options) -> BundleAdjuster.Options {
        guard let scale = finalLossScale else { return o }
        var scaled = o
        scaled.loss = .cauchy
        scaled.lossScalePixels = scale
        return scaled
    }

    /// The keypoint noise per coordinate, as weighted in adjustment: 1.4826 × the median absolute
    /// weighted residual of the inlier observations (pixels); nil when there is none or it is zero.
    func keypointNoiseSigma() -> Double? {
        var residuals: [Double] = []
        for t in points.indices {
            guard let x = points[t] else { continue }
            for (i, o) in tracks.tracks[t].enumerated() where inlier[t][i] {
                guard let pose = cameraFromWorld[o.imageIndex],
                      let p = intrinsics(of: o.imageIndex).project(pose.apply(x)) else { continue }
                let k = keypoint(o), w = weight(o)
                residuals.append(abs(w * (p.x - k.x)))
                residuals.append(abs(w * (p.y - k.y)))
            }
        }
        guard !residuals.isEmpty else { return nil }
        residuals.sort()
        let sigma = 1.4826 * residuals[residuals.count / 2]
        return sigma > 0 ? sigma : nil
    }

    /// Why image `i` did not register: its own failure, or where it stands in the view graph.
    func unregisteredReason(_ i: Int) -> String {
        let members = viewGraph.members(of: i)
        if members.count == 1 {
            return "no verified pair with any other image (no geometrically consistent matches)" + fewFeaturesNote(i)
        }
        if !members.contains(where: { cameraFromWorld[$0] != nil }) {
            return "one of \(members.count) images that match each other but share no verified pair with the "
                + "reconstructed images (a separate scene or a disconnected part, too small or too weakly matched for a model of its own)"
        }
        if let pair = pairFailureReason[i] {
            // PnP's own failure, when it ran (enough points seen, too few fitting one pose), stands
            // first: "too few matches … (it sees 1902 …, PnP needs 30)" contradicted itself.
            let pnp = failureReason[i] ?? tooFewMatchesReason(i) + ", PnP needs \(options.minRegistrationInliers))"
            return pnp + "; through its verified pair " + pair
        }
        if let reason = failureReason[i] { return reason }
        return tooFewMatchesReason(i) + ": PnP needs \(options.minRegistrationInliers); registration through a verified pair needs "
            + "\(options.minPairRegistrationPoints) that both photos see, fitting one baseline length)"
    }

    /// For a photo with far fewer features than the others (under a tenth of the median): what
    /// that usually means, so that a dark, blurred or featureless photo is told apart from one of
    /// another place.
    func fewFeaturesNote(_ image: Int) -> String {
        let counts = images.map(\.features.count).sorted()
        let median = counts[counts.count / 2], own = images[image].features.count
        guard images.count >= 3, own * 10 < median else { return "" }
        // A photo far smaller than the others (a thumbnail among full-size photos) says so.
        let pixels = images.map { $0.intrinsics.width * $0.intrinsics.height }.sorted()
        let k = images[image].intrinsics
        if k.width * k.height * 25 < pixels[pixels.count / 2] {
            return "; it has \(own) features where the photos' median is \(median): at \(k.width)×\(k.height) it is much smaller "
                + "than the others (a thumbnail?); use the full-size photo"
        }
        return "; it has \(own) features where the photos' median is \(median): it may be dark, blurred or of a plain surface"
    }

    /// The start of the reason an image that sees few reconstructed points gives (an open parenthesis).
    func tooFewMatchesReason(_ image: Int) -> String {
        "too few matches to the reconstructed scene to estimate a pose (it sees \(visiblePointCount(image)) reconstructed points"
    }

    func makeScene() -> SparseScene {
        var scenePoints: [SparseScene.Point] = []
        var pointOfKeypoint = images.map { [Int](repeating: -1, count: $0.features.count) }
        for (t, track) in tracks.tracks.enumerated() {
            guard let x = points[t] else { continue }
            var observations: [SparseScene.Observation] = []
            var errorSum = 0.0
            for (i, o) in track.enumerated() where inlier[t][i] {
                observations.append(o)
                errorSum += reprojectionError(x, o) ?? 0
                pointOfKeypoint[o.imageIndex][o.keypointIndex] = scenePoints.count
            }
            let c = images[observations[0].imageIndex].features.colors
            let k = observations[0].keypointIndex
            scenePoints.append(SparseScene.Point(position: x, rgb: (c[3 * k], c[3 * k + 1], c[3 * k + 2]),
                                                 meanReprojectionErrorPixels: errorSum / Double(observations.count),
                                                 track: observations))
        }
        let sceneImages = images.indices.map { i -> SparseScene.Image in
            let f = images[i].features
            let keypoints = (0..<f.count).map { SparseScene.Keypoint(x: f.positions[2 * $0], y: f.positions[2 * $0 + 1]) }
            let reason = cameraFromWorld[i] == nil ? unregisteredReason(i) : nil
            // A registered photo's given K was refined with the others of its camera; an unregistered one's was not used.
            let refined = images[i].intrinsicsSource == .given && options.refineGivenIntrinsics && cameraFromWorld[i] != nil
            let source: IntrinsicsSource = refined ? .givenRefined : images[i].intrinsicsSource
            return SparseScene.Image(name: "", intrinsics: intrinsics(of: i), intrinsicsSource: source,
                                     cameraFromWorld: cameraFromWorld[i], unregisteredReason: reason,
                                     keypoints: keypoints, pointIndexOfKeypoint: pointOfKeypoint[i])
        }
        return SparseScene(images: sceneImages, points: scenePoints)
    }
}
