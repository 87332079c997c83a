/// Small descriptive statistics used by evaluation and robust thresholds.
public enum Statistics {
    /// The median (mean of the two middle values for an even count); 0 for an empty list.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        let mid = s.count / 2
        return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    }
}
