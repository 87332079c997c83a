import Foundation
import Meshing
import ReconstructionCore

/// Keeps the surface of an object capture to the object when its photos come without masks, as
/// Object Capture's object masking does: the depth maps are cut to the object region the cameras
/// look at (`ObjectRegion`), the plane the object stands on is found in the depth around it, and
/// what lies on or below that plane is left out. The result is a mask per depth map (the depth on
/// the object) and a box around the object, which the surface stage uses as it uses the masks and
/// box of a masked capture: the support is not fused, and the unseen underside is closed on it.
public struct ObjectIsolation: Sendable {
    public struct Options: Sendable, Equatable {
        /// Depth samples within this fraction of the object region's diagonal of a candidate
        /// support plane lie on it.
        public var planeInlierFraction: Float = 0.005
        /// Depth within this many standard deviations of the support's depth noise above it
        /// belongs to the support, not to the object …
        public var clearanceSigmas: Float = 3
        /// … and never less than this many inlier distances, nor more than the next.
        public var minimumClearanceInlierDistances: Float = 1
        public var maximumClearanceInlierDistances: Float = 2
        /// Depth samples per depth map along its longer side, for the plane and the box.
        public var samplesPerSide = 160
        /// The object's box spans these quantiles of its depth samples along each axis …
        public var trimmedFraction = 0.002
        /// … grown by this fraction of its size on every side.
        public var marginFraction = 0.05
        /// Pieces of a mask smaller than this fraction of its largest piece are left out (depth
        /// speckles on the support around the object).
        public var minimumMaskComponentFraction = 0.01
        /// At most this fraction of the object's depth samples may lie in the outer twentieth of the
        /// region where fewer than nearly every photo frames them (measured before the framing
        /// condition: 0.03–0.7 % for objects the photos frame whole, 5.3 % for one that overflows
        /// them); more, and the capture is left whole.
        public var maximumEdgeFraction = 0.02
        /// The lowest fraction of the depth found under the region (the foot, with no support
        /// plane) that is left out as strays.
        public var footTrimmedFraction = 0.02
        /// Depth samples the object needs; with fewer the capture is left whole.
        public var minimumObjectSamples = 200
        /// The support's normal lies within this angle of up, degrees.
        public var maximumSupportTiltDegrees: Float = 30
        /// The support-plane search (`SupportPlaneEstimator.estimate(samples:below:up:maximumTiltDegrees:)`);
        /// its `inlierDistance` is replaced as above. The support must carry a tenth of the depth
        /// samples around the object (the floor near it, not the whole room).
        public var supportPlane: SupportPlaneEstimator.Options = {
            var options = SupportPlaneEstimator.Options()
            options.minimumInlierFraction = 0.1
            return options
        }()
        public init() {}
    }

    public struct Result: Sendable {
        /// Box around the object's depth, down to its support, or without one down to the bottom
        /// of the object region (world frame, scene units).
        public var bounds: BoundingBox
        /// The plane the object stands on, normal up towards it; nil when none was found.
        public var supportPlane: Plane?
        /// Per input, a mask at its depth map's resolution: 255 where its depth lies on the object.
        public var masks: [GrayImage]
        /// Fraction of the inputs' depth pixels on the object.
        public var keptFraction: Double
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Why a capture's object was not isolated (the capture is then kept whole).
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Too few depth samples (or sparse points) lie in the region above its support.
        case tooLittleOnTheObject(samples: Int, needed: Int)
        /// This fraction of them lies at the region's edge: the object goes on beyond what every
        /// photo frames (photos taken too close to frame it whole), and cutting there would cut it.
        case reachesBeyondTheFrames(edgeFraction: Double)

        public var description: String {
            switch self {
            case .tooLittleOnTheObject(let samples, let needed):
                return "too little depth stands where the photos look (\(samples) samples, \(needed) needed)"
            case .reachesBeyondTheFrames(let fraction):
                return String(format: "the object reaches beyond what every photo frames (%.1f %% of it at the edge of that region): "
                              + "photos taken too close to show it whole", 100 * fraction)
            }
        }
    }

    /// The object's masks and box in `inputs`, or why it cannot be isolated. `up` is the world's
    /// up direction.
    public func isolate(_ inputs: [SurfaceReconstruction.DepthInput], region: ObjectRegion,
                        up: Vector3) -> Swift.Result<Result, Refusal> {
        var samples: [SIMD3<Float>] = []
        for input in inputs {
            let step = max(1, max(input.depth.width, input.depth.height) / max(1, options.samplesPerSide))
            samples += SurfaceReconstruction.backProjected(input, stride: step)
        }
        let object: Object
        do { object = try self.object(among: samples, region: region, up: up, minimumSamples: options.minimumObjectSamples) } catch {
            return .failure(error)
        }
        let box = AxisBox(object.bounds)
        var kept = 0, total = 0
        let masks = inputs.map { input -> GrayImage in
            var pixels = [UInt8](repeating: 0, count: input.depth.width * input.depth.height)
            for y in 0..<input.depth.height {
                for x in 0..<input.depth.width {
                    guard let point = input.worldPoint(x: x, y: y) else { continue }
                    total += 1
                    if box.contains(point) && object.isAboveSupport(point) { pixels[y * input.depth.width + x] = 255 }
                }
            }
            let mask = GrayImage(width: input.depth.width, height: input.depth.height, pixels: pixels)
                .keepingLargeComponents(minimumFraction: options.minimumMaskComponentFraction)
            kept += mask.pixels.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
            return mask
        }
        return .success(Result(bounds: object.bounds, supportPlane: object.plane, masks: masks,
                               keptFraction: total > 0 ? Double(kept) / Double(total) : 0))
    }

    /// The object's points among a capture's sparse points, with their feet on the support plane
    /// when one is found, else where the object region ends below them (before dense stereo, to
    /// tell stereo where to look), or why there are
    /// none (fewer than 30 of them lie on it, or it reaches the region's edge).
    public func sparseObjectPoints(_ points: [Vector3], region: ObjectRegion, up: Vector3) -> Swift.Result<[SIMD3<Float>], Refusal> {
        let samples = points.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }
        do {
            let object = try object(among: samples, region: region, up: up, minimumSamples: 30)
            return .success(object.points + object.footprint)
        } catch {
            return .failure(error)
        }
    }

    /// Where the object is among `samples` (world points): those in the region's box, above the
    /// plane they stand on when one is found among the samples around the region.
    struct Object {
        var bounds: BoundingBox
        var plane: Plane?
        var clearance: Float
        /// The samples on the object, and their feet on the plane.
        var points: [SIMD3<Float>] = []
        var footprint: [SIMD3<Float>] = []

        func isAboveSupport(_ p: SIMD3<Float>) -> Bool { plane.map { $0.signedDistance(p) > clearance } ?? true }
    }

    func object(among samples: [SIMD3<Float>], region: ObjectRegion, up: Vector3, minimumSamples: Int) throws(Refusal) -> Object {
        let regionBox = AxisBox(region.box)
        let reach = regionBox.grown(by: 2)  // the support around the object, half the region's size beyond it
        let nearby = samples.filter { reach.contains($0) }
        let inRegion = nearby.filter { regionBox.contains($0) }
        let inlierDistance = options.planeInlierFraction * Float(region.box.diagonal)
        let focus = SIMD3<Float>(Float(region.focus.x), Float(region.focus.y), Float(region.focus.z))
        var estimator = options.supportPlane
        estimator.inlierDistance = inlierDistance
        let plane = SupportPlaneEstimator(options: estimator).estimate(samples: nearby, below: focus, up: SIMD3(Float(up.x), Float(up.y), Float(up.z)),
                                                                       maximumTiltDegrees: options.maximumSupportTiltDegrees)
        let clearance = plane.map { self.clearance(above: $0, samples: nearby, inlierDistance: inlierDistance) } ?? 0
        var object = Object(bounds: region.box, plane: plane, clearance: clearance)
        let u = SIMD3<Float>(Float(up.x), Float(up.y), Float(up.z)) / Float(max(up.length, 1e-12))
        let onObject = inRegion.filter(object.isAboveSupport)
        // Without a support plane (a plain floor gives stereo no depth) the object may reach below
        // the region: the sparse points that make it stop short of the foot (`foot(under:…)`).
        let foot = plane != nil ? [] : self.foot(under: onObject, among: nearby, region: region, regionBox: regionBox, focus: focus, up: u)
        let above = onObject + foot
        guard above.count >= minimumSamples else { throw Refusal.tooLittleOnTheObject(samples: above.count, needed: minimumSamples) }
        // An object every photo frames lies well inside the region (whose box has a margin of a
        // tenth); one that reaches its outer twentieth, where not nearly every photo frames it,
        // goes on beyond what every photo frames. Depth there that nearly every photo frames is
        // still the object's: the foot of an object on a plain floor, which few sparse points reach
        // (3 % of a vase's depth samples at 640 × 480, all of them framed by all 24 photos; the
        // overflowing captures of `ObjectIsolationTests` are still refused).
        let inner = regionBox.grown(by: 0.9)
        let edgeCount = onObject.filter { !inner.contains($0) && !region.isFramedByNearlyEvery($0) }.count
        let edge = Double(edgeCount) / Double(max(1, onObject.count))
        guard edge <= options.maximumEdgeFraction else { throw Refusal.reachesBeyondTheFrames(edgeFraction: edge) }
        // The box reaches down to the support under the object. Without one (a plain floor gives
        // stereo no depth), down along up to the foot found under the region, else to where it
        // leaves the region every photo frames: the foot, which few sparse points reach, is still
        // the object's (its lowest 55–124 mm were cut from a 0.4 m vase on a plain floor).
        let bottom = foot.map { simdDot($0, u) }.min()
        let footprint = plane.map { plane in above.map { plane.projected($0) } } ?? above.map { p in
            bottom.map { p - (simdDot(p, u) - $0) * u } ?? p - regionBox.exitDistance(from: p, along: -u) * u  // the foot is lowest
        }
        guard let bounds = BoundingBox.estimate(enclosing: above + footprint, trimmedFraction: options.trimmedFraction,
                                                marginFraction: options.marginFraction) else {
            throw Refusal.tooLittleOnTheObject(samples: 0, needed: minimumSamples)
        }
        object.bounds = bounds
        object.points = above
        object.footprint = footprint
        return object
    }

    /// Depth under the object's samples in the region (`onObject`) that nearly every photo frames:
    /// below the lowest of them along `up`, no farther from the vertical through the focus than
    /// 99 % of them, outside the region's box. Its lowest `footTrimmedFraction` is left out, so a
    /// stray sample or a glint deep below does not pull the box down. With no support plane this
    /// is the foot of an object on a plain floor (a 24-view vase at 640 × 480 lost its lowest 3 cm
    /// without it; what reaches onto the floor is cut later, `RimFloor`).
    func foot(under onObject: [SIMD3<Float>], among nearby: [SIMD3<Float>], region: ObjectRegion, regionBox: AxisBox,
              focus: SIMD3<Float>, up u: SIMD3<Float>) -> [SIMD3<Float>] {
        guard let lowest = onObject.map({ simdDot($0, u) }).min() else { return [] }
        func radius(_ p: SIMD3<Float>) -> Float { simdLength((p - focus) - simdDot(p - focus, u) * u) }
        let radii = onObject.map(radius).sorted()
        let reach = radii[min(radii.count - 1, radii.count * 99 / 100)]
        let candidates = nearby.filter {
            simdDot($0, u) < lowest && !regionBox.contains($0) && radius($0) <= reach && region.isFramedByNearlyEvery($0)
        }
        guard !candidates.isEmpty else { return [] }
        let heights = candidates.map { simdDot($0, u) }.sorted()
        let floor = heights[min(heights.count - 1, Int(Double(heights.count) * options.footTrimmedFraction))]
        return candidates.filter { simdDot($0, u) >= floor }
    }

    /// How far above `plane` depth still belongs to it: `clearanceSigmas` times the noise of the
    /// samples on it (1.4826 × the median distance of those within three inlier distances),
    /// kept between `minimumClearanceInlierDistances` and `maximumClearanceInlierDistances`
    /// inlier distances (the depth at the object's foot is noisier than the support's median).
    func clearance(above plane: Plane, samples: [SIMD3<Float>], inlierDistance: Float) -> Float {
        var distances = samples.map { abs(plane.signedDistance($0)) }.filter { $0 < 3 * inlierDistance }
        let ceiling = options.maximumClearanceInlierDistances * inlierDistance
        guard !distances.isEmpty else { return ceiling }
        distances.sort()
        let noise = options.clearanceSigmas * 1.4826 * distances[distances.count / 2]
        return min(max(noise, options.minimumClearanceInlierDistances * inlierDistance), ceiling)
    }
}
