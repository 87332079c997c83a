/// What a rendered image shows where no triangle is hit. Colours are linear RGB in 0...1.
public enum Background: Sendable, Equatable {
    /// One colour everywhere.
    case color(SIMD3<Float>)
    /// A vertical ramp in image space from `top` (first row) to `bottom` (last row).
    case verticalGradient(top: SIMD3<Float>, bottom: SIMD3<Float>)

    /// The colour at a vertical position, `fraction` 0 at the top edge, 1 at the bottom edge.
    @inline(__always)
    func color(atFraction fraction: Float) -> SIMD3<Float> {
        switch self {
        case .color(let c): return c
        case .verticalGradient(let top, let bottom):
            let t = min(max(fraction, 0), 1)
            return top + (bottom - top) * t
        }
    }
}
