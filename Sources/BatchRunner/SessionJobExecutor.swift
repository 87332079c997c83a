import CaptureIO
import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

/// The local backend: each job is a `PhotogrammetrySession` over its capture folder (with the
/// folder's dense, surface, model and export stages), run in this process with the job's
/// checkpoint directory, so an interrupted job resumes from its last finished stage.
///
/// Outputs in the output folder: `poses.json`, `colmap/`, `sparse_pc.ply`, `transforms.json` (poses),
/// `points.ply` (pointCloud), `bounds.json` (bounds), and each model at its path.
public struct SessionJobExecutor: JobExecutor {
    /// Base session configuration (feature limits, pair selection, …); each job sets its
    /// checkpoint directory and thread count on top.
    public var configuration: PhotogrammetrySession.Configuration

    public init(configuration: PhotogrammetrySession.Configuration = .init()) {
        self.configuration = configuration
    }

    public func execute(_ execution: JobExecution, report: @escaping @Sendable (JobUpdate) -> Void) async throws {
        let spec = execution.spec
        let input = URL(fileURLWithPath: spec.input, isDirectory: true)
        guard FileManager.default.fileExists(atPath: input.path) else {
            throw JobFailure("input folder \(input.path) does not exist", isRetryable: false)
        }
        let images = JobSpecValidator.imagesDirectory(of: input)
        var intrinsics: PinholeIntrinsics?
        if let file = spec.intrinsicsFile {
            do { intrinsics = try PinholeIntrinsics.load(kFile: URL(fileURLWithPath: file)) } catch {
                throw JobFailure("intrinsicsFile: \(error)", isRetryable: false)
            }
        }
        var configuration = configuration
        configuration.checkpointDirectory = execution.checkpointDirectory
        configuration.poseEstimation.workers = max(1, execution.threads)
        if let masking = spec.objectMasking { configuration.isObjectMaskingEnabled = masking }
        for case .model(let model) in spec.requests {
            if let custom = model.custom { configuration.customDetailSpecification = custom }
        }
        let session: PhotogrammetrySession
        do {
            session = try PhotogrammetrySession(input: images, configuration: configuration, intrinsics: intrinsics)
        } catch {
            throw JobFailure("cannot start a session on \(images.path): \(error)", isRetryable: false)
        }
        // Poses first: the scale they are written in (metres from tracked_poses.json) is the point
        // cloud's and the bounds' too, which the session delivers after them in request order.
        let asked = spec.requests.map { Self.sessionRequest($0, outputDirectory: execution.outputDirectory) }
        let requests = asked.filter { $0 == .poses } + asked.filter { $0 != .poses }
        let names = Dictionary(uniqueKeysWithValues: session.samples.map { ($0.id, $0.name) })
        try await withTaskCancellationHandler {
            do { try session.process(requests: requests) } catch {
                throw JobFailure("the session refused the requests: \(error)", isRetryable: false)
            }
            var tracker = ProgressTracker(requests: requests)
            var failures: [(request: String, message: String)] = []
            var retryable = false
            var cancelled = false
            var unplaced: [String] = [], skipped = 0
            var metresPerUnit: Double?
            var inputWarnings: [String] = []  // kept in poses.json
            loop: for await output in session.outputs {
                switch output {
                case .requestProgress(let request, let fraction):
                    report(.progress(tracker.update(request, fraction: fraction)))
                case .requestProgressInfo(let request, let info):
                    report(.progress(tracker.update(request, info: info)))
                case .stageComplete(let stage):
                    if stage.restoredItems > 0 {
                        report(.restoredFromCheckpoint("\(stage.stage.rawValue) \(stage.restoredItems)/\(stage.totalItems)"))
                    }
                    if let setAside = stage.setAsideNote { report(.note(setAside)) }
                case .invalidSample(_, let reason):
                    skipped += 1
                    report(.note("skipped \(reason)"))  // the reason starts with the photo's name
                case .inputWarning(let warning):
                    inputWarnings.append(warning)
                    report(.note(warning))
                case .skippedSample(let id):
                    // One note for all of them, once the session has said which (one per photo flooded the log).
                    unplaced.append(names[id] ?? "sample \(id)")
                case .stitchingIncomplete where !unplaced.isEmpty:
                    report(.note(Self.unplacedNote(unplaced, usable: session.samples.count - skipped)))
                case .requestComplete(_, let result):
                    if case .poses(let poses) = result { for warning in PoseExport.warnings(scene: poses.scene) { report(.note(warning)) } }
                    do {
                        try Self.write(result, images: images, to: execution.outputDirectory, metresPerUnit: &metresPerUnit,
                                       warnings: inputWarnings) { report(.note($0)) }
                    } catch {
                        failures.append(("writing outputs", "\(error)"))
                        retryable = true
                    }
                case .requestError(let request, let error):
                    failures.append((Self.name(of: request, in: execution.outputDirectory), "\(error)"))
                    retryable = retryable || !Self.isDeterministic(error)
                case .processingCancelled:
                    cancelled = true
                    break loop
                case .processingComplete:
                    break loop
                default:
                    break
                }
            }
            if cancelled || Task.isCancelled { throw CancellationError() }
            if !failures.isEmpty { throw JobFailure(Self.failureMessage(failures), isRetryable: retryable) }
        } onCancel: {
            session.cancel()
        }
    }

    /// The job's failure: each different message once, after the requests that failed with it
    /// (a folder of one usable photo failed poses, point cloud and model with the same sentence,
    /// which the message repeated three times).
    public static func failureMessage(_ failures: [(request: String, message: String)]) -> String {
        var messages: [String] = [], requests: [String: [String]] = [:]
        for (request, message) in failures {
            if requests[message] == nil { messages.append(message) }
            if !(requests[message]?.contains(request) ?? false) { requests[message, default: []].append(request) }
        }
        return messages.map { "\(requests[$0, default: []].joined(separator: ", ")): \($0)" }.joined(separator: "; ")
    }

    /// The photos the reconstruction could not place, in one note: up to ten names, how many of
    /// the usable photos they are, and a warning when they are most of them (the job still
    /// completes with the photos that were placed).
    public static func unplacedNote(_ names: [String], usable: Int) -> String {
        let listed = names.count <= 10 ? names.joined(separator: ", ") : names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more"
        let share = "\(names.count) of \(max(usable, names.count)) usable photos"
        let most = 2 * names.count > max(usable, names.count)
        return "not registered: \(listed) (\(share): no pose; the outputs hold the registered photos only"
            + (most ? "; most photos were not placed: do they overlap enough, one with the next?" : "") + ")"
    }

    /// Whether the same photos and spec would fail the same way again: the pipeline is
    /// deterministic (seeded sampling), so too few usable or registered photos, or no depth to
    /// fuse, are not worth a retry; anything else (I/O, memory) may be.
    public static func isDeterministic(_ error: any Error) -> Bool {
        if case DenseStereo.DenseStereoError.noUsableViews = error { return true }
        return error is PoseEstimation.PoseEstimationError || error is SurfaceReconstruction.SurfaceError || error is PhotogrammetrySession.Error
    }

    static func sessionRequest(_ request: JobRequest, outputDirectory: URL) -> PhotogrammetrySession.Request {
        switch request {
        case .poses: return .poses
        case .pointCloud: return .pointCloud
        case .bounds: return .bounds
        case .model(let model): return .modelFile(url: outputDirectory.appendingPathComponent(model.path), detail: model.detail)
        }
    }

    static func name(of request: PhotogrammetrySession.Request, in directory: URL) -> String {
        if case .modelFile(let url, let detail, _) = request {
            return "model \(url.path.replacingOccurrences(of: directory.path + "/", with: "")) (\(detail.rawValue))"
        }
        return request.description
    }

    /// Writes a finished request's result into the output folder (each file atomically). The
    /// poses are in metres when tracked_poses.json beside the photos gives the scale (`note` says
    /// so, or why not), which sets `metresPerUnit` for the point cloud and bounds written after them.
    static func write(_ result: PhotogrammetrySession.Result, images: URL, to directory: URL, metresPerUnit: inout Double?,
                      warnings earlier: [String] = [], note: (String) -> Void = { _ in }) throws {
        switch result {
        case .poses(let poses):
            var warnings: [String] = []
            let exported = TrackedPoses.exportedPoses(poses.scene, imagesDirectory: images, warnings: &warnings, log: note)
            warnings.forEach(note)
            metresPerUnit = exported.metresPerUnit
            try PoseExport.writeAll(scene: exported.scene, imagesDirectory: images, to: directory, world: exported.world,
                                    warnings: earlier + warnings + PoseExport.warnings(scene: poses.scene))
            try PoseExport.writeSeparateModels(poses.separateModels, imagesDirectory: images, to: directory)
        case .pointCloud(let cloud):
            try PLYWriter.write(metresPerUnit.map { cloud.scaled(by: Float($0)) } ?? cloud, to: directory.appendingPathComponent("points.ply"))
        case .bounds(let box):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let scaled = metresPerUnit.map { BoundingBox(centre: box.centre * $0, halfExtents: box.halfExtents * $0) } ?? box
            try AtomicFileWriter.write(try encoder.encode(scaled), to: directory.appendingPathComponent("bounds.json"))
        case .modelFile:
            break // written by the session's export stage at the request's URL
        }
    }
}

/// Folds each request's progress into the job's: the mean fraction, the latest stage and the
/// longest time left.
struct ProgressTracker {
    private var fractions: [PhotogrammetrySession.Request: Double]
    private var remaining: [PhotogrammetrySession.Request: Double] = [:]
    private var stage = "features"

    init(requests: [PhotogrammetrySession.Request]) {
        // A request asked twice is one request (the session runs it once).
        fractions = Dictionary(requests.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func update(_ request: PhotogrammetrySession.Request, fraction: Double) -> JobProgress {
        fractions[request] = max(fractions[request] ?? 0, fraction)
        return current
    }

    mutating func update(_ request: PhotogrammetrySession.Request, info: PhotogrammetrySession.ProgressInfo) -> JobProgress {
        stage = info.stage.rawValue
        remaining[request] = info.estimatedRemainingTime
        return current
    }

    var current: JobProgress {
        let fraction = fractions.values.reduce(0, +) / Double(max(1, fractions.count))
        return JobProgress(stage: stage, fraction: min(1, fraction), etaSeconds: remaining.values.max())
    }
}
