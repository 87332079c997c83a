import Foundation
import ReconstructionCore
import Rendering

/// Bakes the base-colour map from the photos. For each texel's surface point it picks, among the
/// views that see the point (depth test against the model rendered from each view), the few that
/// see it most frontally and most sharply, and blends them with those weights; per-view, per-channel
/// exposure gains are balanced first, so seams between views do not show as steps in brightness.
/// Optionally derives a roughness map from how much the point's brightness varies between views
/// (glossy surfaces change with the viewpoint; matte ones do not).
public struct DiffuseBaker: Sendable {
    public struct Options: Sendable {
        /// Candidate views kept per triangle (best first), and views blended per texel.
        public var candidateViewsPerTriangle: Int = 6
        public var blendedViewsPerTexel: Int = 3
        /// Views seeing the surface more obliquely than this cosine (normal · direction to camera) are ignored.
        public var minimumCosine: Float = 0.15
        /// Longer side of the depth buffers that decide visibility, pixels.
        public var visibilityResolution: Int = 1024
        /// Depth-test tolerance: a relative part of the depth plus a fraction of the model's diagonal.
        public var relativeDepthTolerance: Float = 0.01
        public var diagonalDepthTolerance: Float = 0.003
        /// Balance per-view exposure and white balance before blending.
        public var balanceExposure = true
        /// Texel grid step of the samples that balance exposure.
        public var exposureSampleStep: Int = 8
        /// Worker threads.
        public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public struct Result: Sendable {
        public var diffuse: RGBImage
        /// Roughness (0…255 = 0…1); nil unless asked for. A texel seen by fewer than two views
        /// takes the value of the nearest measured one (matte, 255, when none was measured).
        public var roughness: GrayImage?
        /// Multiplicative gain applied to each view (R, G, B), in `views` order.
        public var exposureGains: [SIMD3<Float>]
        /// Fraction of covered texels that some view sees (the rest are filled from neighbours).
        public var seenFraction: Double
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// - Parameter progress: the fraction of the texture's rows begun, from worker threads.
    public func bake(surface: TexelSurface, views: [BakingView], roughness wantRoughness: Bool,
                     progress: @Sendable (Double) -> Void = { _ in }) -> Result {
        let mesh = surface.mesh.triangleMesh
        let cameras = views.map { BakingCamera($0.intrinsics, $0.cameraFromWorld) }
        let diagonal = mesh.bounds.map { simdLength($0.max - $0.min) } ?? 1
        let visibility = VisibilityBuffers(mesh: mesh, views: views, longerSide: options.visibilityResolution,
                                           relativeTolerance: options.relativeDepthTolerance,
                                           absoluteTolerance: options.diagonalDepthTolerance * diagonal, workers: options.workers)
        // Greyscale photos among colour ones colour only what no colour photo sees.
        let colourless = views.contains { !$0.isGreyscale } ? views.map(\.isGreyscale) : views.map { _ in false }
        let candidates = triangleCandidates(mesh: mesh, cameras: cameras, visibility: visibility, lastResort: colourless)
        let observer = TexelObserver(views: views, cameras: cameras, visibility: visibility, candidates: candidates,
                                     minimumCosine: options.minimumCosine)
        let gains = options.balanceExposure ? exposureGains(surface: surface, observer: observer, viewCount: views.count)
            : [SIMD3<Float>](repeating: SIMD3(repeating: 1), count: views.count)

        let width = surface.width, height = surface.height
        let colour = SharedBuffer<UInt8>(count: width * height * 3)
        let seen = SharedBuffer<Bool>(count: width * height)
        let rough = SharedBuffer<UInt8>(count: wantRoughness ? width * height : 0)
        let measured = SharedBuffer<Bool>(count: wantRoughness ? width * height : 0)
        let rows = AtomicCounter()
        let blended = max(1, options.blendedViewsPerTexel)
        let every = rowsPerProgressReport(height)
        DispatchQueue.concurrentPerform(iterations: max(1, options.workers)) { _ in
            var observations: [TexelObserver.Observation] = []
            while true {
                let y = rows.next()
                if y >= height { break }
                if y % every == 0 { progress(Double(y) / Double(height)) }
                for sample in surface.row(y) {
                    observer.observe(sample, into: &observations)
                    guard !observations.isEmpty else { continue }
                    if observations.contains(where: { !colourless[$0.view] }) { observations.removeAll { colourless[$0.view] } }
                    let k = y * width + sample.x
                    observations.sort { $0.weight > $1.weight }
                    var sum = SIMD3<Float>(repeating: 0), total: Float = 0
                    for o in observations.prefix(blended) {
                        sum += o.colour * gains[o.view] * o.weight
                        total += o.weight
                    }
                    let c = sum / total
                    for ch in 0..<3 { colour[k * 3 + ch] = UInt8(clamping: Int(c[ch].rounded())) }
                    seen[k] = true
                    if wantRoughness, observations.count >= 2 {
                        rough[k] = Self.roughness(observations, gains: gains)
                        measured[k] = true
                    }
                }
            }
        }
        var pixels = colour.array
        let seenMask = seen.array
        GutterFill.fill(&pixels, channels: 3, width: width, height: height, covered: seenMask)
        var roughnessMap: GrayImage?
        if wantRoughness {
            var r = rough.array
            let known = measured.array
            if known.contains(true) {
                GutterFill.fill(&r, channels: 1, width: width, height: height, covered: known)
            } else {
                r = [UInt8](repeating: 255, count: width * height)
            }
            roughnessMap = GrayImage(width: width, height: height, pixels: r)
        }
        let covered = surface.texels.coveredCount
        let seenCount = seenMask.reduce(0) { $0 + ($1 ? 1 : 0) }
        return Result(diffuse: RGBImage(width: width, height: height, pixels: pixels), roughness: roughnessMap,
                      exposureGains: gains, seenFraction: covered > 0 ? Double(seenCount) / Double(covered) : 0)
    }

    /// Roughness from the spread of luminance between views: the coefficient of variation c maps
    /// to 1 − 3c, clamped to 0.2…1 (a matte surface looks the same from everywhere).
    static func roughness(_ observations: [TexelObserver.Observation], gains: [SIMD3<Float>]) -> UInt8 {
        var sum: Float = 0, sum2: Float = 0, total: Float = 0
        for o in observations {
            let c = o.colour * gains[o.view]
            let luminance = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
            sum += luminance * o.weight
            sum2 += luminance * luminance * o.weight
            total += o.weight
        }
        let mean = sum / total
        let variation = mean > 1 ? max(0, sum2 / total - mean * mean).squareRoot() / mean : 0
        let r = min(1, max(0.2, 1 - 3 * variation))
        return UInt8(clamping: Int((r * 255).rounded()))
    }

    /// Per triangle, the views that may see it, best (most frontal and closest) first, and the
    /// `lastResort` views after all others.
    func triangleCandidates(mesh: TriangleMesh, cameras: [BakingCamera], visibility: VisibilityBuffers, lastResort: [Bool]) -> [[Int32]] {
        let keep = max(1, options.candidateViewsPerTriangle)
        let minimumCosine = options.minimumCosine
        let chunk = 4096
        let chunks = (mesh.triangles.count + chunk - 1) / chunk
        let parts = parallelMap(chunks, workers: options.workers) { c -> [[Int32]] in
            var out: [[Int32]] = []
            for k in (c * chunk)..<min(mesh.triangles.count, (c + 1) * chunk) {
                let (a, b, d) = mesh.corners(of: k)
                let n = simdCross(b - a, d - a)
                let length = simdLength(n)
                guard length > 0 else { out.append([]); continue }
                let normal = n / length
                let centroid = (a + b + d) / 3
                let probes = [centroid, a + (centroid - a) * 0.2, b + (centroid - b) * 0.2, d + (centroid - d) * 0.2]
                var scored: [(view: Int32, score: Float)] = []
                for (v, camera) in cameras.enumerated() {
                    let toCamera = camera.centre - centroid
                    let distance = simdLength(toCamera)
                    let cosine = simdDot(normal, toCamera) / max(distance, 1e-12)
                    guard cosine >= minimumCosine else { continue }
                    guard probes.contains(where: { visibility.sees(view: v, point: $0, camera: camera) }) else { continue }
                    let score = cosine * camera.fx / max(distance, 1e-12)
                    scored.append((Int32(v), lastResort[v] ? -1 / max(score, 1e-30) : score))
                }
                scored.sort { $0.score > $1.score }
                out.append(scored.prefix(keep).map(\.view))
            }
            return out
        }
        return parts.flatMap { $0 }
    }

    /// Per-view, per-channel gains that make overlapping views agree: on a grid of texels, each
    /// view's gain moves by the median log ratio between the texel's consensus and what the view
    /// saw; a few rounds, then normalised to a geometric mean of 1 and clamped to 0.5…2.
    func exposureGains(surface: TexelSurface, observer: TexelObserver, viewCount: Int) -> [SIMD3<Float>] {
        let step = max(1, options.exposureSampleStep)
        var samples: [[TexelObserver.Observation]] = []
        var observations: [TexelObserver.Observation] = []
        for y in stride(from: step / 2, to: surface.height, by: step) {
            for sample in surface.row(y) where sample.x % step == step / 2 {
                observer.observe(sample, into: &observations)
                let bright = observations.filter { min($0.colour.x, $0.colour.y, $0.colour.z) > 10 && max($0.colour.x, $0.colour.y, $0.colour.z) < 245 }
                if bright.count >= 2 { samples.append(bright) }
            }
        }
        var gains = [SIMD3<Float>](repeating: SIMD3(repeating: 1), count: viewCount)
        guard samples.count >= 50 else { return gains }
        for _ in 0..<5 {
            var ratios = [[SIMD3<Float>]](repeating: [], count: viewCount)
            for texel in samples {
                var sum = SIMD3<Float>(repeating: 0), total: Float = 0
                for o in texel { sum += o.colour * gains[o.view] * o.weight; total += o.weight }
                let consensus = sum / total
                for o in texel {
                    let r = consensus / (o.colour * gains[o.view])
                    ratios[o.view].append(SIMD3(log(r.x), log(r.y), log(r.z)))
                }
            }
            for v in 0..<viewCount where ratios[v].count >= 20 {
                let update = SIMD3<Float>((0..<3).map { ch in Statistics.median(ratios[v].map { Double($0[ch]) }) }.map(Float.init))
                gains[v] *= SIMD3(exp(update.x), exp(update.y), exp(update.z))
            }
            var logMean = SIMD3<Float>(repeating: 0)
            for g in gains { logMean += SIMD3(log(g.x), log(g.y), log(g.z)) }
            logMean /= Float(viewCount)
            gains = gains.map { g in
                let n = g / SIMD3(exp(logMean.x), exp(logMean.y), exp(logMean.z))
                return SIMD3(min(2, max(0.5, n.x)), min(2, max(0.5, n.y)), min(2, max(0.5, n.z)))
            }
        }
        return gains
    }
}
