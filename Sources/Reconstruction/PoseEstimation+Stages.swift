import Foundation
import ReconstructionCore

/// The pose pipeline as three stages with serialisable outputs, so a runner can checkpoint each
/// one and resume from it: `extractFeatures` → `matchPairs` → `map`.
extension PoseEstimation {
    /// Shares of the mapping stage's time, measured on fountain-P11 (see `mappingFraction`): image
    /// registration (initial pair, PnP, local and growth adjustments; 63 %), then the finishing
    /// steps (retriangulation under 1 %, the final robust adjustment 24 %, the polish 13 %).
    static let mappingShares = (registration: 0.62, retriangulation: 0.01, finalAdjustment: 0.24, polish: 0.13)

    /// Mapping progress as a fraction of the stage's expected time (0…1).
    public static func mappingFraction(_ p: MappingProgress) -> Double {
        let s = mappingShares
        switch p.finishingStepsDone {
        case 0: return s.registration * Double(p.registeredCount) / Double(max(1, p.imageCount))
        case 1: return s.registration + s.retriangulation
        case 2: return s.registration + s.retriangulation + s.finalAdjustment
        default: return 1
        }
    }

    // MARK: Features

    /// Stage 1: decodes each image and extracts its features; undecodable images become
    /// `InvalidImage`s. Images in `known` (by input index, e.g. from a checkpoint) are not
    /// recomputed; `extracted(index, features, seconds)` is called, from worker threads, for each
    /// image computed here.
    public func extractFeatures(
        from sources: [ImageSource], known: [Int: ImageFeatures] = [:], control: Control = Control(),
        extracted: @escaping @Sendable (Int, ImageFeatures, Double) -> Void = { _, _, _ in }
    ) throws -> FeaturesStageOutput {
        let extractor = FeatureExtractor(options: options.features)
        let done = AtomicCounter()
        let images = parallelMap(sources.count, workers: options.workers) { i -> Result<ImageFeatures, InvalidImage> in
            if let features = known[i] {
                control.progress(Progress(stage: .features, fraction: Double(done.next() + 1) / Double(sources.count)))
                return .success(features)
            }
            guard !control.isCancelled() else { return .failure(InvalidImage(name: sources[i].name, reason: "cancelled")) }
            let start = Date()
            let result = Self.extract(sources[i], with: extractor)
            if case .success(let features) = result { extracted(i, features, Date().timeIntervalSince(start)) }
            control.progress(Progress(stage: .features, fraction: Double(done.next() + 1) / Double(sources.count)))
            return result
        }
        try control.checkCancellation()
        return FeaturesStageOutput(images: images).withCopiesSetAside(names: sources.map(\.name))
    }

    /// Features of one image, with keypoints outside its object mask dropped.
    static func extract(_ source: ImageSource, with extractor: FeatureExtractor) -> Result<ImageFeatures, InvalidImage> {
        if let rejection = source.rejection { return .failure(InvalidImage(name: source.name, reason: rejection)) }
        do {
            let data: Data
            switch source.content {
            case .file(let url):
                data = try Data(contentsOf: url)
                if data.isEmpty { return .failure(InvalidImage(name: source.name, reason: "the file is empty (0 bytes)")) }
            case .pixels(let image): data = try ImageCodec.encode(image, as: .png)
            }
            var features = try extractor.extract(encoded: data)
            if let mask = source.objectMask {
                // Stretched over a photo of another shape, a mask would keep the wrong features (the
                // readers check the photos whose headers give their size; this is every other one).
                let maskAspect = Double(mask.width) / Double(max(1, mask.height))
                let photoAspect = Double(features.imageWidth) / Double(max(1, features.imageHeight))
                guard abs(photoAspect / maskAspect - 1) < 0.01 else {
                    return .failure(InvalidImage(name: source.name, reason: String(
                        format: "its object mask's aspect ratio (%.3f) is not its photo's (%.3f): a mask may have any size, not another aspect ratio",
                        maskAspect, photoAspect)))
                }
                features = features.inside(mask: mask)
            }
            return .success(features)
        } catch let error as ShimError {
            return .failure(InvalidImage(name: source.name, reason: error.message))
        } catch {
            if let url = source.url, !FileManager.default.fileExists(atPath: url.path),
               let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                return .failure(InvalidImage(name: source.name, reason: "broken symbolic link: its target \(target) does not exist"))
            }
            let reason = source.url.map { FileReadFailure.reason($0, error) } ?? error.localizedDescription
            return .failure(InvalidImage(name: source.name, reason: "cannot read file: \(reason)"))
        }
    }

    /// Per usable image, the mapper's input (features and starting intrinsics from its prior).
    /// - Throws: `PoseEstimationError.tooFewImages` when fewer than two images are usable.
    public func mapperInputs(sources: [ImageSource], features: FeaturesStageOutput) throws -> [IncrementalMapper.ImageInput] {
        let usable = features.usableIndices
        guard usable.count >= 2 else {
            throw PoseEstimationError.tooFewImages(usable: usable.count, invalid: features.invalidImages)
        }
        return Self.mapperInputs(usable.map { i in
            guard case .success(let f) = features.images[i] else { preconditionFailure("usable image without features") }
            return (sources[i].prior, f)
        })
    }

    // MARK: Matching

    /// Stage 2: matches the selected pairs of usable images and verifies them geometrically.
    public func matchPairs(_ inputs: [IncrementalMapper.ImageInput], control: Control = Control()) throws -> MatchingStageOutput {
        var retrieval = ImageRetrieval(options: options.retrieval)
        retrieval.options.workers = options.workers
        let pairs = try options.pairSelection.pairs(for: inputs.map(\.features), retrieval: retrieval)
        let verifier = PairVerifier(options: options.verification)
        let matched = AtomicCounter()
        // Pairs are verified in a spread-out order, not list order: the list groups each image's
        // pairs, whose costs differ (wide or non-overlapping pairs run the most RANSAC draws), so
        // the stage's early rate would misjudge its remaining time. Results keep list order.
        let order = spreadOrder(pairs.count)
        let verifiedInOrder = parallelMap(pairs.count, workers: options.workers) { k -> TwoViewGeometry? in
            guard !control.isCancelled() else { return nil }
            defer { control.progress(Progress(stage: .matching, fraction: Double(matched.next() + 1) / Double(pairs.count))) }
            let pair = pairs[order[k]]
            let a = inputs[pair.first], b = inputs[pair.second]
            let calibrated = a.intrinsicsSource != .defaultGuess && b.intrinsicsSource != .defaultGuess
            return try? verifier.verify(pair: pair, features1: a.features, features2: b.features,
                                        intrinsics1: a.intrinsics, intrinsics2: b.intrinsics, calibrated: calibrated).get()
        }
        try control.checkCancellation()
        var verified = [TwoViewGeometry?](repeating: nil, count: pairs.count)
        for (k, p) in order.enumerated() { verified[p] = verifiedInOrder[k] }
        return MatchingStageOutput(geometries: verified.compactMap { $0 }, pairCount: pairs.count)
    }

    // MARK: Mapping

    /// Stage 3: feature tracks and incremental mapping; `names` name the mapper inputs.
    public func map(_ inputs: [IncrementalMapper.ImageInput], names: [String], matching: MatchingStageOutput,
                    control: Control = Control()) throws -> MappingStageOutput {
        try control.checkCancellation()
        // Photos with no known intrinsics start from a focal length their pairs agree on, and
        // their pairs are verified again with essential matrices at that focal length.
        let (inputs, geometries) = FocalLengthFromPairs.refineGuesses(inputs, geometries: matching.geometries,
                                                                      verifier: PairVerifier(options: options.verification),
                                                                      workers: options.workers)
        let tracks = FeatureTracks(keypointCounts: inputs.map(\.features.count), geometries: geometries)
        var mapper = IncrementalMapper(images: inputs, tracks: tracks, geometries: geometries, options: options.mapper)
        mapper.imageNames = names
        // Progress is shared among the models by their images: the main one first (expected to be
        // the largest group), then each separate one.
        let minImages = options.minSeparateModelImages
        let groups = ViewGraphGroups(imageCount: inputs.count, pairs: geometries.map { ($0.pair.first, $0.pair.second) }).bySize()
        let mainSize = groups.first?.count ?? inputs.count
        let separateSizes = minImages >= 2 ? groups.dropFirst().map(\.count).filter { $0 >= minImages } : []
        let groupedImages = Double(max(1, mainSize + separateSizes.reduce(0, +)))
        var done = 0.0
        func report(_ step: MappingProgress, images: Int) {
            let share = Double(images) / groupedImages
            control.progress(Progress(stage: .mapping, fraction: min(1, done + share * Self.mappingFraction(step))))
        }
        do {
            var scene = try mapper.run(isCancelled: control.isCancelled) { report($0, images: mainSize) }
            done = Double(mainSize) / groupedImages
            for i in scene.images.indices { scene.images[i].name = names[i] }
            var separate: [SparseScene] = []
            for group in Self.separateGroups(groups, main: scene, minImages: minImages) {
                let model = try Self.reconstruct(group, inputs: inputs, names: names, geometries: geometries, options: options.mapper,
                                                 minImages: minImages, isCancelled: control.isCancelled) {
                    report($0, images: group.count)
                }
                done += Double(group.count) / groupedImages
                guard let model else { continue }
                separate.append(model)
                let reason = Self.separateModelReason(number: separate.count, imageCount: group.count)
                for (k, i) in group.enumerated() where model.images[k].cameraFromWorld != nil {
                    scene.images[i].unregisteredReason = reason
                }
            }
            control.progress(Progress(stage: .mapping, fraction: 1))
            return MappingStageOutput(scene: scene, separateModels: separate, trackCount: tracks.tracks.count)
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            throw PoseEstimationError.reconstructionFailed("\(error)")
        }
    }

    /// The report of a run from its stage outputs: images that could not be used (undecodable, rejected) go back into
    /// the scene, in input order, as unregistered.
    public func report(sources: [ImageSource], features: FeaturesStageOutput, matching: MatchingStageOutput,
                       mapping: MappingStageOutput, stageSeconds: [Stage: Double]) -> Report {
        let invalid = features.invalidImages
        let scene = Self.insertInvalid(scene: mapping.scene, sources: sources, invalid: invalid)
        return Report(scene: scene, separateModels: mapping.separateModels, invalidImages: invalid, stageSeconds: stageSeconds,
                      verifiedPairCount: matching.geometries.count, matchedPairCount: matching.pairCount,
                      trackCount: mapping.trackCount)
    }
}
