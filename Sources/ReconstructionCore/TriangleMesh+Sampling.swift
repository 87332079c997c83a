
extension TriangleMesh {
    /// `count` points spread uniformly by area over the surface.
    ///
    /// Stratified (jittered) sampling along the triangles' cumulative area: sample k falls at a
    /// uniformly random position of the k-th of `count` equal slices of the total area, then
    /// uniformly inside the triangle that holds that position. Every point is uniform by area, and
    /// each triangle receives its expected share of samples give or take one (lower variance
    /// than independent draws). Deterministic for a given `seed`, whatever the number of
    /// `workers`. Triangles with an index out of range, zero area or a non-finite corner are
    /// ignored; an empty list when no area remains.
    public func sampledPoints(count: Int, seed: UInt64 = 0, workers: Int = 1) -> [SIMD3<Float>] {
        guard count > 0 else { return [] }
        let (valid, cumulative) = cumulativeAreas()
        guard let total = cumulative.last, total > 0 else { return [] }
        let slice = total / Double(count)
        // Fixed-size blocks, each with its own generator, keep the result independent of `workers`.
        let block = 16_384
        let blockCount = (count + block - 1) / block
        let positions = self.positions, triangles = self.triangles
        let parts = parallelMap(blockCount, workers: workers) { b -> [SIMD3<Float>] in
            var generator = SeededGenerator(seed: seed ^ (UInt64(b) &* 0xD6E8_FEB8_6659_FD93))
            let first = b * block, end = min(count, first + block)
            var points: [SIMD3<Float>] = []
            points.reserveCapacity(end - first)
            cumulative.withUnsafeBufferPointer { sums in
                // The first triangle whose running total exceeds the block's first slice start.
                let start = Double(first) * slice
                var lo = 0, hi = sums.count - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if sums[mid] > start { hi = mid } else { lo = mid + 1 }
                }
                var triangle = lo
                for k in first..<end {
                    let target = (Double(k) + generator.nextUnitDouble()) * slice
                    while triangle < sums.count - 1 && sums[triangle] <= target { triangle += 1 }
                    let t = triangles[valid[triangle]]
                    let a = positions[Int(t.x)], b = positions[Int(t.y)], c = positions[Int(t.z)]
                    // Uniform in the triangle: reflect the unit square's upper half onto the lower.
                    var u = generator.nextUnitFloat(), v = generator.nextUnitFloat()
                    if u + v > 1 {
                        u = 1 - u
                        v = 1 - v
                    }
                    points.append(a + (b - a) * u + (c - a) * v)
                }
            }
            return points
        }
        var result: [SIMD3<Float>] = []
        result.reserveCapacity(count)
        for part in parts { result += part }
        return result
    }

    /// Points drawn uniformly by area with about one point per `spacing`² of surface
    /// (`spacing` in the mesh's unit, e.g. metres), capped at `maxCount`.
    public func sampledPoints(spacing: Double, maxCount: Int = 10_000_000, seed: UInt64 = 0,
                              workers: Int = 1) -> [SIMD3<Float>] {
        sampledPoints(count: sampleCount(spacing: spacing, maxCount: maxCount), seed: seed, workers: workers)
    }

    /// The number of samples `sampledPoints(spacing:maxCount:)` draws: surface area / spacing²,
    /// rounded up, at most `maxCount` (0 for a non-positive spacing or no area).
    public func sampleCount(spacing: Double, maxCount: Int = 10_000_000) -> Int {
        guard spacing > 0, spacing.isFinite else { return 0 }
        let (_, cumulative) = cumulativeAreas()
        let area = cumulative.last ?? 0
        return Int(min(Double(maxCount), (area / (spacing * spacing)).rounded(.up)))
    }

    /// Indices of the usable triangles and the running sum of their areas (square units).
    private func cumulativeAreas() -> (valid: [Int], cumulative: [Double]) {
        var valid: [Int] = []
        var cumulative: [Double] = []
        valid.reserveCapacity(triangles.count)
        cumulative.reserveCapacity(triangles.count)
        var total = 0.0
        let n = UInt32(positions.count)
        for (i, t) in triangles.enumerated() where t.x < n && t.y < n && t.z < n {
            let area = Double(self.area(of: i))
            guard area > 0, area.isFinite else { continue }
            total += area
            valid.append(i)
            cumulative.append(total)
        }
        return (valid, cumulative)
    }
}

extension TriangleMesh {
    /// The fraction (0...1) of the surface's area in triangles whose centre satisfies `isIn`
    /// (0 without area).
    public func areaFraction(where isIn: (SIMD3<Float>) -> Bool) -> Double {
        var total = 0.0, inside = 0.0
        let n = UInt32(positions.count)
        for (i, t) in triangles.enumerated() where t.x < n && t.y < n && t.z < n {
            let area = Double(self.area(of: i))
            guard area > 0, area.isFinite else { continue }
            total += area
            if isIn((positions[Int(t.x)] + positions[Int(t.y)] + positions[Int(t.z)]) / 3) { inside += area }
        }
        return total > 0 ? inside / total : 0
    }
}
