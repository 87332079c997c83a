/// Fills every texel outside the charts with the value of a nearby covered texel, so bilinear
/// filtering, mip-mapping and block compression at chart borders never pull in the background.
/// Two raster sweeps propagate the nearest covered texel (an approximate Euclidean distance
/// transform, in linear time), which matters at 8192² where ring-by-ring dilation is slow.
public enum GutterFill {
    /// The index of a nearby covered texel for every texel (itself when covered), or nil when
    /// nothing is covered.
    public static func nearestCovered(_ covered: [Bool], width: Int, height: Int) -> [Int32]? {
        precondition(covered.count == width * height)
        var nearest = [Int32](repeating: -1, count: width * height)
        var any = false
        for k in 0..<covered.count where covered[k] { nearest[k] = Int32(k); any = true }
        guard any else { return nil }
        nearest.withUnsafeMutableBufferPointer { n in
            func distance2(_ k: Int, _ source: Int32) -> Int {
                let dx = k % width - Int(source) % width, dy = k / width - Int(source) / width
                return dx * dx + dy * dy
            }
            func relax(_ k: Int, from j: Int) {
                let s = n[j]
                guard s >= 0 else { return }
                if n[k] < 0 || distance2(k, s) < distance2(k, n[k]) { n[k] = s }
            }
            for y in 0..<height {
                for x in 0..<width {
                    let k = y * width + x
                    if x > 0 { relax(k, from: k - 1) }
                    if y > 0 {
                        relax(k, from: k - width)
                        if x > 0 { relax(k, from: k - width - 1) }
                        if x + 1 < width { relax(k, from: k - width + 1) }
                    }
                }
                for x in stride(from: width - 2, through: 0, by: -1) { relax(y * width + x, from: y * width + x + 1) }
            }
            for y in stride(from: height - 1, through: 0, by: -1) {
                for x in stride(from: width - 1, through: 0, by: -1) {
                    let k = y * width + x
                    if x + 1 < width { relax(k, from: k + 1) }
                    if y + 1 < height {
                        relax(k, from: k + width)
                        if x + 1 < width { relax(k, from: k + width + 1) }
                        if x > 0 { relax(k, from: k + width - 1) }
                    }
                }
                for x in 1..<max(1, width) { relax(y * width + x, from: y * width + x - 1) }
            }
        }
        return nearest
    }

    /// Copies into every uncovered texel of an interleaved `channels`-per-texel image the value of
    /// its nearest covered texel. Leaves the image unchanged when nothing is covered.
    public static func fill(_ pixels: inout [UInt8], channels: Int, width: Int, height: Int, covered: [Bool]) {
        precondition(pixels.count == width * height * channels)
        guard let nearest = nearestCovered(covered, width: width, height: height) else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for k in 0..<nearest.count where !covered[k] {
                let s = Int(nearest[k])
                for c in 0..<channels { p[k * channels + c] = p[s * channels + c] }
            }
        }
    }
}
