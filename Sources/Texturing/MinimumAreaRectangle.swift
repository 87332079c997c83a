/// The rotation that turns a 2D point set into its smallest-area axis-aligned bounding rectangle,
/// wider than tall. The optimum has a side along an edge of the convex hull, so only the hull's
/// edge directions are tried.
struct MinimumAreaRectangle {
    /// cos and sin of the rotation to apply: p' = (c·x − s·y, s·x + c·y).
    let cosine: Double
    let sine: Double
    /// Extent of the rotated points.
    let width: Double
    let height: Double

    init(points: [SIMD2<Double>]) {
        let hull = MinimumAreaRectangle.convexHull(points)
        var best = (area: Double.infinity, c: 1.0, s: 0.0, w: 0.0, h: 0.0)
        // Very large hulls: trying every edge costs hull²; a stride keeps it bounded.
        let stride = max(1, hull.count / 512)
        var directions: [SIMD2<Double>] = [SIMD2(1, 0)]
        if hull.count > 1 {
            for k in Swift.stride(from: 0, to: hull.count, by: stride) {
                let d = hull[(k + 1) % hull.count] - hull[k]
                let l = (d * d).sum().squareRoot()
                if l > 0 { directions.append(d / l) }
            }
        }
        for d in directions {
            // Rotate d onto +x: c = d.x, s = −d.y.
            let c = d.x, s = -d.y
            var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
            for p in hull {
                let q = SIMD2(c * p.x - s * p.y, s * p.x + c * p.y)
                lo = pointwiseMin(lo, q)
                hi = pointwiseMax(hi, q)
            }
            let e = hi - lo
            let area = e.x * e.y
            if area < best.area - 1e-12 * max(area, 1e-300) { best = (area, c, s, e.x, e.y) }
        }
        if hull.isEmpty { best = (0, 1, 0, 0, 0) }
        if best.h > best.w {
            // Turn a further 90°: (x, y) → (−y, x).
            best = (best.area, -best.s, best.c, best.h, best.w)
        }
        cosine = best.c
        sine = best.s
        width = best.w
        height = best.h
    }

    @inline(__always)
    func rotate(_ p: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(cosine * p.x - sine * p.y, sine * p.x + cosine * p.y)
    }

    /// Convex hull, counter-clockwise, without collinear points (Andrew's monotone chain).
    static func convexHull(_ input: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let points = input.filter { $0.x.isFinite && $0.y.isFinite }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        if points.count < 3 { return points }
        func turn(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull: [SIMD2<Double>] = []
        hull.reserveCapacity(points.count + 1)
        for p in points {
            while hull.count >= 2 && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
            hull.append(p)
        }
        let lowerCount = hull.count + 1
        for p in points.reversed().dropFirst() {
            while hull.count >= lowerCount && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
            hull.append(p)
        }
        hull.removeLast()
        return hull
    }
}
