import Foundation

/// How often a failed job is tried again, and how long the runner waits before each new try.
///
/// Only failures count against `maxAttempts`: an attempt interrupted because its runner died
/// (SIGKILL, power loss) is requeued without counting as a failure (see
/// `BatchRunner.Options.maxInterruptions`). Permanent failures (a malformed spec, a missing input
/// folder) are never retried.
public struct RetryPolicy: Codable, Sendable, Equatable {
    /// Attempts in all, the first included (1 = no retry). Default 3.
    public var maxAttempts: Int
    /// Wait before the second attempt, seconds. Default 10.
    public var backoffSeconds: Double
    /// Each further wait is the previous one times this. Default 2.
    public var backoffMultiplier: Double
    /// Longest wait, seconds. Default 600.
    public var maxBackoffSeconds: Double

    public init(maxAttempts: Int = 3, backoffSeconds: Double = 10, backoffMultiplier: Double = 2, maxBackoffSeconds: Double = 600) {
        self.maxAttempts = maxAttempts
        self.backoffSeconds = backoffSeconds
        self.backoffMultiplier = backoffMultiplier
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    /// Seconds to wait after the `failures`-th failure (1-based) before the next attempt.
    public func delay(afterFailure failures: Int) -> Double {
        let exponent = Double(max(0, failures - 1))
        return min(maxBackoffSeconds, backoffSeconds * pow(backoffMultiplier, exponent))
    }

    /// Why the values are unusable, or nil.
    public var problem: String? {
        if maxAttempts < 1 { return "retry.maxAttempts must be at least 1 (got \(maxAttempts))" }
        if !(backoffSeconds >= 0) { return "retry.backoffSeconds must be 0 or more (got \(backoffSeconds))" }
        if !(backoffMultiplier >= 1) { return "retry.backoffMultiplier must be at least 1 (got \(backoffMultiplier))" }
        if !(maxBackoffSeconds >= 0) { return "retry.maxBackoffSeconds must be 0 or more (got \(maxBackoffSeconds))" }
        return nil
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxAttempts, backoffSeconds, backoffMultiplier, maxBackoffSeconds
    }

    public init(from decoder: any Decoder) throws {
        let defaults = RetryPolicy()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? defaults.maxAttempts
        backoffSeconds = try container.decodeIfPresent(Double.self, forKey: .backoffSeconds) ?? defaults.backoffSeconds
        backoffMultiplier = try container.decodeIfPresent(Double.self, forKey: .backoffMultiplier) ?? defaults.backoffMultiplier
        maxBackoffSeconds = try container.decodeIfPresent(Double.self, forKey: .maxBackoffSeconds) ?? defaults.maxBackoffSeconds
    }
}
