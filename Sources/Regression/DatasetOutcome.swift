/// What one dataset's regression run produced and how it compares with its thresholds.
public struct DatasetOutcome: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// Every threshold held.
        case passed
        /// A threshold broke, or a metric it needs was not produced.
        case failed
        /// The data is absent (e.g. `../shared` not beside the repository); nothing was run.
        case skipped
        /// The run itself failed (the message says why).
        case error
    }

    /// One threshold's verdict.
    public struct Check: Codable, Sendable, Equatable {
        public var metric: String
        public var threshold: RegressionManifest.Threshold
        /// Nil when the run did not produce the metric.
        public var value: Double?
        public var passed: Bool
    }

    public var name: String
    public var status: Status
    /// Why the dataset was skipped or errored.
    public var message: String?
    public var metrics: [String: Double]
    public var checks: [Check]

    public init(name: String, status: Status, message: String? = nil, metrics: [String: Double] = [:], checks: [Check] = []) {
        self.name = name
        self.status = status
        self.message = message
        self.metrics = metrics
        self.checks = checks
    }

    /// Compares `metrics` with the dataset's thresholds: passed only when every threshold holds.
    public static func judge(_ dataset: RegressionManifest.Dataset, metrics: [String: Double]) -> DatasetOutcome {
        let checks = dataset.thresholds.keys.sorted().map { metric -> Check in
            let bound = dataset.thresholds[metric]!
            let value = metrics[metric]
            return Check(metric: metric, threshold: bound, value: value, passed: value.map(bound.admits) ?? false)
        }
        let passed = checks.allSatisfy(\.passed)
        return DatasetOutcome(name: dataset.name, status: passed ? .passed : .failed, metrics: metrics, checks: checks)
    }

    /// True unless a threshold broke or the run failed (skipped datasets do not fail the run).
    public var isAcceptable: Bool { status == .passed || status == .skipped }
}
