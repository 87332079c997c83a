/// Finds pairs of 2D triangles whose interiors overlap: the fold-overs of an orthographic chart.
/// Triangles must be counter-clockwise (positive area); touching along an edge or at a vertex is
/// not an overlap. A uniform grid keeps it near linear in the triangle count.
enum ProjectedOverlaps {
    /// Pairs (i, j), i < j, of indices into `triangles` (corner indices into `points`).
    static func pairs(points: [SIMD2<Double>], triangles: [SIMD3<Int32>]) -> [(Int32, Int32)] {
        let n = triangles.count
        guard n > 1 else { return [] }
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        for t in triangles {
            for k in 0..<3 {
                let p = points[Int(t[k])]
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
        }
        let extent = hi - lo
        guard extent.x.isFinite, extent.y.isFinite else { return [] }
        // About one triangle per cell.
        let cell = max((extent.x * extent.y / Double(n)).squareRoot(), max(extent.x, extent.y) / 2048, 1e-300)
        let gx = max(1, min(2048, Int(extent.x / cell) + 1)), gy = max(1, min(2048, Int(extent.y / cell) + 1))
        let sx = Double(gx) / max(extent.x, 1e-300), sy = Double(gy) / max(extent.y, 1e-300)

        // Cell range of each triangle's box.
        var ranges = [SIMD4<Int32>](repeating: .zero, count: n)
        var counts = [Int32](repeating: 0, count: gx * gy + 1)
        for (i, t) in triangles.enumerated() {
            let a = points[Int(t.x)], b = points[Int(t.y)], c = points[Int(t.z)]
            let x0 = cellIndex((min(a.x, b.x, c.x) - lo.x) * sx, gx), x1 = cellIndex((max(a.x, b.x, c.x) - lo.x) * sx, gx)
            let y0 = cellIndex((min(a.y, b.y, c.y) - lo.y) * sy, gy), y1 = cellIndex((max(a.y, b.y, c.y) - lo.y) * sy, gy)
            ranges[i] = SIMD4(Int32(x0), Int32(y0), Int32(x1), Int32(y1))
            for y in y0...y1 { for x in x0...x1 { counts[y * gx + x + 1] += 1 } }
        }
        for k in 0..<(gx * gy) { counts[k + 1] += counts[k] }
        var fill = counts
        var entries = [Int32](repeating: 0, count: Int(counts[gx * gy]))
        for i in 0..<n {
            let r = ranges[i]
            for y in Int(r.y)...Int(r.w) {
                for x in Int(r.x)...Int(r.z) {
                    entries[Int(fill[y * gx + x])] = Int32(i)
                    fill[y * gx + x] += 1
                }
            }
        }

        var found: [(Int32, Int32)] = []
        for cy in 0..<gy {
            for cx in 0..<gx {
                let s = Int(counts[cy * gx + cx]), e = Int(counts[cy * gx + cx + 1])
                if e - s < 2 { continue }
                for p in s..<(e - 1) {
                    let i = Int(entries[p])
                    let ri = ranges[i]
                    for q in (p + 1)..<e {
                        let j = Int(entries[q])
                        let rj = ranges[j]
                        // Test each pair once: in the cell holding the low corner of the boxes' overlap.
                        if Int(max(ri.x, rj.x)) != cx || Int(max(ri.y, rj.y)) != cy { continue }
                        let ti = triangles[i], tj = triangles[j]
                        if overlap(points[Int(ti.x)], points[Int(ti.y)], points[Int(ti.z)],
                                   points[Int(tj.x)], points[Int(tj.y)], points[Int(tj.z)]) {
                            found.append((Int32(min(i, j)), Int32(max(i, j))))
                        }
                    }
                }
            }
        }
        return found
    }

    @inline(__always)
    private static func cellIndex(_ v: Double, _ count: Int) -> Int {
        v.isFinite ? max(0, min(count - 1, Int(v))) : 0
    }

    /// Whether two counter-clockwise triangles overlap with positive area (separating axes: the
    /// six edge normals). Shared corners are bitwise equal, so shared edges separate exactly.
    static func overlap(_ a0: SIMD2<Double>, _ a1: SIMD2<Double>, _ a2: SIMD2<Double>,
                        _ b0: SIMD2<Double>, _ b1: SIMD2<Double>, _ b2: SIMD2<Double>) -> Bool {
        if separates(a0, a1, b0, b1, b2) || separates(a1, a2, b0, b1, b2) || separates(a2, a0, b0, b1, b2) { return false }
        if separates(b0, b1, a0, a1, a2) || separates(b1, b2, a0, a1, a2) || separates(b2, b0, a0, a1, a2) { return false }
        return true
    }

    /// Whether all of p, q, r lie on the outer (right) side of the directed edge e0 → e1, or on it.
    @inline(__always)
    private static func separates(_ e0: SIMD2<Double>, _ e1: SIMD2<Double>,
                                  _ p: SIMD2<Double>, _ q: SIMD2<Double>, _ r: SIMD2<Double>) -> Bool {
        let dx = e1.x - e0.x, dy = e1.y - e0.y
        let tolerance = 1e-10 * (dx * dx + dy * dy)
        return dx * (p.y - e0.y) - dy * (p.x - e0.x) <= tolerance
            && dx * (q.y - e0.y) - dy * (q.x - e0.x) <= tolerance
            && dx * (r.y - e0.y) - dy * (r.x - e0.x) <= tolerance
    }
}
