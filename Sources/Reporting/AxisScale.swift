/// A linear axis: its data range and the spacing of its ticks (1, 2, 2.5 or 5 × a power of 10).
public struct AxisScale: Equatable, Sendable {
    /// Data value at the axis's start.
    public var lower: Double
    /// Data value at the axis's end.
    public var upper: Double
    /// Distance between ticks, in data units; ticks sit on its multiples.
    public var step: Double

    public init(lower: Double, upper: Double, step: Double) {
        self.lower = lower
        self.upper = upper
        self.step = step
    }

    /// The smallest "nice" step (1, 2, 2.5 or 5 × 10^k) at least `minimum` (> 0).
    public static func niceStep(atLeast minimum: Double) -> Double {
        guard minimum.isFinite, minimum > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude > minimum { magnitude /= 10 }
        while magnitude * 10 <= minimum { magnitude *= 10 }
        for factor in [1.0, 2, 2.5, 5, 10] where factor * magnitude >= minimum * (1 - 1e-12) {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// An axis covering `minimum...maximum`, widened to multiples of a nice step that gives at
    /// most about `targetTicks` intervals. An empty or non-finite range becomes a unit range.
    public static func nice(_ minimum: Double, _ maximum: Double, targetTicks: Int = 5) -> AxisScale {
        var lo = min(minimum, maximum), hi = max(minimum, maximum)
        if !lo.isFinite || !hi.isFinite { (lo, hi) = (0, 1) }
        if hi - lo <= abs(hi) * 1e-12 {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            (lo, hi) = (lo - pad, hi + pad)
        }
        let step = niceStep(atLeast: (hi - lo) / Double(max(1, targetTicks)))
        return AxisScale(lower: (lo / step).rounded(.down) * step, upper: (hi / step).rounded(.up) * step, step: step)
    }

    /// The multiples of `step` within `lower...upper` (allowing for rounding).
    public var ticks: [Double] {
        guard step > 0, upper > lower, (upper - lower) / step < 10_000 else { return [] }
        let tolerance = step * 1e-9
        var result: [Double] = []
        var k = ((lower - tolerance) / step).rounded(.up)
        while k * step <= upper + tolerance {
            let value = k * step
            result.append(abs(value) < tolerance ? 0 : value)
            k += 1
        }
        return result
    }

    /// The tick label of `value`, with as many decimals as the step needs.
    public func label(_ value: Double) -> String {
        NumberText.fixed(value, decimals: NumberText.decimals(forStep: step))
    }

    /// Where `value` falls along the axis: 0 at `lower`, 1 at `upper`.
    public func fraction(_ value: Double) -> Double {
        upper > lower ? (value - lower) / (upper - lower) : 0.5
    }
}
