/// Which triangle of a `TexturedMesh` covers each texel centre of a W×H atlas, with barycentric
/// weights: what every texture baker walks over. Texel (x, y) has its centre at
/// ((x + 0.5) / W, (y + 0.5) / H) in atlas coordinates; rows top to bottom.
public struct AtlasTexelMap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Covering triangle per texel; −1 where the texel lies outside every chart (gutter).
    public var triangle: [Int32]
    /// Barycentric weights of corners y and z of the covering triangle (corner x has 1 − sum).
    public var barycentrics: [SIMD2<Float>]

    /// Rasterizes every UV triangle of `mesh` into a `width` × `height` texel grid. A texel centre
    /// on an edge shared by two triangles goes to one of them; overlapping triangles (which a valid
    /// atlas does not have) keep the later one.
    public init(mesh: TexturedMesh, width: Int, height: Int) {
        precondition(width > 0 && height > 0, "AtlasTexelMap needs a positive size")
        self.width = width
        self.height = height
        var ids = [Int32](repeating: -1, count: width * height)
        var bary = [SIMD2<Float>](repeating: .zero, count: width * height)
        let scale = SIMD2<Double>(Double(width), Double(height))
        ids.withUnsafeMutableBufferPointer { ids in
            bary.withUnsafeMutableBufferPointer { bary in
                for (index, t) in mesh.uvTriangles.enumerated() {
                    let a = SIMD2<Double>(mesh.uvs[Int(t.x)]) * scale
                    let b = SIMD2<Double>(mesh.uvs[Int(t.y)]) * scale
                    let c = SIMD2<Double>(mesh.uvs[Int(t.z)]) * scale
                    let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                    if area == 0 || !area.isFinite { continue }
                    let x0 = max(0, Int((min(a.x, b.x, c.x) - 0.5).rounded(.up)))
                    let x1 = min(width - 1, Int((max(a.x, b.x, c.x) - 0.5).rounded(.down)))
                    let y0 = max(0, Int((min(a.y, b.y, c.y) - 0.5).rounded(.up)))
                    let y1 = min(height - 1, Int((max(a.y, b.y, c.y) - 0.5).rounded(.down)))
                    if x0 > x1 || y0 > y1 { continue }
                    let inv = 1 / area
                    for y in y0...y1 {
                        let py = Double(y) + 0.5
                        for x in x0...x1 {
                            let px = Double(x) + 0.5
                            // Signed areas opposite each corner, normalised: barycentric weights.
                            let wa = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) * inv
                            let wb = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) * inv
                            let wc = 1 - wa - wb
                            // Top-left-style tie break: include one closed side only.
                            if wa < 0 || wb < 0 || wc < 0 { continue }
                            if (wa == 0 || wb == 0 || wc == 0) && ids[y * width + x] >= 0 { continue }
                            ids[y * width + x] = Int32(index)
                            bary[y * width + x] = SIMD2(Float(wb), Float(wc))
                        }
                    }
                }
            }
        }
        triangle = ids
        barycentrics = bary
    }

    /// The covering triangle and all three barycentric weights at texel (x, y), or nil in the gutter.
    @inline(__always)
    public func hit(x: Int, y: Int) -> (triangle: Int, barycentrics: SIMD3<Float>)? {
        let k = y * width + x
        let t = triangle[k]
        guard t >= 0 else { return nil }
        let b = barycentrics[k]
        return (Int(t), SIMD3(1 - b.x - b.y, b.x, b.y))
    }

    /// Texels covered by some triangle.
    public var coveredCount: Int { triangle.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) } }
}

/// Gutter padding: texels outside the charts take the mean of their already-filled neighbours,
/// ring by ring, so bilinear filtering and mip-mapping at chart borders do not bleed the
/// background into the model.
public enum AtlasPadding {
    /// Fills up to `rings` texels around the covered ones (`covered[k]` true) in an interleaved
    /// `channels`-per-texel image. Texels still empty afterwards are left as they were.
    public static func dilate(_ pixels: inout [UInt8], channels: Int, width: Int, height: Int, covered: [Bool], rings: Int) {
        precondition(pixels.count == width * height * channels && covered.count == width * height)
        var filled = covered
        var frontier: [Int] = []
        for y in 0..<height {
            for x in 0..<width where !filled[y * width + x] {
                if hasFilledNeighbour(x, y, filled, width, height) { frontier.append(y * width + x) }
            }
        }
        var ring = 0
        var sums = [Int](repeating: 0, count: channels)
        while ring < rings && !frontier.isEmpty {
            var values: [(Int, [UInt8])] = []
            values.reserveCapacity(frontier.count)
            for k in frontier {
                let x = k % width, y = k / width
                for c in 0..<channels { sums[c] = 0 }
                var n = 0
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height, filled[ny * width + nx] else { continue }
                        let j = (ny * width + nx) * channels
                        for c in 0..<channels { sums[c] += Int(pixels[j + c]) }
                        n += 1
                    }
                }
                if n > 0 { values.append((k, (0..<channels).map { UInt8((sums[$0] + n / 2) / n) })) }
            }
            for (k, v) in values {
                for c in 0..<channels { pixels[k * channels + c] = v[c] }
                filled[k] = true
            }
            var next: [Int] = []
            for (k, _) in values {
                let x = k % width, y = k / width
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let j = ny * width + nx
                        if !filled[j] { next.append(j) }
                    }
                }
            }
            frontier = Array(Set(next)).sorted()
            ring += 1
        }
    }

    private static func hasFilledNeighbour(_ x: Int, _ y: Int, _ filled: [Bool], _ width: Int, _ height: Int) -> Bool {
        for dy in -1...1 {
            for dx in -1...1 where dx != 0 || dy != 0 {
                let nx = x + dx, ny = y + dy
                if nx >= 0, ny >= 0, nx < width, ny < height, filled[ny * width + nx] { return true }
            }
        }
        return false
    }
}
