import Foundation
import ReconstructionCore

/// Photos to camera poses: features → matching and verification → tracks → incremental SfM.
public struct PoseEstimation: Sendable {
    public struct Options: Sendable, Equatable {
        public var features = FeatureExtractor.Options()
        public var verification = PairVerifier.Options()
        public var pairSelection = PairSelection.automatic
        /// Image retrieval, for the selections that use it (its `workers` follow `workers` below).
        public var retrieval = ImageRetrieval.Options()
        public var mapper = IncrementalMapper.Options()
        /// A group of at least this many images that no verified pair joins to the main model's
        /// is reconstructed as a separate model, kept when at least this many of its images
        /// register (COLMAP keeps every such model too). Below 2: separate models are off.
        public var minSeparateModelImages = 3
        /// Worker threads for feature extraction and matching.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    /// Pipeline stages, in order.
    public enum Stage: String, Sendable, CaseIterable {
        case features, matching, mapping
    }

    /// A progress report: the stage and the fraction of it done (0…1).
    public struct Progress: Sendable {
        public var stage: Stage
        public var fraction: Double
    }

    /// An input image that could not be used, and why.
    public struct InvalidImage: Error, Sendable, Equatable {
        public var name: String
        public var reason: String

        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    public struct Report: Sendable {
        /// The main model, over every input image.
        public var scene: SparseScene
        /// Groups of images no verified pair joins to the main model, each reconstructed in its
        /// own frame, over its own images only; the main model names them as unregistered.
        public var separateModels: [SparseScene]
        /// Images that were skipped before reconstruction (unreadable or undecodable).
        public var invalidImages: [InvalidImage]
        /// Wall time per stage, in seconds.
        public var stageSeconds: [Stage: Double]
        public var verifiedPairCount: Int
        /// Pairs matched (the pair selection's choice).
        public var matchedPairCount: Int
        public var trackCount: Int
    }

    public enum PoseEstimationError: Error, CustomStringConvertible {
        case tooFewImages(usable: Int, invalid: [InvalidImage])
        case reconstructionFailed(String)

        public var description: String {
            switch self {
            case .tooFewImages(let usable, let invalid):
                // Photos skipped for the same reason share one line.
                var reasons: [String] = [], names: [String: [String]] = [:]
                for image in invalid {
                    if names[image.reason] == nil { reasons.append(image.reason) }
                    names[image.reason, default: []].append(image.name)
                }
                let skipped = reasons.map { reason -> String in
                    let group = names[reason]!
                    return "\n  \(group.joined(separator: ", "))\(group.count > 1 ? " (\(group.count) photos)" : ""): \(reason)"
                }.joined()
                return "need at least 2 usable images, found \(usable)" + (invalid.isEmpty ? "" : "; skipped:" + skipped)
            case .reconstructionFailed(let why):
                return "reconstruction failed: \(why)"
            }
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Runs the three stages in order (`extractFeatures`, `matchPairs`, `map`) and assembles the report.
    public func run(_ sources: [ImageSource], progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws -> Report {
        let control = Control(progress: progress)
        var seconds: [Stage: Double] = [:]
        func timed<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
            let start = Date()
            defer { seconds[stage] = Date().timeIntervalSince(start) }
            return try body()
        }
        let features = try timed(.features) { try extractFeatures(from: sources, control: control) }
        let inputs = try mapperInputs(sources: sources, features: features)
        let matching = try timed(.matching) { try matchPairs(inputs, control: control) }
        let mapping = try timed(.mapping) {
            try map(inputs, names: features.usableIndices.map { sources[$0].name }, matching: matching, control: control)
        }
        return report(sources: sources, features: features, matching: matching, mapping: mapping, stageSeconds: seconds)
    }

    /// Builds per-image mapper inputs; images of one size and prior share a camera.
    static func mapperInputs(_ images: [(IntrinsicsPrior, ImageFeatures)]) -> [IncrementalMapper.ImageInput] {
        var groups: [String: Int] = [:]
        return images.map { prior, features in
            let w = features.imageWidth, h = features.imageHeight
            let (intrinsics, source) = prior.intrinsics(width: w, height: h)
            let key = "\(w)x\(h) \(intrinsics.fx) \(intrinsics.fy) \(intrinsics.cx) \(intrinsics.cy) \(source)"
            let group = groups[key] ?? groups.count
            groups[key] = group
            return IncrementalMapper.ImageInput(features: features, intrinsics: intrinsics, intrinsicsSource: source, cameraGroup: group)
        }
    }

    /// Puts skipped images back into the scene, in input order, as unregistered with their reason.
    static func insertInvalid(scene: SparseScene, sources: [ImageSource], invalid: [InvalidImage]) -> SparseScene {
        guard !invalid.isEmpty else { return scene }
        let reasons = Dictionary(invalid.map { ($0.name, $0.reason) }, uniquingKeysWith: { a, _ in a })
        var indexByName = Dictionary(scene.images.indices.map { (scene.images[$0].name, $0) }, uniquingKeysWith: { a, _ in a })
        var images: [SparseScene.Image] = []
        var remap: [Int: Int] = [:]
        for source in sources {
            if let index = indexByName.removeValue(forKey: source.name) {
                remap[index] = images.count
                images.append(scene.images[index])
            } else if let reason = reasons[source.name] {
                images.append(SparseScene.Image(
                    name: source.name, intrinsics: CameraIntrinsics(width: 0, height: 0, fx: 0, fy: 0, cx: 0, cy: 0),
                    intrinsicsSource: .defaultGuess, cameraFromWorld: nil, unregisteredReason: "skipped: \(reason)",
                    keypoints: [], pointIndexOfKeypoint: []))
            }
        }
        var points = scene.points
        for p in points.indices {
            for o in points[p].track.indices { points[p].track[o].imageIndex = remap[points[p].track[o].imageIndex]! }
        }
        return SparseScene(images: images, points: points)
    }
}
