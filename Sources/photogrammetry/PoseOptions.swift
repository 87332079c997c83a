import Foundation
import ArgumentParser
import Reconstruction

/// How photos become poses: features, pair selection and the mapper's intrinsics, shared by
/// `poses` and `reconstruct`.
struct PoseOptions: ParsableArguments {
    @Flag(help: "Refine given intrinsics in bundle adjustment instead of holding them fixed.")
    var refineIntrinsics = false

    @Flag(help: ArgumentHelp("Refine the principal point too wherever intrinsics are refined (off: it stays where it was given, or at the photo's centre).", discussion: """
        As COLMAP's refine_principal_point. Without K, a lens whose principal point is off the centre tilts every camera by as much (fountain-P11: 15 px, 0.5°); captures with depth and many viewpoints can find it, flat scenes and few photos cannot.
        """))
    var refinePrincipalPoint = false

    @Option(help: ArgumentHelp("Pair selection: auto, exhaustive, sequential or retrieval.", discussion: """
        auto: every pair up to \(PairSelection.exhaustiveLimit) images; beyond, each image with its \
        \(PairSelection.automaticNeighbours) most similar images (retrieval) and the next \
        \(PairSelection.automaticWindow) in name order. sequential: each image with the next --window \
        (ordered captures: video, an orbit). retrieval: each image with its --neighbours most similar \
        images (VLAD over a vocabulary learnt from the photos) plus the next --window in name order.
        """))
    var matching: MatchingMode = .auto

    @Option(help: "Images matched with the next N in name order (--matching sequential: default 20; retrieval: default 0).")
    var window: Int?

    @Option(help: "Most similar images matched per image with --matching retrieval (default 10).")
    var neighbours: Int?

    @Option(help: "Longest image side used for features, pixels (larger images are resized).")
    var maxImageSize = 3200

    @Option(help: "Maximum features per image.")
    var maxFeatures = 8192

    @Option(help: "Feature sensitivity: normal (SIFT from the photo's own resolution; photos of at most 1600 px from twice it already) or high (from twice the resolution for every photo, as COLMAP's default; more precise rotations, about 2.7 GB peak and 1.5–2× the time on 6-megapixel photos).")
    var featureSensitivity: FeatureSensitivity = .normal

    /// The window of `--matching sequential` (and of a session told its samples are ordered).
    var sequentialWindow: Int { window ?? 20 }

    enum MatchingMode: String, LowercaseArgument {
        case auto, exhaustive, sequential, retrieval
    }

    enum FeatureSensitivity: String, LowercaseArgument {
        case normal, high
    }

    func validate() throws {
        if maxImageSize < 64 { throw ValidationError("--max-image-size must be at least 64") }
        if maxFeatures < 64 { throw ValidationError("--max-features must be at least 64") }
        // A window or a neighbour count that the chosen pair selection would not use is refused,
        // not ignored: whoever gives one expects it to limit the pairs.
        if window != nil, matching == .auto || matching == .exhaustive {
            throw ValidationError("--window applies to --matching sequential or retrieval, not \(matching.rawValue)")
        }
        if neighbours != nil, matching != .retrieval {
            throw ValidationError("--neighbours applies to --matching retrieval, not \(matching.rawValue)")
        }
        if let window, window < (matching == .sequential ? 1 : 0) {
            throw ValidationError("--window must be at least \(matching == .sequential ? 1 : 0)")
        }
        if let neighbours, neighbours < 1 { throw ValidationError("--neighbours must be at least 1") }
    }

    /// With `--matching sequential`, what a model split in several may owe to the window: pairs
    /// farther apart in name order were never matched (a researcher saw "no verified pair joins
    /// those images" and could not tell it from photos that do not overlap). Nil otherwise.
    func separateModelsNote(_ separateModels: Int) -> String? {
        guard separateModels > 0, matching == .sequential else { return nil }
        return "with --matching sequential, each photo is matched only with the next \(sequentialWindow) in name order: photos of "
            + "one scene further apart than that are never matched, so a larger --window or --matching retrieval may join the "
            + "separate models"
    }

    /// The session configuration for these options, with object masks used or not and the
    /// checkpoint folder when one is given.
    func sessionConfiguration(objectMasking: Bool, checkpoint: String?) -> PhotogrammetrySession.Configuration {
        var configuration = sessionConfiguration()
        configuration.isObjectMaskingEnabled = objectMasking
        configuration.checkpointDirectory = checkpoint.map { URL(fileURLWithPath: $0, isDirectory: true) }
        return configuration
    }

    /// The session configuration for these options (checkpoints and masking are the caller's).
    func sessionConfiguration() -> PhotogrammetrySession.Configuration {
        var options = PoseEstimation.Options()
        options.features.maxImageDimension = maxImageSize
        options.features.maxFeatures = maxFeatures
        options.mapper.refineGivenIntrinsics = refineIntrinsics
        options.mapper.refinesPrincipalPoint = refinePrincipalPoint
        switch matching {
        case .auto: options.pairSelection = .automatic
        case .exhaustive: options.pairSelection = .exhaustive
        case .sequential: options.pairSelection = .sequential(window: sequentialWindow)
        case .retrieval: options.pairSelection = .retrieval(neighbours: neighbours ?? 10, window: window ?? 0)
        }
        var configuration = PhotogrammetrySession.Configuration()
        configuration.poseEstimation = options
        configuration.featureSensitivity = featureSensitivity == .high ? .high : .normal
        configuration.sampleOrdering = matching == .sequential ? .sequential : .unordered
        configuration.sequentialWindow = sequentialWindow
        return configuration
    }
}
