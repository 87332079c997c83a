/// Plain, locale-free number formatting for labels and tables.
enum NumberText {
    /// `value` with exactly `decimals` digits after the point ("-0" shown as "0"); non-finite
    /// values as "nan", "inf" or "-inf".
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let d = min(max(decimals, 0), 12)
        var power = 1.0
        for _ in 0..<d { power *= 10 }
        let scaled = (abs(value) * power).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let digits = String(Int64(scaled))
        let negative = value < 0 && scaled != 0
        var text: String
        if d == 0 {
            text = digits
        } else {
            let padded = String(repeating: "0", count: max(0, d + 1 - digits.count)) + digits
            text = String(padded.dropLast(d)) + "." + String(padded.suffix(d))
        }
        if negative { text = "-" + text }
        return text
    }

    /// The fewest decimals (0...10) that show every multiple of `step` exactly.
    static func decimals(forStep step: Double) -> Int {
        guard step.isFinite, step > 0 else { return 0 }
        var scaled = step
        for d in 0...10 {
            if abs(scaled - scaled.rounded()) <= 1e-6 * max(1, scaled) { return d }
            scaled *= 10
        }
        return 10
    }

    /// `value` with `significant` significant digits, without an exponent for everyday magnitudes.
    static func significant(_ value: Double, digits significant: Int = 3) -> String {
        guard value.isFinite, value != 0 else { return fixed(value, decimals: 0) }
        var magnitude = 0
        var v = abs(value)
        while v >= 10 { v /= 10; magnitude += 1 }
        while v < 1 { v *= 10; magnitude -= 1 }
        return fixed(value, decimals: max(0, significant - 1 - magnitude))
    }
}
