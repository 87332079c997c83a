import ReconstructionCore

/// An axis-aligned world box (metres) for clipping rays and testing voxels.
struct BoxClip: Sendable {
    let lower: SIMD3<Float>
    let upper: SIMD3<Float>

    init(box: BoundingBox, margin: Float) {
        let c = SIMD3<Float>(Float(box.centre.x), Float(box.centre.y), Float(box.centre.z))
        let e = SIMD3<Float>(Float(abs(box.halfExtents.x)), Float(abs(box.halfExtents.y)), Float(abs(box.halfExtents.z)))
        lower = c - e - margin
        upper = c + e + margin
    }

    @inline(__always)
    func contains(_ p: SIMD3<Float>) -> Bool {
        all(p .>= lower) && all(p .<= upper)
    }

    /// Whether the cube `origin … origin + size` lies inside the box.
    func containsBlock(origin: SIMD3<Float>, size: Float) -> Bool {
        contains(origin) && contains(origin + size)
    }

    /// Shrinks `t0…t1` on the segment `origin + t · direction` to its part inside the box; false if none.
    func clipSegment(origin: SIMD3<Float>, direction: SIMD3<Float>, t0: inout Float, t1: inout Float) -> Bool {
        for axis in 0..<3 {
            let o = origin[axis], d = direction[axis]
            if abs(d) < 1e-12 {
                if o < lower[axis] || o > upper[axis] { return false }
                continue
            }
            var a = (lower[axis] - o) / d, b = (upper[axis] - o) / d
            if a > b { swap(&a, &b) }
            t0 = max(t0, a)
            t1 = min(t1, b)
            if t0 > t1 { return false }
        }
        return true
    }
}
