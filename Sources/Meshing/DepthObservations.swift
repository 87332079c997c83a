import ReconstructionCore

/// A depth map's valid pixels, their weights and viewing rays, ready for integration.
struct DepthObservations: Sendable {
    let width: Int
    let height: Int
    /// Depth per pixel in metres; 0 where the pixel is not used.
    let depth: [Float]
    /// Observation weight per pixel (input weight × viewing-angle factor); 0 where not used.
    let weight: [Float]
    /// Per pixel, the factor turning a distance along the viewing ray into a distance along the
    /// surface normal (the viewing-angle cosine, floored), or 1.
    let distanceScale: [Float]
    /// Normalised undistorted ray `(x/z, y/z)` through each pixel centre.
    let rays: [SIMD2<Float>]
    /// Number of usable pixels.
    let validCount: Int

    init(depth map: DepthMap, weights: [Float]?, mask: GrayImage?, camera: ProjectiveCamera,
         options: TSDFVolume.Options, truncation: Float) {
        let width = map.width, height = map.height
        self.width = width
        self.height = height
        let workers = options.workers
        let minimumDepth = options.minimumDepth, maximumDepth = options.maximumDepth
        let validMask = mask.flatMap { $0.width > 0 && $0.height > 0 && $0.pixels.count == $0.width * $0.height ? $0 : nil }

        // Rays and filtered depths, row bands in parallel.
        let bandCount = min(height, workers * 4)
        let firstPass: [([SIMD2<Float>], [Float], [Float])] = parallelMap(bandCount, workers: workers) { band in
            let rowStart = band * height / bandCount, rowEnd = (band + 1) * height / bandCount
            var rays = [SIMD2<Float>](), depths = [Float](), pixelWeights = [Float]()
            let n = (rowEnd - rowStart) * width
            rays.reserveCapacity(n)
            depths.reserveCapacity(n)
            pixelWeights.reserveCapacity(n)
            for y in rowStart..<rowEnd {
                for x in 0..<width {
                    rays.append(camera.normalisedRay(pixelX: Float(x) + 0.5, pixelY: Float(y) + 0.5))
                    let i = y * width + x
                    var d = map.metres[i]
                    var w: Float = weights?[i] ?? 1
                    if !(d.isFinite && d >= minimumDepth && d <= maximumDepth) { d = 0 }
                    if !(w.isFinite && w > 0) { w = 0 }
                    if let m = validMask {
                        let mx = min(m.width - 1, x * m.width / width), my = min(m.height - 1, y * m.height / height)
                        if m.pixels[my * m.width + mx] == 0 { w = 0 }
                    }
                    if w == 0 { d = 0 }
                    if d == 0 { w = 0 }
                    depths.append(d)
                    pixelWeights.append(w)
                }
            }
            return (rays, depths, pixelWeights)
        }
        let rays = firstPass.flatMap { $0.0 }
        let depths = firstPass.flatMap { $0.1 }
        let pixelWeights = firstPass.flatMap { $0.2 }
        self.rays = rays
        self.depth = depths
        validCount = depths.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }

        // Surface normals from neighbouring pixels give each pixel's viewing-angle cosine.
        guard options.weightsByViewingAngle || options.measuresDistanceAlongNormal else {
            weight = pixelWeights
            distanceScale = [Float](repeating: 1, count: depths.count)
            return
        }
        let floor = min(max(options.minimumCosine, 0.01), 1)
        let jump = truncation  // neighbours further apart in depth are across a discontinuity
        let stencil = 2  // pixels on each side for the normal (fewer where depth is missing or jumps)
        let cosines: [[Float]] = parallelMap(bandCount, workers: workers) { band in
            let rowStart = band * height / bandCount, rowEnd = (band + 1) * height / bandCount
            var out = [Float]()
            out.reserveCapacity((rowEnd - rowStart) * width)
            depths.withUnsafeBufferPointer { depths in
                rays.withUnsafeBufferPointer { rays in
                    for y in rowStart..<rowEnd {
                        for x in 0..<width {
                            let i = y * width + x
                            let d = depths[i]
                            guard d > 0 else { out.append(1); continue }
                            @inline(__always) func point(_ j: Int) -> SIMD3<Float> {
                                SIMD3(rays[j].x * depths[j], rays[j].y * depths[j], depths[j])
                            }
                            @inline(__always) func usable(_ j: Int) -> Bool { depths[j] > 0 && abs(depths[j] - d) < jump }
                            // Pixels usable in a row from i along `step`, at most `limit`.
                            @inline(__always) func run(_ step: Int, _ limit: Int) -> Int {
                                var n = 0
                                while n < limit, usable(i + (n + 1) * step) { n += 1 }
                                return n
                            }
                            let left = run(-1, min(x, stencil)), right = run(1, min(width - 1 - x, stencil))
                            let up = run(-width, min(y, stencil)), down = run(width, min(height - 1 - y, stencil))
                            guard left + right > 0, up + down > 0 else { out.append(floor); continue }  // an edge or grazing pixel
                            let tangentX = point(i + right) - point(i - left)
                            let tangentY = point(i + down * width) - point(i - up * width)
                            let normal = simdCross(tangentX, tangentY)
                            let ray = SIMD3<Float>(rays[i].x, rays[i].y, 1)
                            let lengths = simdLength(normal) * simdLength(ray)
                            let cosine = lengths > 0 ? abs(simdDot(normal, ray)) / lengths : 1
                            out.append(max(cosine, floor))
                        }
                    }
                }
            }
            return out
        }
        let cosine = cosines.flatMap { $0 }
        weight = options.weightsByViewingAngle ? zip(pixelWeights, cosine).map { $0 * $1 } : pixelWeights
        distanceScale = options.measuresDistanceAlongNormal ? cosine : [Float](repeating: 1, count: depths.count)
    }

}
