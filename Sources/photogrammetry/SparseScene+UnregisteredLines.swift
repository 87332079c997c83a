import ReconstructionCore

extension SparseScene {
    /// One line per image that did not register, naming it and the reason, as `poses` and
    /// `reconstruct` print them.
    var unregisteredLines: [String] {
        images.filter { !$0.isRegistered }.map { "  not registered: \($0.name): \($0.unregisteredReason ?? "unknown")" }
    }
}
