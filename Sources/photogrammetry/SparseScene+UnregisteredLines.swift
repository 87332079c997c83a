import ReconstructionCore

extension SparseScene {
    /// One line per image that did not register, naming it and the reason, as `poses` and
    /// `reconstruct` print them.
    var unregisteredLines: [String] {
        unregistered.map { "  not registered: \($0.name): \($0.reason)" }
    }

    /// Each image that did not register, with the reason, in the scene's order: the `complete`
    /// events' `unregistered` list (`--json`).
    var unregistered: [(name: String, reason: String)] {
        images.filter { !$0.isRegistered }.map { ($0.name, $0.unregisteredReason ?? "unknown") }
    }

    /// `unregistered` as JSON objects (`{"name": …, "reason": …}`).
    var unregisteredJSON: [[String: String]] {
        unregistered.map { ["name": $0.name, "reason": $0.reason] }
    }

    /// The scene with the reason of each image that pose estimation reconstructed in one of
    /// `separateModels` saying that it is left out: a model is built from this scene alone (`poses`
    /// writes the others under models/N/, `reconstruct` does not).
    func leavingOut(_ separateModels: [SparseScene]) -> SparseScene {
        var scene = self
        for model in separateModels {
            let names = Set(model.images.filter(\.isRegistered).map(\.name))
            for i in scene.images.indices where !scene.images[i].isRegistered && names.contains(scene.images[i].name) {
                scene.images[i].unregisteredReason = "left out of this model, with the \(names.count - 1) other photos of a "
                    + "group no verified pair joins to it (another scene, or a part the photos do not connect)"
            }
        }
        return scene
    }

    /// A warning for the photos of `separateModels` that a model built from this scene leaves out.
    static func leftOutWarning(_ separateModels: [SparseScene]) -> String? {
        guard !separateModels.isEmpty else { return nil }
        let photos = separateModels.reduce(0) { $0 + $1.registeredCount }
        let groups = separateModels.map { "\($0.registeredCount)" }.joined(separator: ", ")
        return "\(photos) photo(s) in \(separateModels.count) other group(s) of \(groups) photos are left out of the model: no verified "
            + "pair joins them to the photos it is built from (another scene in the folder, or a part the photos do not connect). "
            + "Reconstruct each group from a folder of its own; `photogrammetry poses` writes each group's poses under models/N/"
    }
}
