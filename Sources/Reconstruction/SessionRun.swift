import Foundation
import ReconstructionCore

/// One `process(requests:)` call: plans the stages its requests need, runs them (reusing what an
/// earlier call of the session computed on the same inputs, else loading each from the checkpoint
/// store when it is there), saves what it computes, and emits the messages.
///
/// The stage list is `ProcessingStage.allCases`. A request whose stages are all built runs; one
/// that needs a stage not built yet fails with `stageNotBuilt` at that stage's place in the order,
/// after the requests that can complete earlier have completed. Stages run only for requests that
/// can complete.
///
/// Adding a stage (e.g. dense): give its output type a `CheckpointCodable` conformance, mark the
/// `ProcessingStage` case built, add its weight to the ETA, and run it after mapping with
/// `checkpointedStage(_:entry:key:)`, keyed by the mapping key plus its own options; then complete
/// the requests that end with it.
final class SessionRun: @unchecked Sendable {
    typealias Session = PhotogrammetrySession

    let samples: [PhotogrammetrySample]
    let configuration: Session.Configuration
    let requests: [Session.Request]
    let store: StageCheckpointStore?
    let modelStages: (any ModelStages)?
    /// What earlier runs of the session left: reused when the inputs and options match.
    let memory: SessionMemory
    private let emit: @Sendable (Session.Output) -> Void

    private let lock = NSLock()
    private var cancelled = false
    private var eta: ETAEstimator
    private var reportedFraction = 0.0
    /// The stage last reported and its fraction (a stage's reports never go back).
    private var lastStage: ProcessingStage?
    private var lastStageFraction = 0.0
    private var checkpointError: (any Swift.Error)?
    /// The mapping stage's checkpoint key: what the later stages' keys build on.
    private var mappingKey: Fingerprint?
    /// Requests that will complete, and those that wait for a stage not built.
    private let runnable: [Session.Request]
    private let blocked: [Session.Request]

    /// Bumped when the checkpoint format or a stage's meaning changes, invalidating old checkpoints.
    static let checkpointFormat = "photogrammetry-session-checkpoint-1"

    init(samples: [PhotogrammetrySample], configuration: Session.Configuration, requests: [Session.Request],
         store: StageCheckpointStore?, modelStages: (any ModelStages)?, memory: SessionMemory = SessionMemory(),
         emit: @escaping @Sendable (Session.Output) -> Void) {
        self.samples = samples
        self.memory = memory
        self.configuration = configuration
        self.requests = requests
        self.store = store
        self.modelStages = modelStages
        self.emit = emit
        let available = Self.availableStages(withModelStages: modelStages != nil)
        runnable = requests.filter { $0.stages.allSatisfy(available.contains) }
        blocked = requests.filter { !$0.stages.allSatisfy(available.contains) }
        let options = configuration.resolvedPoseOptions
        var weights = ETAEstimator.poseStageWeights(
            imageCount: samples.count, pairCount: options.pairSelection.estimatedPairCount(imageCount: samples.count),
            workers: options.workers)
        let modelDetails = runnable.compactMap { request -> DetailLevel? in
            if case .modelFile(_, let detail, _) = request { return detail } else { return nil }
        }
        if let modelStages, !modelDetails.isEmpty {
            let stereoSize = modelStages.stereoImageDimension(for: modelDetails, samples: samples,
                                                                custom: configuration.customDetailSpecification)
            weights += ETAEstimator.modelStageWeights(imageCount: samples.count,
                                                      models: modelDetails.map { $0.budget(custom: configuration.customDetailSpecification) },
                                                      stereoImageDimension: stereoSize, workers: options.workers)
        }
        eta = ETAEstimator(stages: weights)
    }

    /// The stages this session can run: the pose stages always, the rest with model stages.
    static func availableStages(withModelStages: Bool) -> Set<ProcessingStage> {
        withModelStages ? Set(ProcessingStage.allCases) : [.features, .matching, .mapping]
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    static var now: Double { ProcessClock.wallSeconds }

    /// Runs the requests; returns the last message (`processingComplete` or `processingCancelled`),
    /// which the caller emits once the session is idle again.
    func execute() -> Session.Output {
        do {
            try runPoseStages()
            failBlocked(because: nil)
            return .processingComplete
        } catch is CancellationError {
            return .processingCancelled
        } catch {
            for request in runnable { emit(.requestError(request, error)) }
            failBlocked(because: error)
            return .processingComplete
        }
    }

    /// Requests that need a stage not built fail, naming it (or with the upstream error that
    /// stopped the stages they share with the others).
    private func failBlocked(because upstream: (any Swift.Error)?) {
        let available = Self.availableStages(withModelStages: modelStages != nil)
        for request in blocked {
            let missing = request.stages.first { !available.contains($0) }!
            emit(.requestError(request, upstream ?? Session.Error.stageNotBuilt(missing, request: request)))
        }
    }

    // MARK: The pose stages

    private func runPoseStages() throws {
        guard !runnable.isEmpty else { return }
        let options = configuration.resolvedPoseOptions
        let sources = samples.map { ImageSource($0, objectMasking: configuration.isObjectMaskingEnabled) }
        let imageKeys = sources.map { Self.fingerprint(of: $0, featureOptions: options.features) }
        // Everything the three stages depend on: each image (file or pixels, mask, rejection),
        // its name and prior, and the options; for files also their inode change time, which
        // every write and permission change moves (a copy keeping the modification time too).
        var poseKey = Fingerprint(Self.checkpointFormat, "pose stages", "\(options.features)", "\(options.verification)",
                                  "\(options.pairSelection)", options.retrieval.resultKey, "\(options.mapper)",
                                  "separate models of \(options.minSeparateModelImages)")
        for (source, key) in zip(sources, imageKeys) {
            poseKey.combine(key)
            poseKey.combine(source.name)
            poseKey.combine("\(source.prior)")
            if case .file(let url) = source.content { poseKey.combine(Self.fileStatus(url)) }
        }
        let poses: PoseStagesResult
        if let kept = memory.value(PoseStagesResult.self, entry: "pose stages", key: poseKey) {
            poses = try replay(kept)
        } else {
            poses = try computePoseStages(sources: sources, imageKeys: imageKeys, options: options)
            memory.keep(poses, entry: "pose stages", key: poseKey)
        }
        mappingKey = poses.mappingKey
        deliverPoseResults(poses)
        try runModelStages(scene: poses.report.scene)
    }

    /// Features, matching and mapping, each loaded from the checkpoint store when it is there.
    private func computePoseStages(sources: [ImageSource], imageKeys: [Fingerprint],
                                   options: PoseEstimation.Options) throws -> PoseStagesResult {
        let estimation = PoseEstimation(options: options)
        var seconds: [ProcessingStage: Double] = [:]

        // Features, image by image: each image's features are a checkpoint of their own.
        var known: [Int: ImageFeatures] = [:]
        var restoredSeconds = 0.0
        var unreadable: [String: Int] = [:]
        if let store {
            for (i, key) in imageKeys.enumerated() {
                let lookup = store.lookup(ImageFeatures.self, entry: Self.featuresEntry(key), fingerprint: key)
                if case .found(let value, let seconds) = lookup {
                    known[i] = value
                    restoredSeconds += seconds
                } else if let reason = lookup.setAsideReason {
                    unreadable[reason, default: 0] += 1
                }
            }
        }
        let features = try stage(.features, restored: known.count == sources.count) { control in
            try estimation.extractFeatures(from: sources, known: known, control: control) { [self] i, features, seconds in
                save(features, entry: Self.featuresEntry(imageKeys[i]), fingerprint: imageKeys[i], seconds: seconds)
            }
        }
        let pruned = store?.prune(folder: "features", keeping: Set(imageKeys.map { "\($0).ckpt" })) ?? 0
        try throwCheckpointError()
        let parallel = Double(max(1, min(options.workers, known.count)))
        emit(.stageComplete(Session.StageReport(stage: .features, seconds: features.seconds, cpuSeconds: features.cpuSeconds,
                                                restoredItems: known.count,
                                                totalItems: sources.count, savedSeconds: restoredSeconds / parallel,
                                                setAside: Self.featuresSetAside(unreadable: unreadable, pruned: pruned,
                                                                                restored: known.count))))
        seconds[.features] = features.seconds + restoredSeconds / parallel
        var invalid: [(index: Int, reason: String)] = []
        for (i, result) in features.value.images.enumerated() {
            if case .failure(let bad) = result { invalid.append((i, "\(samples[i].name): \(bad.reason)")) }
        }
        let downsampled = options.features.maxImageDimension > 0 && features.value.images.contains {
            guard case .success(let f) = $0 else { return false }
            return max(f.imageWidth, f.imageHeight) > options.features.maxImageDimension
        }
        emitInputMessages(invalid: invalid, downsampled: downsampled)

        let usable = features.value.usableIndices
        let inputs = try estimation.mapperInputs(sources: sources, features: features.value)

        // Matching and verification.
        // The resolved selection: what `.automatic` means for this many images is part of the result.
        var matchingKey = Fingerprint(Self.checkpointFormat, "matching", "\(options.verification)",
                                      "\(options.pairSelection.resolved(count: usable.count))", options.retrieval.resultKey)
        for i in usable { matchingKey.combine(imageKeys[i]); matchingKey.combine("\(sources[i].prior)") }
        let matching = try checkpointedStage(.matching, entry: "matching.ckpt", key: matchingKey) { control in
            try estimation.matchPairs(inputs, control: control)
        }
        seconds[.matching] = matching.seconds

        // Mapping.
        // "EXIF checked on pairs matched again": mappings saved before EXIF focal lengths were
        // checked against the pairs (`FocalLengthFromPairs.exifContradicted`), or checked on the
        // matches the EXIF focal length itself had kept, are made again, not restored.
        var mappingKey = Fingerprint(Self.checkpointFormat, "mapping", "\(options.mapper)",
                                     "separate models of \(options.minSeparateModelImages)", "EXIF checked on pairs matched again")
        mappingKey.combine(matchingKey)
        for i in usable { mappingKey.combine(sources[i].name) }
        // A given focal length is held; the pairs, matched again, say whether they agree (about a
        // third of a second on 8 pairs of fountain-P11, skipped when it is refined anyway). Found
        // before mapping, so that a mapping the wrong focal length makes fail still says so.
        if isCancelled { throw CancellationError() }
        let contradicted = options.mapper.refineGivenIntrinsics ? [] : FocalLengthFromPairs.givenContradicted(
            inputs, geometries: matching.value.geometries, verifier: PairVerifier(options: options.verification), workers: options.workers)
        let givenFocalWarning = PoseEstimation.givenFocalWarning(contradicted, inputs: inputs, names: usable.map { sources[$0].name })
        let mapping: (value: MappingStageOutput, seconds: Double)
        do {
            mapping = try checkpointedStage(.mapping, entry: "mapping.ckpt", key: mappingKey) { control in
                try estimation.map(inputs, names: usable.map { sources[$0].name }, matching: matching.value, control: control)
            }
        } catch {
            if let givenFocalWarning { emit(.inputWarning(givenFocalWarning)) }
            throw error
        }
        seconds[.mapping] = mapping.seconds

        let report = estimation.report(sources: sources, features: features.value, matching: matching.value,
                                       mapping: mapping.value, stageSeconds: [:])
        return PoseStagesResult(report: report, mappingKey: mappingKey, invalidSamples: invalid, downsampled: downsampled,
                                stageSeconds: seconds,
                                exifSetAside: PoseEstimation.exifSetAsideWarning(sources: sources, scene: report.scene),
                                givenFocalContradicted: givenFocalWarning)
    }

    /// The pose stages of an earlier `process` call on the same inputs, reported as restored in
    /// the order a computing run reports them.
    private func replay(_ poses: PoseStagesResult) throws -> PoseStagesResult {
        for stage in [ProcessingStage.features, .matching, .mapping] {
            try restoredStage(stage, items: stage == .features ? samples.count : 1, savedSeconds: poses.stageSeconds[stage] ?? 0)
            if stage == .features { emitInputMessages(invalid: poses.invalidSamples, downsampled: poses.downsampled) }
        }
        return poses
    }

    /// A later stage's warning about the input (unusable depth, tracked poses that do not fit).
    func warnAboutInput(_ text: String) { emit(.inputWarning(text)) }

    /// What the features stage found about the input, ending with `inputComplete`.
    private func emitInputMessages(invalid: [(index: Int, reason: String)], downsampled: Bool) {
        for (i, reason) in invalid { emit(.invalidSample(id: samples[i].id, reason: reason)) }
        if downsampled { emit(.automaticDownsampling) }
        emit(.inputComplete)
    }

    /// Results delivered as soon as the sparse scene exists: skipped samples and the requests
    /// that need no model.
    private func deliverPoseResults(_ result: PoseStagesResult) {
        let report = result.report, scene = report.scene
        let invalid = Set(result.invalidSamples.map(\.index))
        for warning in [result.givenFocalContradicted, result.exifSetAside, scene.exifFocalWarning, scene.twoPhotoSelfCalibrationWarning, scene.separateFocalLengthsNote].compactMap({ $0 }) { emit(.inputWarning(warning)) }
        var skipped = false
        for (i, image) in scene.images.enumerated() where !image.isRegistered && !invalid.contains(i) {
            emit(.skippedSample(id: samples[i].id))
            skipped = true
        }
        if skipped { emit(.stitchingIncomplete) }
        for request in runnable {
            switch request {
            case .poses: emit(.requestComplete(request, .poses(poses(scene: scene, report: report))))
            case .pointCloud: emit(.requestComplete(request, .pointCloud(scene.pointCloud)))
            case .bounds:
                if let box = objectBounds(of: scene) ?? scene.robustBounds() {
                    emit(.requestComplete(request, .bounds(box)))
                } else {
                    emit(.requestError(request, PoseEstimation.PoseEstimationError.reconstructionFailed("no points to bound")))
                }
            case .modelFile: break
            }
        }
    }

    // MARK: The model stages

    private func runModelStages(scene: SparseScene) throws {
        let models = runnable.compactMap { request -> (Session.Request, ModelRequest)? in
            guard case .modelFile(let url, let detail, let geometry) = request else { return nil }
            return (request, ModelRequest(url: url, detail: detail, geometry: geometry))
        }
        guard let modelStages, !models.isEmpty else { return }
        let results: [Result<URL, any Swift.Error>]
        do {
            results = try modelStages.run(scene: scene, samples: samples, requests: models.map(\.1),
                                          custom: configuration.customDetailSpecification, context: ModelStageContext(run: self))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The shared dense or surface stage failed: every model request fails with it; the
            // pose requests have completed already.
            for (request, _) in models { emit(.requestError(request, error)) }
            return
        }
        for ((request, _), result) in zip(models, results) {
            switch result {
            case .success(let url): emit(.requestComplete(request, .modelFile(url)))
            case .failure(let error): emit(.requestError(request, error))
            }
        }
    }

    /// The surface for the model stages, as `stage`: loaded from `surface.ckpt` when its key (the
    /// mapping key plus `parts`) matches, else computed and saved.
    func checkpointedSurface(_ stage: ProcessingStage, parts: [String],
                             _ body: (_ progress: @Sendable (Double) -> Void) throws -> SurfaceStageOutput) throws -> SurfaceStageOutput {
        var key = Fingerprint(Self.checkpointFormat, "surface")
        if let mappingKey { key.combine(mappingKey) }
        for part in parts { key.combine(part) }
        if let kept = memory.value((surface: SurfaceStageOutput, seconds: Double).self, entry: "surface", key: key) {
            try restoredStage(stage, items: 1, savedSeconds: kept.seconds)
            return kept.surface
        }
        let surface = try checkpointedStage(stage, entry: "surface.ckpt", key: key) { control in
            try body { fraction in control.progress(PoseEstimation.Progress(stage: .mapping, fraction: fraction)) }
        }
        memory.keep((surface: surface.value, seconds: surface.seconds), entry: "surface", key: key)
        return surface.value
    }

    /// A model stage run for a `ModelStages` implementation, reported like the pose stages.
    func reportedStage<T>(_ stage: ProcessingStage, _ body: (_ progress: @Sendable (Double) -> Void) throws -> T) throws -> T {
        let result = try self.stage(stage) { control in
            try body { fraction in control.progress(PoseEstimation.Progress(stage: .mapping, fraction: fraction)) }
        }
        emit(.stageComplete(Session.StageReport(stage: stage, seconds: result.seconds, cpuSeconds: result.cpuSeconds,
                                                restoredItems: 0, totalItems: 1, savedSeconds: 0)))
        return result.value
    }

    private func poses(scene: SparseScene, report: PoseEstimation.Report) -> Session.Poses {
        var posesBySample: [Int: Session.Poses.Pose] = [:]
        var reasons: [Int: String] = [:]
        var urls: [Int: URL] = [:]
        for (i, image) in scene.images.enumerated() {
            let id = samples[i].id
            if let cameraFromWorld = image.cameraFromWorld {
                posesBySample[id] = Session.Poses.Pose(worldFromCamera: cameraFromWorld.inverse, intrinsics: image.intrinsics)
            } else {
                reasons[id] = image.unregisteredReason ?? "not registered"
            }
            if let url = samples[i].url { urls[id] = url }
        }
        return Session.Poses(posesBySample: posesBySample, urlsBySample: urls, unregisteredReasonsBySample: reasons,
                             scene: scene, separateModels: report.separateModels, sampleIDs: samples.map(\.id),
                             verifiedPairCount: report.verifiedPairCount, matchedPairCount: report.matchedPairCount,
                             trackCount: report.trackCount)
    }

    // MARK: Running a stage

    /// Runs `body` as `stage` with progress and cancellation wired in; returns its value, wall time
    /// and the CPU time the process used meanwhile.
    private func stage<T>(_ stage: ProcessingStage, restored: Bool = false,
                          _ body: (PoseEstimation.Control) throws -> T) throws -> (value: T, seconds: Double, cpuSeconds: Double) {
        if isCancelled { throw CancellationError() }
        let start = Self.now
        lock.lock()
        eta.begin(stage, at: start)
        lock.unlock()
        progressed(stage, fraction: 0)  // the stage change is visible at once
        let control = PoseEstimation.Control(
            progress: { [self] in progressed(stage, fraction: $0.fraction) },
            isCancelled: { [self] in isCancelled })
        let cpuStart = ProcessClock.cpuSeconds
        let value = try body(control)
        let end = Self.now
        let cpu = ProcessClock.cpuSeconds - cpuStart
        lock.lock()
        eta.finish(stage, at: end, restored: restored)
        lock.unlock()
        progressed(stage, fraction: 1)
        return (value, end - start, cpu)
    }

    /// A stage whose result was already there (memory or checkpoint): passed through as a stage,
    /// so progress and the ETA see it, and reported restored with the seconds it saved.
    private func restoredStage(_ stage: ProcessingStage, items: Int, savedSeconds: Double) throws {
        let restored = try self.stage(stage, restored: true) { _ in () }
        emit(.stageComplete(Session.StageReport(stage: stage, seconds: restored.seconds, cpuSeconds: restored.cpuSeconds,
                                                restoredItems: items, totalItems: items, savedSeconds: savedSeconds)))
    }

    /// A stage saved as one checkpoint entry: loaded when its key matches, else computed and saved.
    /// Returns the value and the wall seconds computing it took (then or now).
    private func checkpointedStage<T: CheckpointCodable>(_ stage: ProcessingStage, entry: String, key: Fingerprint,
                                                         _ body: (PoseEstimation.Control) throws -> T) throws -> (value: T, seconds: Double) {
        let lookup = store?.lookup(T.self, entry: entry, fingerprint: key) ?? .absent
        if case .found(let value, let seconds) = lookup {
            try restoredStage(stage, items: 1, savedSeconds: seconds)
            return (value, seconds)
        }
        let computed = try self.stage(stage, body)
        save(computed.value, entry: entry, fingerprint: key, seconds: computed.seconds)
        try throwCheckpointError()
        emit(.stageComplete(Session.StageReport(stage: stage, seconds: computed.seconds, cpuSeconds: computed.cpuSeconds,
                                                restoredItems: 0, totalItems: 1, savedSeconds: 0,
                                                setAside: lookup.setAsideReason.map { "\(entry): \($0)" })))
        return (computed.value, computed.seconds)
    }

    /// The note for feature files in the checkpoint that were not used: unreadable ones by reason,
    /// and those of photos or options this run does not have (removed). Nil when there were none.
    /// Removed files are worth a note only when nothing was restored: with some restored, they are
    /// usually photos taken out of the folder, not a changed option.
    static func featuresSetAside(unreadable: [String: Int], pruned: Int, restored: Int) -> String? {
        var parts = unreadable.sorted { $0.key < $1.key }.map { reason, count in
            "\(count) \(count == 1 ? "file" : "files"): \(reason)"
        }
        if pruned > 0, restored == 0 {
            parts.append("\(pruned) \(pruned == 1 ? "file" : "files"): saved for other photos or options")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Reports progress to every runnable request: the overall fraction (never decreasing) and the ETA.
    private func progressed(_ stage: ProcessingStage, fraction: Double) {
        lock.lock()
        defer { lock.unlock() }
        // Worker threads report as they start items, not always in order: a stage never goes back.
        let fraction = stage == lastStage ? max(fraction, lastStageFraction) : fraction
        (lastStage, lastStageFraction) = (stage, fraction)
        let remaining = eta.update(stage, fraction: fraction, at: Self.now)
        // The stages' shares sum to 1 only up to rounding (0.9999999999999999 showed as 99 %).
        let overall = eta.overallFraction
        reportedFraction = max(reportedFraction, overall > 1 - 1e-9 ? 1 : overall)
        let info = Session.ProgressInfo(stage: stage, stageFraction: min(1, max(0, fraction)),
                                        estimatedRemainingTime: remaining)
        for request in runnable {
            emit(.requestProgress(request, fractionComplete: reportedFraction))
            emit(.requestProgressInfo(request, info))
        }
    }

    // MARK: Checkpoints

    private func save<T: CheckpointCodable>(_ value: T, entry: String, fingerprint: Fingerprint, seconds: Double) {
        guard let store else { return }
        do {
            try store.save(value, entry: entry, fingerprint: fingerprint, computeSeconds: seconds)
        } catch {
            lock.lock()
            if checkpointError == nil { checkpointError = error }
            lock.unlock()
        }
    }

    private func throwCheckpointError() throws {
        lock.lock()
        defer { lock.unlock() }
        if let error = checkpointError { throw error }
    }

    static func featuresEntry(_ key: Fingerprint) -> String { "features/\(key).ckpt" }

    /// A file's inode, change time (nanoseconds) and whether it can be read now: what tells a
    /// rewritten or newly readable photo from the one an earlier call of the session saw.
    static func fileStatus(_ url: URL) -> String {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return "no status (errno \(errno))" }
        let readable = access(url.path, R_OK) == 0
        return "inode \(info.st_ino) changed \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) readable \(readable)"
    }

    /// What an image's features depend on: its file (path, size, modification time) or pixels,
    /// its object mask, and the feature options.
    static func fingerprint(of source: ImageSource, featureOptions: FeatureExtractor.Options) -> Fingerprint {
        var key = Fingerprint(checkpointFormat, "features", "\(featureOptions)")
        switch source.content {
        case .file(let url):
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            key.combine(path)
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
                key.combine("\((attributes[.size] as? NSNumber)?.int64Value ?? -1)")
                key.combine("\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970.bitPattern ?? 0)")
            }
        case .pixels(let image):
            key.combine("pixels \(image.width)x\(image.height)")
            key.combine(array: image.pixels)
        }
        if let mask = source.objectMask {
            key.combine("mask \(mask.width)x\(mask.height)")
            key.combine(array: mask.pixels)
        }
        if let rejection = source.rejection { key.combine("rejected \(rejection)") }
        return key
    }
}
