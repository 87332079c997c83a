/// Triangulates a polygon in the plane by ear clipping.
enum EarClipping {
    /// Twice the signed area of the triangle `a, b, c` (positive when counter-clockwise).
    @inline(__always)
    static func orientation(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Twice the signed area of the polygon (positive when its vertices turn counter-clockwise).
    static func signedArea2(_ polygon: [SIMD2<Double>]) -> Double {
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - a.y * b.x
        }
        return sum
    }

    /// How many pairs of the polygon's non-adjacent edges cross (0 for a simple polygon). O(n²),
    /// with a bounding-box test first.
    static func crossings(_ polygon: [SIMD2<Double>]) -> Int {
        let n = polygon.count
        guard n >= 4 else { return 0 }
        var count = 0
        for i in 0..<n {
            let a = polygon[i], b = polygon[(i + 1) % n]
            let lowI = pointwiseMin(a, b), highI = pointwiseMax(a, b)
            for j in stride(from: i + 2, to: n, by: 1) where !(i == 0 && j == n - 1) {
                let c = polygon[j], d = polygon[(j + 1) % n]
                guard all(pointwiseMin(c, d) .<= highI), all(lowI .<= pointwiseMax(c, d)) else { continue }
                if orientation(a, b, c) * orientation(a, b, d) < 0, orientation(c, d, a) * orientation(c, d, b) < 0 { count += 1 }
            }
        }
        return count
    }

    /// `polygon.count − 2` counter-clockwise triangles (indices into `polygon`) covering a
    /// counter-clockwise polygon. A simple polygon is covered exactly. For a polygon that touches
    /// or crosses itself (a ragged outline seen from below), when no proper ear remains the
    /// corner with the largest signed area is clipped anyway, so the result is still a
    /// topological disc spanning the loop, with small overlaps where the outline crosses itself.
    /// O(n²) for typical outlines (each clip rescans at most one turn of the polygon).
    static func triangulate(_ polygon: [SIMD2<Double>]) -> [SIMD3<Int32>] {
        let n = polygon.count
        guard n >= 3 else { return [] }
        var next = (0..<n).map { ($0 + 1) % n }
        var previous = (0..<n).map { ($0 + n - 1) % n }
        var triangles: [SIMD3<Int32>] = []
        triangles.reserveCapacity(n - 2)
        var remaining = n
        var v = 0
        var sinceLastClip = 0
        func clip(_ v: Int) {
            let p = previous[v], q = next[v]
            triangles.append(SIMD3(Int32(p), Int32(v), Int32(q)))
            next[p] = q
            previous[q] = p
            remaining -= 1
        }
        while remaining > 3 {
            if isEar(v, polygon: polygon, next: next, previous: previous, remaining: remaining) {
                let q = next[v]
                clip(v)
                v = q
                sinceLastClip = 0
                continue
            }
            v = next[v]
            sinceLastClip += 1
            if sinceLastClip > remaining {
                // No proper ear: clip the largest convex corner, or else any corner.
                var best = v, bestArea = -Double.infinity
                var u = v
                for _ in 0..<remaining {
                    let area = orientation(polygon[previous[u]], polygon[u], polygon[next[u]])
                    if area > bestArea { bestArea = area; best = u }
                    u = next[u]
                }
                v = next[best]
                clip(best)
                sinceLastClip = 0
            }
        }
        triangles.append(SIMD3(Int32(previous[v]), Int32(v), Int32(next[v])))
        return triangles
    }

    /// Whether corner `v` is convex and no other remaining corner lies inside (or on) its triangle.
    private static func isEar(_ v: Int, polygon: [SIMD2<Double>], next: [Int], previous: [Int], remaining: Int) -> Bool {
        let p = previous[v], q = next[v]
        let a = polygon[p], b = polygon[v], c = polygon[q]
        let area = orientation(a, b, c)
        guard area > 0 else { return false }
        var u = next[q]
        while u != p {
            let x = polygon[u]
            // Only reflex (or flat) corners can lie inside an ear; ignore points equal to a corner.
            if x != a, x != b, x != c,
               orientation(a, b, x) >= 0, orientation(b, c, x) >= 0, orientation(c, a, x) >= 0 {
                return false
            }
            u = next[u]
        }
        return true
    }
}
