/// The point of triangle (`a`, `b`, `c`) closest to `p`, exactly (up to float rounding).
///
/// Works by the Voronoi region of `p`: a corner, the inside of an edge, or the face. Degenerate
/// triangles (repeated or collinear corners) are handled as the union of their edges.
/// Coordinates in any consistent unit; the result is in the same unit.
@inline(__always)
public func closestPointOnTriangle(
    to p: SIMD3<Float>, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>
) -> SIMD3<Float> {
    let ab = b - a, ac = c - a
    let ap = p - a
    let d1 = simdDot(ab, ap), d2 = simdDot(ac, ap)
    if d1 <= 0 && d2 <= 0 { return a }  // corner a

    let bp = p - b
    let d3 = simdDot(ab, bp), d4 = simdDot(ac, bp)
    if d3 >= 0 && d4 <= d3 { return b }  // corner b

    // Signed area-like coordinate of c; ≤ 0 puts p outside edge ab (on the side away from c).
    let vc = d1 * d4 - d3 * d2
    if vc <= 0 && d1 >= 0 && d3 <= 0 {  // edge ab
        let length2 = d1 - d3  // |ab|²
        return length2 > 0 ? a + ab * (d1 / length2) : closestPointOnTriangleEdges(to: p, a, b, c)
    }

    let cp = p - c
    let d5 = simdDot(ab, cp), d6 = simdDot(ac, cp)
    if d6 >= 0 && d5 <= d6 { return c }  // corner c

    let vb = d5 * d2 - d1 * d6
    if vb <= 0 && d2 >= 0 && d6 <= 0 {  // edge ac
        let length2 = d2 - d6  // |ac|²
        return length2 > 0 ? a + ac * (d2 / length2) : closestPointOnTriangleEdges(to: p, a, b, c)
    }

    let va = d3 * d6 - d5 * d4
    let towardsC = d4 - d3, towardsB = d5 - d6
    if va <= 0 && towardsC >= 0 && towardsB >= 0 {  // edge bc
        let length2 = towardsC + towardsB  // |bc|²
        return length2 > 0 ? b + (c - b) * (towardsC / length2) : closestPointOnTriangleEdges(to: p, a, b, c)
    }

    // Face: va + vb + vc = |ab × ac|², zero only for a degenerate triangle.
    let sum = va + vb + vc
    guard sum > 0, sum.isFinite else { return closestPointOnTriangleEdges(to: p, a, b, c) }
    let v = vb / sum, w = vc / sum
    return a + ab * v + ac * w
}

/// Squared distance from `p` to triangle (`a`, `b`, `c`).
@inline(__always)
public func squaredDistanceToTriangle(
    from p: SIMD3<Float>, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>
) -> Float {
    let d = p - closestPointOnTriangle(to: p, a, b, c)
    return simdDot(d, d)
}

/// The point of segment [`a`, `b`] closest to `p`.
@inline(__always)
public func closestPointOnSegment(to p: SIMD3<Float>, _ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    let ab = b - a
    let length2 = simdDot(ab, ab)
    guard length2 > 0 else { return a }
    let t = min(max(simdDot(p - a, ab) / length2, 0), 1)
    return a + ab * t
}

/// Closest point on the boundary of a (degenerate) triangle: the nearest of its three edges.
private func closestPointOnTriangleEdges(
    to p: SIMD3<Float>, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>
) -> SIMD3<Float> {
    let onAB = closestPointOnSegment(to: p, a, b)
    let onBC = closestPointOnSegment(to: p, b, c)
    let onCA = closestPointOnSegment(to: p, c, a)
    let dAB = simdDot(p - onAB, p - onAB), dBC = simdDot(p - onBC, p - onBC), dCA = simdDot(p - onCA, p - onCA)
    if dAB <= dBC && dAB <= dCA { return onAB }
    return dBC <= dCA ? onBC : onCA
}
