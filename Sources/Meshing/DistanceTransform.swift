/// Exact Euclidean distance transforms of binary images (Felzenszwalb and Huttenlocher's
/// lower-envelope algorithm, one pass per axis, linear in the pixel count).
enum DistanceTransform {
    /// For every pixel, the squared distance in pixels to the nearest pixel where `isFeature` is
    /// true (`.infinity` when there is none).
    static func squaredDistances(width: Int, height: Int, isFeature: (Int) -> Bool) -> [Float] {
        var grid = [Float](repeating: .infinity, count: width * height)
        for i in grid.indices where isFeature(i) { grid[i] = 0 }
        var line = [Float](repeating: 0, count: max(width, height))
        var out = [Float](repeating: 0, count: max(width, height))
        var vertices = [Int](repeating: 0, count: max(width, height))
        var bounds = [Float](repeating: 0, count: max(width, height) + 1)
        for x in 0..<width {
            for y in 0..<height { line[y] = grid[y * width + x] }
            lowerEnvelope(line, count: height, into: &out, vertices: &vertices, bounds: &bounds)
            for y in 0..<height { grid[y * width + x] = out[y] }
        }
        for y in 0..<height {
            for x in 0..<width { line[x] = grid[y * width + x] }
            lowerEnvelope(line, count: width, into: &out, vertices: &vertices, bounds: &bounds)
            for x in 0..<width { grid[y * width + x] = out[x] }
        }
        return grid
    }

    /// One dimension: out[q] = min over p of (q − p)² + f[p].
    private static func lowerEnvelope(_ f: [Float], count n: Int, into out: inout [Float], vertices v: inout [Int], bounds z: inout [Float]) {
        guard n > 0 else { return }
        var k = -1
        for q in 0..<n where f[q].isFinite {
            if k < 0 {
                k = 0
                v[0] = q
                z[0] = -.infinity
                z[1] = .infinity
                continue
            }
            var s: Float
            repeat {
                let p = v[k]
                s = ((f[q] + Float(q * q)) - (f[p] + Float(p * p))) / Float(2 * (q - p))
                if s <= z[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            v[k] = q
            z[k] = k == 0 ? -.infinity : s
            z[k + 1] = .infinity
        }
        guard k >= 0 else {
            for q in 0..<n { out[q] = .infinity }
            return
        }
        var j = 0
        for q in 0..<n {
            while z[j + 1] < Float(q) { j += 1 }
            let d = Float(q - v[j])
            out[q] = d * d + f[v[j]]
        }
    }
}
