import Foundation

/// The plain-text table the regression command prints: one row per threshold.
public enum RegressionTable {
    public static func render(_ outcomes: [DatasetOutcome]) -> String {
        var rows: [[String]] = [["dataset", "metric", "value", "threshold", "result"]]
        for outcome in outcomes {
            switch outcome.status {
            case .skipped, .error:
                rows.append([outcome.name, "—", "—", "—", "\(outcome.status.rawValue.uppercased()): \(outcome.message ?? "")"])
            case .passed, .failed:
                for check in outcome.checks {
                    rows.append([
                        outcome.name, check.metric, check.value.map(format) ?? "missing",
                        check.threshold.description, check.passed ? "ok" : "FAIL",
                    ])
                }
            }
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { cell, width in cell.padding(toLength: width, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        if value == 0 { return "0" }
        let magnitude = abs(value)
        if magnitude >= 1000 || magnitude < 0.001 { return String(format: "%.3e", value) }
        return String(format: "%.4g", value)
    }
}
