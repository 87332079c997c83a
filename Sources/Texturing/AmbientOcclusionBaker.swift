import Foundation
import ReconstructionCore

/// Bakes ambient occlusion: the fraction of a cosine-weighted hemisphere above each texel that
/// no other part of the model hides within a reach. Occlusion varies slowly over a surface, so it
/// is ray cast on a texel grid of at most `workingSize` and resampled to the map's size (gutters
/// are filled first, so resampling at chart borders stays inside the chart's values).
public struct AmbientOcclusionBaker: Sendable {
    public struct Options: Sendable {
        /// Rays per texel.
        public var raysPerTexel: Int = 24
        /// How far an occluder counts, as a fraction of the bounding-box diagonal.
        public var reachFraction: Float = 0.15
        /// Largest texel grid ray cast; larger maps are resampled from it.
        public var workingSize: Int = 1024
        /// Worker threads.
        public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Occlusion map of `mesh` (atlased) at `size` × `size`, 255 = open; `rays` answers queries
    /// on the same mesh.
    public func bake(mesh: TexturedMesh, size: Int, rays caster: any RayCasting) throws -> GrayImage {
        let working = min(size, max(16, options.workingSize))
        let surface = TexelSurface(mesh: mesh, texels: AtlasTexelMap(mesh: mesh, width: working, height: working))
        let diagonal = mesh.bounds.map { simdLength($0.max - $0.min) } ?? 1
        let reach = max(options.reachFraction * diagonal, 1e-6)
        let offset = 1e-4 * diagonal
        let directions = Self.hemisphere(count: max(1, options.raysPerTexel))
        let values = SharedBuffer<UInt8>(count: working * working)
        let covered = SharedBuffer<Bool>(count: working * working)
        try forEachRow(working, workers: options.workers) { y in
            let row = surface.row(y)
            if row.isEmpty { return }
            var origins: [SIMD3<Float>] = [], rays: [SIMD3<Float>] = []
            origins.reserveCapacity(row.count * directions.count)
            rays.reserveCapacity(row.count * directions.count)
            for sample in row {
                let n = sample.normal
                let helper: SIMD3<Float> = abs(n.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
                var t = helper - n * simdDot(n, helper)
                t /= simdLength(t)
                let b = simdCross(n, t)
                // Rotate the pattern per texel so neighbouring texels do not share its banding.
                let angle = Float(Self.hash(sample.x, y)) * (2 * .pi / 65536)
                let (s, c) = (sin(angle), cos(angle))
                let origin = sample.position + n * offset
                for d in directions {
                    let x = c * d.x - s * d.y, yy = s * d.x + c * d.y
                    origins.append(origin)
                    rays.append(t * x + b * yy + n * d.z)
                }
            }
            let hidden = try caster.occluded(origins: origins, directions: rays, near: 0, far: reach)
            for (i, sample) in row.enumerated() {
                var open = 0
                for j in 0..<directions.count where !hidden[i * directions.count + j] { open += 1 }
                let k = y * working + sample.x
                values[k] = UInt8(clamping: Int((Float(open) / Float(directions.count) * 255).rounded()))
                covered[k] = true
            }
        }
        var pixels = values.array
        GutterFill.fill(&pixels, channels: 1, width: working, height: working, covered: covered.array)
        let small = GrayImage(width: working, height: working, pixels: pixels)
        return working == size ? small : ImageResampling.bilinear(small, width: size, height: size)
    }

    /// Cosine-weighted directions on the unit hemisphere around +z, stratified (Fibonacci spiral).
    static func hemisphere(count: Int) -> [SIMD3<Float>] {
        let golden = Float.pi * (3 - 5.0.squareRoot().float)
        return (0..<count).map { i in
            let u = (Float(i) + 0.5) / Float(count)
            let r = u.squareRoot()          // cosine weighting: uniform on the disc, lifted
            let phi = Float(i) * golden
            return SIMD3(r * cos(phi), r * sin(phi), (1 - u).squareRoot())
        }
    }

    static func hash(_ x: Int, _ y: Int) -> UInt16 {
        var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
        h ^= h >> 13
        h = h &* 0x5bd1_e995
        h ^= h >> 15
        return UInt16(truncatingIfNeeded: h)
    }
}

private extension Double {
    var float: Float { Float(self) }
}
