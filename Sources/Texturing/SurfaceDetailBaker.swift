import Foundation
import ReconstructionCore

/// Bakes the detail of a full-resolution surface onto a decimated, atlased one: a tangent-space
/// normal map and a displacement map. Each texel casts rays from its point on the decimated
/// surface along ± its normal into the detailed mesh; the nearer hit gives the detailed normal
/// (interpolated vertex normal) and the signed height (positive outwards).
public struct SurfaceDetailBaker: Sendable {
    public struct Options: Sendable {
        /// Farthest the detailed surface is searched from the decimated one, as a fraction of the
        /// model's bounding-box diagonal.
        public var searchDistanceFraction: Float = 0.02
        /// Worker threads.
        public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public struct Result: Sendable {
        /// Tangent-space normals, n · 0.5 + 0.5 per channel; nil when not asked for.
        public var normal: RGBImage?
        /// Heights: metres = (value / 255 − 0.5) · `displacementRange`; nil when not asked for.
        public var displacement: GrayImage?
        /// Model units spanned by the displacement map's 0…255 range.
        public var displacementRange: Float
        /// Fraction of covered texels whose rays found the detailed surface.
        public var hitFraction: Double
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Bakes over `surface` (decimated mesh + texel map) from `detailed` (with vertex normals),
    /// whose ray queries `detailedRays` answers.
    /// - Parameter progress: the fraction of the texture's rows begun, from worker threads.
    public func bake(surface: TexelSurface, detailed: TriangleMesh, detailedRays: any RayCasting,
                     normalMap: Bool, displacementMap: Bool, progress: @Sendable (Double) -> Void = { _ in }) throws -> Result {
        let width = surface.width, height = surface.height
        let normals = detailed.hasNormals ? detailed.normals : detailed.computedVertexNormals()
        let diagonal = surface.mesh.bounds.map { simdLength($0.max - $0.min) } ?? 1
        let reach = max(options.searchDistanceFraction * diagonal, 1e-6)
        let normalPixels = normalMap ? SharedBuffer<UInt8>(count: width * height * 3) : nil
        let heights = SharedBuffer<Float>(count: displacementMap ? width * height : 0)
        let covered = SharedBuffer<Bool>(count: width * height)
        let hits = Tally(), samples = Tally()
        try forEachRow(height, workers: options.workers, progress: progress) { y in
            let row = surface.row(y)
            if row.isEmpty { return }
            let origins = row.map(\.position)
            let outward = try detailedRays.closestHits(origins: origins, directions: row.map(\.normal), near: 0, far: reach)
            let inward = try detailedRays.closestHits(origins: origins, directions: row.map { -$0.normal }, near: 0, far: reach)
            var rowHits = 0
            for (i, sample) in row.enumerated() {
                let k = y * width + sample.x
                covered[k] = true
                var chosen: (hit: RayHit, sign: Float)?
                if let o = outward[i] { chosen = (o, 1) }
                if let n = inward[i], chosen == nil || n.distance < chosen!.hit.distance { chosen = (n, -1) }
                var tangentNormal = SIMD3<Float>(0, 0, 1)
                var height: Float = 0
                if let (hit, sign) = chosen {
                    rowHits += 1
                    height = sign * hit.distance
                    let t = detailed.triangles[hit.triangle], w = hit.barycentrics
                    var n = normals[Int(t.x)] * w.x + normals[Int(t.y)] * w.y + normals[Int(t.z)] * w.z
                    let length = simdLength(n)
                    if length > 0 {
                        n /= length
                        let frame = surface.frame(of: sample)
                        tangentNormal = SIMD3(simdDot(n, frame.tangent), simdDot(n, frame.bitangent), simdDot(n, frame.normal))
                        if tangentNormal.z < 0.05 {  // a flipped or grazing hit: keep the surface's own normal
                            tangentNormal = SIMD3(0, 0, 1)
                        }
                        tangentNormal /= simdLength(tangentNormal)
                    }
                }
                if let normalPixels {
                    for c in 0..<3 { normalPixels[k * 3 + c] = UInt8(clamping: Int(((tangentNormal[c] * 0.5 + 0.5) * 255).rounded())) }
                }
                if displacementMap { heights[k] = height }
            }
            hits.add(rowHits)
            samples.add(row.count)
        }
        let mask = covered.array
        var normal: RGBImage?
        if var pixels = normalPixels?.array {
            GutterFill.fill(&pixels, channels: 3, width: width, height: height, covered: mask)
            normal = RGBImage(width: width, height: height, pixels: pixels)
        }
        var displacement: GrayImage?
        var range: Float = 0
        if displacementMap {
            let values = heights.array
            var largest: Float = 0
            for (k, h) in values.enumerated() where mask[k] { largest = max(largest, abs(h)) }
            range = max(2 * largest, 1e-6)
            var pixels = values.map { UInt8(clamping: Int((($0 / range + 0.5) * 255).rounded())) }
            GutterFill.fill(&pixels, channels: 1, width: width, height: height, covered: mask)
            displacement = GrayImage(width: width, height: height, pixels: pixels)
        }
        let total = samples.value
        return Result(normal: normal, displacement: displacement, displacementRange: range,
                      hitFraction: total > 0 ? Double(hits.value) / Double(total) : 0)
    }
}
