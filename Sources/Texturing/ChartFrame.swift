/// An orthographic projection plane: `axis` is the chart's normal, (`u`, `v`, `axis`) a
/// right-handed orthonormal frame, so a triangle counter-clockwise around `axis` stays
/// counter-clockwise in (u, v).
struct ChartFrame {
    let axis: SIMD3<Double>
    let u: SIMD3<Double>
    let v: SIMD3<Double>

    init(axis n: SIMD3<Double>) {
        let length = (n * n).sum().squareRoot()
        let a = length > 0 && length.isFinite ? n / length : SIMD3(0, 0, 1)
        // Start from the world axis least aligned with the normal.
        let helper: SIMD3<Double> = abs(a.x) <= abs(a.y) && abs(a.x) <= abs(a.z) ? SIMD3(1, 0, 0)
            : (abs(a.y) <= abs(a.z) ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
        let u = ChartFrame.normalized(ChartFrame.cross(helper, a))
        axis = a
        self.u = u
        v = ChartFrame.cross(a, u)
    }

    @inline(__always)
    func project(_ p: SIMD3<Double>) -> SIMD2<Double> {
        SIMD2((p * u).sum(), (p * v).sum())
    }

    @inline(__always)
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inline(__always)
    static func normalized(_ a: SIMD3<Double>) -> SIMD3<Double> {
        let l = (a * a).sum().squareRoot()
        return l > 0 ? a / l : .zero
    }
}
