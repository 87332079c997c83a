/// One fraction done (0…1) for a run of consecutive steps: each step has a share of the run's
/// time, and a step at fraction f is past the shares of every step before it and f of its own.
/// Steps that do not run are left out (or given no share); the rest are normalised.
public struct StepShares<Step: Hashable & Sendable>: Sendable {
    private var starts: [Step: Double] = [:]
    private var shares: [Step: Double] = [:]

    /// `steps` in the order they run, each with its expected share (any positive scale).
    public init(_ steps: [(Step, share: Double)]) {
        let total = steps.reduce(0) { $0 + max(0, $1.share) }
        var start = 0.0
        for (step, share) in steps {
            let normalised = total > 0 ? max(0, share) / total : 0
            starts[step] = start
            shares[step] = normalised
            start += normalised
        }
    }

    /// The run's fraction done when `step` is `fraction` done; 0 for a step not in the run.
    public func fraction(_ step: Step, _ fraction: Double) -> Double {
        guard let start = starts[step], let share = shares[step] else { return 0 }
        return min(1, start + share * min(1, max(0, fraction)))
    }
}
