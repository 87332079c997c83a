/// Orders points along a Z-order (Morton) curve over their bounding box, so points close in the
/// order are close in space. Used to make batches of nearest-point queries cache-friendly.
enum SpatialOrder {
    /// Cells per axis of the ordering grid (2^bits); 64³ cells.
    static let bitsPerAxis = 6

    /// Indices of `points` sorted by the Morton code of their grid cell (a stable counting sort,
    /// O(n)); non-finite points go last.
    static func indices(of points: [SIMD3<Float>]) -> [Int32] {
        var lower = SIMD3<Float>(repeating: .infinity), upper = SIMD3<Float>(repeating: -.infinity)
        for p in points where SurfaceDistanceIndex.isFinite(p) {
            lower = BVHBuilder.minimum(lower, p)
            upper = BVHBuilder.maximum(upper, p)
        }
        let cells = 1 << bitsPerAxis
        let keyCount = cells * cells * cells + 1  // the extra key holds non-finite points
        let extent = upper - lower
        let scale = SIMD3<Float>(
            extent.x > 0 ? Float(cells) / extent.x : 0, extent.y > 0 ? Float(cells) / extent.y : 0,
            extent.z > 0 ? Float(cells) / extent.z : 0)
        var keys = [Int32](repeating: 0, count: points.count)
        var counts = [Int](repeating: 0, count: keyCount + 1)
        for (i, p) in points.enumerated() {
            let key: Int
            if SurfaceDistanceIndex.isFinite(p) {
                let cell = (p - lower) * scale
                let x = min(cells - 1, max(0, Int(cell.x)))
                let y = min(cells - 1, max(0, Int(cell.y)))
                let z = min(cells - 1, max(0, Int(cell.z)))
                key = interleave(x) | interleave(y) << 1 | interleave(z) << 2
            } else {
                key = keyCount - 1
            }
            keys[i] = Int32(key)
            counts[key + 1] += 1
        }
        for k in 1...keyCount { counts[k] += counts[k - 1] }
        var result = [Int32](repeating: 0, count: points.count)
        for i in points.indices {
            let key = Int(keys[i])
            result[counts[key]] = Int32(i)
            counts[key] += 1
        }
        return result
    }

    /// Spreads the low `bitsPerAxis` bits of `v` to every third bit.
    @inline(__always)
    static func interleave(_ v: Int) -> Int {
        var result = 0
        for bit in 0..<bitsPerAxis where v & (1 << bit) != 0 { result |= 1 << (3 * bit) }
        return result
    }
}
