import Foundation
import ReconstructionCore

extension IncrementalMapper {
    mutating func adjustAfterRegistration(of image: Int) {
        let count = registered.count
        // A focal length found by the search at registration is refined with the whole model at once.
        if focalFoundBySearch || Double(count) >= options.globalAdjustmentGrowth * Double(registeredAtLastGlobalAdjustment) {
            focalFoundBySearch = false
            globalAdjustment(options.growthAdjustment, refineIntrinsics: count >= 3)
            filterObservations(maxError: options.maxReprojectionErrorPixels)
        } else {
            localAdjustment(around: image)
        }
    }

    /// Refines the new image and the points it sees; other cameras stay fixed.
    mutating func localAdjustment(around image: Int) {
        var trackSet: [Int] = []
        for t in tracks.trackOfKeypoint[image] where t >= 0 && points[Int(t)] != nil { trackSet.append(Int(t)) }
        adjust(tracks: trackSet, variableImages: [image], options: options.growthAdjustment, refineIntrinsics: false)
        for t in trackSet { updateInliers(track: t, maxError: options.maxReprojectionErrorPixels) }
    }

    mutating func globalAdjustment(_ o: BundleAdjuster.Options, refineIntrinsics: Bool) {
        let all = points.indices.filter { points[$0] != nil }
        adjust(tracks: all, variableImages: Set(registered), options: o, refineIntrinsics: refineIntrinsics)
        registeredAtLastGlobalAdjustment = registered.count
    }

    mutating func adjust(tracks trackSet: [Int], variableImages: Set<Int>, options o: BundleAdjuster.Options,
                         refineIntrinsics: Bool) {
        var problem = BundleAdjustmentProblem()
        var cameraIndex: [Int: Int] = [:]
        var imageIndex: [Int: Int] = [:]
        for group in Set(registered.map { images[$0].cameraGroup }).sorted() {
            let source = images.first { $0.cameraGroup == group }!.intrinsicsSource
            let refinable = source != .given || options.refineGivenIntrinsics
            var refine: BundleAdjustmentProblem.Refinement = refineIntrinsics && refinable ? [.focalLength, .k1] : []
            // Two views cannot tell lens distortion from a change of focal length and depth: k1
            // wanders (−1.7 seen on two photos of a facade) and takes the focal length with it.
            if registered.count < 3 { refine.remove(.k1) }
            if !refine.isEmpty, options.refinesPrincipalPoint { refine.insert(.principalPoint) }
            cameraIndex[group] = problem.addCamera(cameraIntrinsics[group]!, refine: refine)
        }
        func ensureImage(_ image: Int) -> Int {
            if let i = imageIndex[image] { return i }
            let fixed = !variableImages.contains(image) || image == fixedImage
            let i = problem.addImage(cameraFromWorld: cameraFromWorld[image]!, camera: cameraIndex[images[image].cameraGroup]!, fixed: fixed)
            imageIndex[image] = i
            return i
        }
        var pointIndex: [Int] = []
        for t in trackSet {
            guard let x = points[t] else { continue }
            let p = problem.addPoint(x)
            pointIndex.append(t)
            for (i, o) in tracks.tracks[t].enumerated() where inlier[t][i] {
                let k = keypoint(o)
                problem.addObservation(image: ensureImage(o.imageIndex), point: p, x: k.x, y: k.y, weight: weight(o))
            }
        }
        guard !problem.observationImage.isEmpty else { return }
        if let anchor = imageIndex[scaleAnchorImage], variableImages.contains(scaleAnchorImage), fixedImage >= 0,
           imageIndex[fixedImage] != nil {
            let t = cameraFromWorld[scaleAnchorImage]!.translation
            let axis = [abs(t.x), abs(t.y), abs(t.z)].enumerated().max { $0.element < $1.element }!.offset
            problem.scaleAnchor = (anchor, axis)
        }
        do {
            try BundleAdjuster(options: o).solve(&problem)
        } catch {
            return  // keep the previous estimate; the caller's filtering still applies
        }
        for (group, c) in cameraIndex { cameraIntrinsics[group] = problem.cameras[c] }
        for (image, i) in imageIndex where variableImages.contains(image) { cameraFromWorld[image] = problem.cameraFromWorld[i] }
        for (p, t) in pointIndex.enumerated() { points[t] = problem.points[p] }
    }

    mutating func filterObservations(maxError: Double) {
        for t in points.indices where points[t] != nil { updateInliers(track: t, maxError: maxError) }
    }
}
