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
            return f.rounded() == f ? String(Int(f)) : String(f)
        }
    }

    /// Samples per view (a grid).
    public static let samplesPerView = 400
    /// Least compared samples for two views to count as overlapping.
    public static let minimumCompared = 20

    /// The agreement of `views` (each with intrinsics at its depth map's size), each compared
    /// with its `neighbours` nearest views (by camera centre).
    public static func measure(_ views: [SurfaceReconstruction.DepthInput], tolerance: Float = 0.05,
                               samplesPerView: Int = samplesPerView, neighbours: Int = 12) -> Result {
        let cameraFromWorld = views.map { $0.worldFromCamera.inverse }
        let centres = views.map(\.worldFromCamera.translation)
        let samples = views.map { grid($0, count: samplesPerView) }
        let perView = parallelMap(views.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> (best: Double?, support: Double) in
            let others = views.indices.filter { $0 != i }
                .sorted { (centres[$0] - centres[i]).length < (centres[$1] - centres[i]).length }.prefix(neighbours)
            var best: Double?
            var confirmed = 0
            for j in others {
                var compared = 0, agreeing = 0
                var pixels = Set<Int>()
                for world in samples[i] {
                    let inJ = cameraFromWorld[j].apply(world)
                    guard inJ.z > 0, let (depthThere, pixel) = nearestDepth(views[j], at: inJ) else { continue }
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

    /// Which common mistake, undone for every view, makes the depth agree: a median agreement of
    /// at least `threshold` and half as much support again as `current` (the views as given),
    /// with the support it then has; nil when none does.
    /// - Parameter photoSizes: each view's photo size, for intrinsics given at the depth's size.
    public static func diagnose(_ views: [SurfaceReconstruction.DepthInput], photoSizes: [(width: Int, height: Int)],
                                current: Result, threshold: Double = 0.5) -> (mistake: Mistake, support: Double)? {
        var candidates: [(Mistake, [SurfaceReconstruction.DepthInput])] = []
        let flip = RigidTransform(rotation: Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1]), translation: .zero)
        candidates.append((.otherAxes, views.map { var v = $0; v.worldFromCamera = v.worldFromCamera * flip; return v }))
        if zip(views, photoSizes).contains(where: { $0.depth.width != $1.width }) {
            // The intrinsics were scaled from the photo's size to the depth's; taken as given instead.
            candidates.append((.intrinsicsAtDepthSize, zip(views, photoSizes).map { view, photo in
                var v = view
                let k = view.intrinsics.scaled(toWidth: photo.width, height: photo.height)
                v.intrinsics = CameraIntrinsics(width: view.depth.width, height: view.depth.height,
                                                fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, k1: k.k1, k2: k.k2)
                return v
            }))
        }
        for factor: Float in [5, 0.2, 10, 0.1, 1000, 0.001] {
            candidates.append((.depthScaled(factor: factor), views.map { view in
                var v = view
                v.depth.metres = view.depth.metres.map { $0 / factor }
                return v
            }))
        }
        var best: (Mistake, Double)?
        for (mistake, undone) in candidates {
            let result = measure(undone, samplesPerView: samplesPerView / 2)
            guard (result.median ?? 0) >= threshold, result.support >= 1.5 * current.support,
                  result.support > best?.1 ?? 0 else { continue }
            best = (mistake, result.support)
        }
        return best.map { ($0.0, $0.1) }
    }

    /// World points of a grid of about `count` of the view's pixels with depth.
    static func grid(_ view: SurfaceReconstruction.DepthInput, count: Int) -> [Vector3] {
        let depth = view.depth
        let withDepth = depth.metres.reduce(0) { $0 + ($1 > 0 && $1.isFinite ? 1 : 0) }
        guard withDepth > 0 else { return [] }
        let step = max(1, Int((Double(withDepth) / Double(count)).squareRoot().rounded()))
        var points: [Vector3] = []
        for y in stride(from: step / 2, to: depth.height, by: step) {
            for x in stride(from: step / 2, to: depth.width, by: step) {
                if let p = view.worldPoint(x: x, y: y) { points.append(Vector3(Double(p.x), Double(p.y), Double(p.z))) }
            }
        }
        return points
    }

    /// The depth, of the 3×3 pixels around where `pointInCamera` projects, closest to its depth,
    /// and that pixel's index; nil outside the map or where none of them has depth.
    static func nearestDepth(_ view: SurfaceReconstruction.DepthInput, at pointInCamera: Vector3) -> (depth: Float, pixel: Int)? {
        guard let (u, v) = view.intrinsics.project(pointInCamera) else { return nil }
        let x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
        let depth = view.depth
        guard x >= 0, y >= 0, x < depth.width, y < depth.height else { return nil }
        var best: Float?
        var pixel = 0
        for dy in -1...1 {
            for dx in -1...1 {
                let nx = x + dx, ny = y + dy
                guard nx >= 0, ny >= 0, nx < depth.width, ny < depth.height else { continue }
                let d = depth[nx, ny]
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
    /// How a point cloud sits among the views: the share of its points in front of some camera and
    /// inside its image, and of those that land where a view has depth, the share that agree with
    /// that depth in some view (nil when fewer than `minimumCompared` land on depth).
    public struct CloudFit: Sendable, Equatable {
        public var inView: Double
        public var agreement: Double?
    }

    /// The fit of up to `sampleCount` of `points` (world frame) to `cameras` (intrinsics at their
    /// photos' size) and to `depth` (each with intrinsics at its map's size).
    public static func fit(points: [SIMD3<Float>], cameras: [(intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform)],
                           depth: [SurfaceReconstruction.DepthInput], tolerance: Float = 0.05, sampleCount: Int = 2000) -> CloudFit {
        guard !points.isEmpty else { return CloudFit(inView: 0, agreement: nil) }
        let step = max(1, points.count / sampleCount)
        let cameraFromWorld = cameras.map { $0.worldFromCamera.inverse }
        let depthFromWorld = depth.map { $0.worldFromCamera.inverse }
        var sampled = 0, inView = 0, landed = 0, agreeing = 0
        for index in stride(from: 0, to: points.count, by: step) {
            let p = points[index]
            let world = Vector3(Double(p.x), Double(p.y), Double(p.z))
            sampled += 1
            if zip(cameras, cameraFromWorld).contains(where: { camera, fromWorld in
                guard let (u, v) = camera.intrinsics.project(fromWorld.apply(world)) else { return false }
                return u >= 0 && v >= 0 && u < Double(camera.intrinsics.width) && v < Double(camera.intrinsics.height)
            }) { inView += 1 }
            var lands = false, agrees = false
            for (view, fromWorld) in zip(depth, depthFromWorld) {
                let inCamera = fromWorld.apply(world)
                guard inCamera.z > 0, let (there, _) = nearestDepth(view, at: inCamera) else { continue }
                lands = true
                if abs(Double(there) - inCamera.z) <= Double(tolerance) * inCamera.z { agrees = true; break }
            }
            if lands { landed += 1 }
            if agrees { agreeing += 1 }
        }
        return CloudFit(inView: Double(inView) / Double(sampled),
                        agreement: landed >= minimumCompared ? Double(agreeing) / Double(landed) : nil)
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
