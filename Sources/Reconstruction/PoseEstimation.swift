import Foundation
import ReconstructionCore

/// What is known about a camera before reconstruction.
public enum IntrinsicsPrior: Sendable, Equatable {
    /// Given pinhole intrinsics in pixels (held fixed unless refinement is asked for).
    case given(fx: Double, fy: Double, cx: Double, cy: Double)
    /// A focal length in pixels from EXIF; principal point at the image centre; refined.
    case focalLength(pixels: Double)
    /// A 35 mm-equivalent focal length from EXIF (millimetres), converted with the decoded image's
    /// longer side (f · max(w, h) / 36); principal point at the centre; refined.
    case focalLength35mmEquivalent(millimetres: Double)
    /// Nothing known: focal length 1.2 × the longer side, refined (self-calibration).
    case unknown
}

/// One photo to reconstruct.
public struct ImageSource: Sendable {
    /// Name reported in outputs (file name relative to the images directory).
    public var name: String
    public var url: URL
    public var prior: IntrinsicsPrior
    public init(name: String, url: URL, prior: IntrinsicsPrior) {
        self.name = name
        self.url = url
        self.prior = prior
    }
}

/// Photos to camera poses: features → matching and verification → tracks → incremental SfM.
public struct PoseEstimation: Sendable {
    public struct Options: Sendable, Equatable {
        public var features = FeatureExtractor.Options()
        public var verification = PairVerifier.Options()
        public var pairSelection = PairSelection.automatic
        public var mapper = IncrementalMapper.Options()
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
    }

    public struct Report: Sendable {
        public var scene: SparseScene
        /// Images that were skipped before reconstruction (unreadable or undecodable).
        public var invalidImages: [InvalidImage]
        /// Wall time per stage, in seconds.
        public var stageSeconds: [Stage: Double]
        public var verifiedPairCount: Int
        public var trackCount: Int
    }

    public enum PoseEstimationError: Error, CustomStringConvertible {
        case tooFewImages(usable: Int, invalid: [InvalidImage])
        case reconstructionFailed(String)

        public var description: String {
            switch self {
            case .tooFewImages(let usable, let invalid):
                let skipped = invalid.map { "\n  \($0.name): \($0.reason)" }.joined()
                return "need at least 2 usable images, found \(usable)" + (invalid.isEmpty ? "" : "; skipped:" + skipped)
            case .reconstructionFailed(let why):
                return "reconstruction failed: \(why)"
            }
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    public func run(_ sources: [ImageSource], progress: @Sendable (Progress) -> Void = { _ in }) throws -> Report {
        var seconds: [Stage: Double] = [:]
        func timed<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
            let start = Date()
            defer { seconds[stage] = Date().timeIntervalSince(start) }
            return try body()
        }

        // Features: decode failures are reported and skipped.
        let extractor = FeatureExtractor(options: options.features)
        let done = AtomicCounter()
        let extracted: [Result<ImageFeatures, InvalidImage>] = timed(.features) {
            parallelMap(sources.count, workers: options.workers) { i in
                defer { progress(Progress(stage: .features, fraction: Double(done.next() + 1) / Double(sources.count))) }
                let source = sources[i]
                do {
                    let data = try Data(contentsOf: source.url)
                    return .success(try extractor.extract(encoded: data))
                } catch let error as ShimError {
                    return .failure(InvalidImage(name: source.name, reason: error.message))
                } catch {
                    return .failure(InvalidImage(name: source.name, reason: "cannot read file: \(error.localizedDescription)"))
                }
            }
        }
        var invalid: [InvalidImage] = []
        var usable: [(source: ImageSource, features: ImageFeatures)] = []
        for (source, result) in zip(sources, extracted) {
            switch result {
            case .success(let f): usable.append((source, f))
            case .failure(let bad): invalid.append(bad)
            }
        }
        guard usable.count >= 2 else { throw PoseEstimationError.tooFewImages(usable: usable.count, invalid: invalid) }

        let inputs = Self.mapperInputs(usable.map { ($0.source.prior, $0.features) })

        // Matching and geometric verification of the selected pairs.
        let pairs = options.pairSelection.pairs(count: usable.count)
        let verifier = PairVerifier(options: options.verification)
        let matched = AtomicCounter()
        let verified: [TwoViewGeometry] = timed(.matching) {
            parallelMap(pairs.count, workers: options.workers) { p -> TwoViewGeometry? in
                defer { progress(Progress(stage: .matching, fraction: Double(matched.next() + 1) / Double(pairs.count))) }
                let pair = pairs[p]
                let a = inputs[pair.first], b = inputs[pair.second]
                let calibrated = a.intrinsicsSource != .defaultGuess && b.intrinsicsSource != .defaultGuess
                return try? verifier.verify(pair: pair, features1: a.features, features2: b.features,
                                            intrinsics1: a.intrinsics, intrinsics2: b.intrinsics, calibrated: calibrated).get()
            }.compactMap { $0 }
        }

        // Tracks and incremental mapping.
        let (scene, trackCount) = try timed(.mapping) { () throws -> (SparseScene, Int) in
            let tracks = FeatureTracks(keypointCounts: inputs.map(\.features.count), geometries: verified)
            var mapper = IncrementalMapper(images: inputs, tracks: tracks, geometries: verified, options: options.mapper)
            do {
                var scene = try mapper.run { registeredCount in
                    progress(Progress(stage: .mapping, fraction: Double(registeredCount) / Double(inputs.count)))
                }
                for i in scene.images.indices { scene.images[i].name = usable[i].source.name }
                return (scene, tracks.tracks.count)
            } catch {
                throw PoseEstimationError.reconstructionFailed("\(error)")
            }
        }
        let withInvalid = Self.insertInvalid(scene: scene, sources: sources, invalid: invalid)
        return Report(scene: withInvalid, invalidImages: invalid, stageSeconds: seconds,
                      verifiedPairCount: verified.count, trackCount: trackCount)
    }

    /// Builds per-image mapper inputs; images of one size and prior share a camera.
    static func mapperInputs(_ images: [(IntrinsicsPrior, ImageFeatures)]) -> [IncrementalMapper.ImageInput] {
        var groups: [String: Int] = [:]
        return images.map { prior, features in
            let w = features.imageWidth, h = features.imageHeight
            let intrinsics: CameraIntrinsics
            let source: IntrinsicsSource
            switch prior {
            case let .given(fx, fy, cx, cy):
                intrinsics = CameraIntrinsics(width: w, height: h, fx: fx, fy: fy, cx: cx, cy: cy)
                source = .given
            case let .focalLength35mmEquivalent(mm):
                let f = mm * Double(max(w, h)) / 36
                intrinsics = CameraIntrinsics(width: w, height: h, fx: f, fy: f, cx: Double(w) / 2, cy: Double(h) / 2)
                source = .exif
            case let .focalLength(f):
                intrinsics = CameraIntrinsics(width: w, height: h, fx: f, fy: f, cx: Double(w) / 2, cy: Double(h) / 2)
                source = .exif
            case .unknown:
                let f = 1.2 * Double(max(w, h))
                intrinsics = CameraIntrinsics(width: w, height: h, fx: f, fy: f, cx: Double(w) / 2, cy: Double(h) / 2)
                source = .defaultGuess
            }
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
                    intrinsicsSource: .defaultGuess, cameraFromWorld: nil, unregisteredReason: "could not be decoded: \(reason)",
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
