import Foundation
import ReconstructionCore

/// Whether depth maps agree with each other under their poses and intrinsics: the check that
/// known poses (a device's tracking, RGB-D keyframes) and their depth describe one scene.
///
/// Each view's depth is sampled on a grid, back-projected, and projected into every other view.
/// A sample that lands inside another view, in front of it, where that view has depth, is
/// compared: it agrees when that view's depth there (the closest of the 3×3 pixels around) is
/// within `tolerance` of the sample's depth in that view. A view's agreement is that of its
/// best-agreeing other view (occlusion makes distant views disagree even with exact inputs).
///
/// Poses in the other axes convention, depth in other units, or intrinsics for another image
/// size put the samples elsewhere, and almost none agree; `diagnose` names which of these
/// mistakes, undone, makes the depth agree.
public enum DepthAgreement {
    public struct Result: Sendable, Equatable {
        /// Per view, its best agreement with another view (0…1); nil when no other view sees
        /// enough of its samples to compare.
        public var perView: [Double?]
        /// Agreeing samples per sample, summed over each view's neighbours and averaged over the
        /// views (each pixel of the other view counted once): how much of the depth is confirmed
        /// by other views. Consistent geometry confirms samples across wide baselines; a wrong
        /// depth scale only between close neighbours, where parallax is small.
        public var support: Double

        /// The median over views that overlap another; nil when none does.
        public var median: Double? {
            let values = perView.compactMap { $0 }.sorted()
            guard !values.isEmpty else { return nil }
            let m = values.count / 2
            return values.count % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2
        }
    }

    /// What, undone, makes the depth agree.
    public enum Mistake: Sendable, Equatable, CustomStringConvertible {
        /// The poses are in the other camera axes convention (ARKit/OpenGL against OpenCV/COLMAP).
        case otherAxes
        /// The intrinsics are for the depth map's size, not the photo's.
        case intrinsicsAtDepthSize
        /// The depth values are `factor` times the true depth (other units).
        case depthScaled(factor: Float)

        public var description: String {
            switch self {
            case .otherAxes:
                return "the poses look like they are in the other camera axes convention (ARKit/OpenGL: y up, z backwards; OpenCV/COLMAP: y down, z forwards)"
            case .intrinsicsAtDepthSize:
                return "the intrinsics look like they are for the depth map's size, not the photo's"
            case .depthScaled(let factor):
                return "the depth looks \(Self.factorText(factor)) times too \(factor > 1 ? "large" : "small") (other units?)"
            }
        }

        static func factorText(_ factor: Float) -> String {
            let f = factor > 1 ? factor : 1 / factor
            return abs(f - f.rounded()) < 0.001 * f ? String(Int(f.rounded())) : String(format: "%.3g", f)
        }
    }

    /// Samples per view (a grid).
    public static let samplesPerView = 400
    /// Least compared samples for two views to count as overlapping.
    public static let minimumCompared = 20

    /// For each view, the views it is compared with: `count` spread over its `4 × count` nearest
    /// (by camera centre), so that dense video frames are compared across real baselines too.
    public static func neighbourLists(_ views: [SurfaceReconstruction.DepthInput], count: Int = 12) -> [[Int]] {
        let centres = views.map(\.worldFromCamera.translation)
        return parallelMap(views.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> [Int] in
            let pool = views.indices.filter { $0 != i }
                .sorted { (centres[$0] - centres[i]).length < (centres[$1] - centres[i]).length }.prefix(4 * count)
            guard pool.count > count else { return Array(pool) }
            let step = Double(pool.count) / Double(count)
            return (0..<count).map { pool[pool.startIndex + Int(Double($0) * step)] }
        }
    }

    /// The agreement of `views` (each with intrinsics at its depth map's size), each compared
    /// with its `neighbours` (`neighbourLists`, computed when not given).
    /// - Parameter depthScale: multiplies every depth (a candidate of `diagnose`, without copies).
    public static func measure(_ views: [SurfaceReconstruction.DepthInput], neighbours given: [[Int]]? = nil, depthScale: Float = 1,
                               tolerance: Float = 0.05, samplesPerView: Int = samplesPerView) -> Result {
        let neighbours = given ?? neighbourLists(views)
        let cameraFromWorld = views.map { $0.worldFromCamera.inverse }
        let samples = views.map { grid($0, count: samplesPerView, depthScale: depthScale) }
        let perView = parallelMap(views.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> (best: Double?, support: Double) in
            var best: Double?
            var confirmed = 0
            for j in neighbours[i] {
                var compared = 0, agreeing = 0
                var pixels = Set<Int>()
                for world in samples[i] {
                    let inJ = cameraFromWorld[j].apply(world)
                    guard inJ.z > 0, let (depthThere, pixel) = nearestDepth(views[j], at: inJ, depthScale: depthScale) else { continue }
                    compared += 1
                    if abs(Double(depthThere) - inJ.z) <= Double(tolerance) * inJ.z {
                        agreeing += 1
                        pixels.insert(pixel)
                    }
                }
                confirmed += pixels.count
                if compared >= minimumCompared { best = max(best ?? 0, Double(agreeing) / Double(compared)) }
            }
            return (best, samples[i].isEmpty ? 0 : Double(confirmed) / Double(samples[i].count))
        }
        return Result(perView: perView.map(\.best), support: perView.map(\.support).reduce(0, +) / Double(max(1, views.count)))
    }

    /// Which common mistake, undone for every view, makes the depth agree, with the support it
    /// then has; nil when none does. A candidate must reach a median agreement of `threshold`.
    /// Those that take the points further away or spread them less (depth made larger, the
    /// intrinsics taken as the depth's) put more of each view's points in its neighbours' views,
    /// which raises agreement on any scene whose depth varies little (a wall swept sideways); they
    /// count only when the views as given agree doubtfully (median below `threshold`). The others
    /// must also confirm half as much depth again as the views as given.
    /// - Parameter photoSizes: each view's photo size, for intrinsics given at the depth's size.
    /// - Parameter neighbours: `neighbourLists(views)`, as `current` was measured with (computed when not given).
    public static func diagnose(_ views: [SurfaceReconstruction.DepthInput], photoSizes: [(width: Int, height: Int)],
                                current: Result, neighbours given: [[Int]]? = nil, threshold: Double = 0.5) -> (mistake: Mistake, support: Double)? {
        let doubtful = (current.median ?? 0) < threshold
        let neighbours = given ?? neighbourLists(views)
        var candidates: [(mistake: Mistake, needsDoubt: Bool, measure: () -> Result)] = []
        let flip = RigidTransform(rotation: Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1]), translation: .zero)
        candidates.append((.otherAxes, false, {
            measure(views.map { var v = $0; v.worldFromCamera = v.worldFromCamera * flip; return v }, neighbours: neighbours)
        }))
        if zip(views, photoSizes).contains(where: { $0.depth.width != $1.width }) {
            // The intrinsics were scaled from the photo's size to the depth's; taken as given instead.
            candidates.append((.intrinsicsAtDepthSize, true, {
                measure(zip(views, photoSizes).map { view, photo in
                    var v = view
                    let k = view.intrinsics.scaled(toWidth: photo.width, height: photo.height)
                    v.intrinsics = CameraIntrinsics(width: view.depth.width, height: view.depth.height,
                                                    fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, k1: k.k1, k2: k.k2)
                    return v
                }, neighbours: neighbours)
            }))
        }
        for factor: Float in [5, 0.2, 10, 0.1, 1000, 0.001] {
            candidates.append((.depthScaled(factor: factor), factor < 1, { measure(views, neighbours: neighbours, depthScale: 1 / factor) }))
        }
        var best: (Mistake, Double)?
        for candidate in candidates where doubtful || !candidate.needsDoubt {
            let result = candidate.measure()
            guard (result.median ?? 0) >= threshold, candidate.needsDoubt || result.support >= 1.5 * current.support,
                  result.support > best?.1 ?? 0 else { continue }
            best = (candidate.mistake, result.support)
        }
        return best
    }

    /// World points of a grid of about `count` of the view's pixels with depth.
    static func grid(_ view: SurfaceReconstruction.DepthInput, count: Int, depthScale: Float = 1) -> [Vector3] {
        let depth = view.depth
        let withDepth = depth.metres.reduce(0) { $0 + ($1 > 0 && $1.isFinite ? 1 : 0) }
        guard withDepth > 0 else { return [] }
        let step = max(1, Int((Double(withDepth) / Double(count)).squareRoot().rounded()))
        let k = view.intrinsics
        var points: [Vector3] = []
        for y in stride(from: step / 2, to: depth.height, by: step) {
            for x in stride(from: step / 2, to: depth.width, by: step) {
                let d = Double(depth[x, y] * depthScale)
                guard d > 0, d.isFinite else { continue }
                points.append(view.worldFromCamera.apply(Vector3((Double(x) + 0.5 - k.cx) / k.fx * d, (Double(y) + 0.5 - k.cy) / k.fy * d, d)))
            }
        }
        return points
    }

    /// The depth, of the 3×3 pixels around where `pointInCamera` projects, closest to its depth,
    /// and that pixel's index; nil outside the map or where none of them has depth.
    static func nearestDepth(_ view: SurfaceReconstruction.DepthInput, at pointInCamera: Vector3,
                             depthScale: Float = 1) -> (depth: Float, pixel: Int)? {
        guard let (u, v) = view.intrinsics.project(pointInCamera) else { return nil }
        let depth = view.depth
        // In range before converting: a point almost level with the image plane projects anywhere.
        guard u.isFinite, v.isFinite, u >= 0, v >= 0, u < Double(depth.width), v < Double(depth.height) else { return nil }
        let x = Int(u), y = Int(v)
        var best: Float?
        var pixel = 0
        for dy in -1...1 {
            for dx in -1...1 {
                let nx = x + dx, ny = y + dy
                guard nx >= 0, ny >= 0, nx < depth.width, ny < depth.height else { continue }
                let d = depth[nx, ny] * depthScale
                guard d > 0, d.isFinite else { continue }
                if best == nil || abs(Double(d) - pointInCamera.z) < abs(Double(best!) - pointInCamera.z) {
                    best = d
                    pixel = ny * depth.width + nx
                }
            }
        }
        return best.map { ($0, pixel) }
    }
}

extension DepthAgreement {
    /// How a point cloud sits among the views. Of the points that land where some view has depth
    /// (in front of it, inside its image):
    /// - `agreement`: the share that agree with some view's depth;
    /// - `inFreeSpace`: the share that agree with none and lie in front of some view's depth, in
    ///   space that view saw empty. Points hidden behind the views' surfaces (a scan larger than
    ///   the frames cover) lower the agreement but are not in free space.
    /// Both nil when fewer than `minimumCompared` points land on depth.
    public struct CloudFit: Sendable, Equatable {
        /// The share of the points in front of some camera and inside its photo.
        public var inView: Double
        public var agreement: Double?
        public var inFreeSpace: Double?
    }

    /// The fit of up to `sampleCount` of `points` (world frame) to `cameras` (intrinsics at their
    /// photos' size) and to `depth` (each with intrinsics at its map's size).
    public static func fit(points: [SIMD3<Float>], cameras: [(intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform)],
                           depth: [SurfaceReconstruction.DepthInput], tolerance: Float = 0.05, sampleCount: Int = 2000) -> CloudFit {
        guard !points.isEmpty else { return CloudFit(inView: 0, agreement: nil, inFreeSpace: nil) }
        let step = max(1, points.count / sampleCount)
        let cameraFromWorld = cameras.map { $0.worldFromCamera.inverse }
        let depthFromWorld = depth.map { $0.worldFromCamera.inverse }
        var sampled = 0, inView = 0, landed = 0, agreeing = 0, free = 0
        for index in stride(from: 0, to: points.count, by: step) {
            let p = points[index]
            let world = Vector3(Double(p.x), Double(p.y), Double(p.z))
            sampled += 1
            if zip(cameras, cameraFromWorld).contains(where: { camera, fromWorld in
                guard let (u, v) = camera.intrinsics.project(fromWorld.apply(world)) else { return false }
                return u >= 0 && v >= 0 && u < Double(camera.intrinsics.width) && v < Double(camera.intrinsics.height)
            }) { inView += 1 }
            var lands = false, agrees = false, inFront = false
            for (view, fromWorld) in zip(depth, depthFromWorld) {
                let inCamera = fromWorld.apply(world)
                guard inCamera.z > 0, let (there, _) = nearestDepth(view, at: inCamera) else { continue }
                lands = true
                if abs(Double(there) - inCamera.z) <= Double(tolerance) * inCamera.z { agrees = true; break }
                if inCamera.z < Double(there) * (1 - Double(tolerance)) { inFront = true }
            }
            if lands { landed += 1 }
            if agrees { agreeing += 1 } else if inFront { free += 1 }
        }
        let compared = landed >= minimumCompared
        return CloudFit(inView: Double(inView) / Double(sampled), agreement: compared ? Double(agreeing) / Double(landed) : nil,
                        inFreeSpace: compared ? Double(free) / Double(landed) : nil)
    }
}

extension DepthAgreement {
    /// What, undone, makes a point cloud agree with the frames' depth.
    public enum CloudMistake: Sendable, Equatable, CustomStringConvertible {
        /// Turned a quarter turn about x: Y up where the poses have Z up, or the reverse.
        case quarterTurnAboutX
        /// Its y and z axes swapped (a mirror image: Y up written as Z up without turning).
        case yAndZSwapped
        /// `factor` times too large (other units).
        case scaled(factor: Float)

        public var description: String {
            switch self {
            case .quarterTurnAboutX:
                return "it looks turned a quarter turn about x (Y up where the poses have Z up, or the reverse)"
            case .yAndZSwapped:
                return "its y and z axes look swapped"
            case .scaled(let factor):
                let unit = factor == 1000 ? " (millimetres?)" : factor == 100 ? " (centimetres?)" : ""
                return "it looks \(Mistake.factorText(factor)) times too \(factor > 1 ? "large" : "small")\(unit)"
            }
        }
    }

    /// Which common mistake, undone, makes `points` agree with `depth`: agreement of at least
    /// `threshold` and clearly above `current`'s (or `current` had nothing to compare).
    public static func diagnose(points: [SIMD3<Float>], cameras: [(intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform)],
                                depth: [SurfaceReconstruction.DepthInput], current: CloudFit,
                                threshold: Double = 0.8) -> CloudMistake? {
        guard !depth.isEmpty, !points.isEmpty else { return nil }
        let step = max(1, points.count / 2000)
        let sample = stride(from: 0, to: points.count, by: step).map { points[$0] }
        // Another tool's axes: turned about the frame's own origin.
        let candidates: [(CloudMistake, (SIMD3<Float>) -> SIMD3<Float>)] = [
            (.quarterTurnAboutX, { SIMD3($0.x, -$0.z, $0.y) }), (.quarterTurnAboutX, { SIMD3($0.x, $0.z, -$0.y) }),
            (.yAndZSwapped, { SIMD3($0.x, $0.z, $0.y) }),
            (.scaled(factor: 1000), { $0 / 1000 }), (.scaled(factor: 100), { $0 / 100 }),
            (.scaled(factor: 0.001), { $0 * 1000 }), (.scaled(factor: 0.01), { $0 * 100 }),
        ]
        var best: (CloudMistake, Double)?
        for (mistake, undo) in candidates {
            guard let agreement = fit(points: sample.map(undo), cameras: cameras, depth: depth, sampleCount: sample.count).agreement,
                  agreement >= threshold, agreement >= (current.agreement ?? 0) + 0.25, agreement > best?.1 ?? 0 else { continue }
            best = (mistake, agreement)
        }
        return best?.0
    }
}
