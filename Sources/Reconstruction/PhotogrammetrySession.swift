import Foundation
import ReconstructionCore

/// Apple Object Capture's session API over this package's pipeline: samples and a configuration
/// in, requests (poses, point cloud, bounds, model files) processed in the background, and every
/// event on one `outputs` stream.
///
/// Start reading `outputs` (e.g. in a `Task`), then call `process(requests:)`. Each request gets
/// exactly one `requestComplete` or `requestError`; a run ends with `processingComplete`, or with
/// `processingCancelled` after `cancel()`. Messages are buffered until read, so none are lost.
/// The stream stays open for further `process` calls and finishes when the session is released.
///
/// A later `process` call on the same session reuses the pose stages of an earlier one while its
/// photo files are unchanged, and the last surface while the poses, dense options and capture
/// files are: asking for another detail level or format after the poses does not extract or
/// match again. With a `checkpointDirectory`, each finished stage (and each image's features) is
/// saved as it completes; a later session on the same directory with the same inputs and options
/// loads them instead of recomputing.
public final class PhotogrammetrySession: Sendable {
    public let id = UUID()
    public let configuration: Configuration
    /// The input, in order.
    public let samples: [PhotogrammetrySample]
    /// Every message of every run, in order.
    public let outputs: AsyncStream<Output>

    /// The dense, surface, model and export stages; nil: model requests fail with `stageNotBuilt`.
    public let modelStages: (any ModelStages)?
    /// What the input's reader noticed without rejecting a sample; the first messages of `outputs`.
    public let inputWarnings: [String]
    private let continuation: AsyncStream<Output>.Continuation
    private let state = SessionState()
    private let memory = SessionMemory()

    /// Object Capture's capability check: this implementation needs only a CPU.
    public static let isSupported = true

    /// A session over `input` samples (ids and names unique). `inputWarnings` (what the samples'
    /// reader noticed) are the first messages of `outputs`, as `inputWarning`.
    /// - Throws: `Error.noSamples`, `Error.duplicateSampleID`, `Error.duplicateSampleName`, or
    ///   `Error.checkpointUnusable` when the checkpoint directory cannot be created.
    public init<S: Sequence>(input: S, configuration: Configuration = Configuration(), modelStages: (any ModelStages)? = nil,
                             inputWarnings: [String] = []) throws
        where S.Element == PhotogrammetrySample
    {
        let samples = Array(input)
        guard !samples.isEmpty else { throw Error.noSamples }
        var ids = Set<Int>(), names = Set<String>()
        for sample in samples {
            guard ids.insert(sample.id).inserted else { throw Error.duplicateSampleID(sample.id) }
            guard names.insert(sample.name).inserted else { throw Error.duplicateSampleName(sample.name) }
        }
        if let directory = configuration.checkpointDirectory { _ = try StageCheckpointStore(directory: directory) }
        self.samples = samples
        self.configuration = configuration
        self.modelStages = modelStages
        self.inputWarnings = inputWarnings
        (outputs, continuation) = AsyncStream.makeStream(of: Output.self, bufferingPolicy: .unbounded)
        for warning in inputWarnings { continuation.yield(.inputWarning(warning)) }
    }

    deinit {
        state.cancelActiveRun()
        continuation.finish()
    }

    /// True from `process` until its last message.
    public var isProcessing: Bool { state.activeRequests != nil }

    /// The requests of the running `process` call (empty when idle).
    public var activeRequests: [Request] { state.activeRequests ?? [] }

    /// Starts processing `requests` in the background; results and progress arrive on `outputs`.
    /// Duplicate requests are processed once.
    /// - Throws: `Error.noRequests`, `Error.alreadyProcessing`, `Error.invalidRequest` (a model
    ///   URL that is not `.usdz`, `.glb`, `.obj` or a directory; a `.custom` detail whose
    ///   `customDetailSpecification` is out of range; whatever the model stages refuse up front).
    public func process(requests: [Request]) throws {
        var unique: [Request] = []
        for request in requests where !unique.contains(request) { unique.append(request) }
        guard !unique.isEmpty else { throw Error.noRequests }
        for request in unique {
            try Self.validate(request)
            if case .modelFile(let url, let detail, _) = request, let modelStages {
                do {
                    if detail == .custom { try configuration.customDetailSpecification.validate() }
                    try modelStages.validate(url: url, detail: detail, custom: configuration.customDetailSpecification,
                                             samples: samples)
                } catch {
                    throw Error.invalidRequest(request, "\(error)")
                }
            }
        }
        let store = try configuration.checkpointDirectory.map { try StageCheckpointStore(directory: $0) }
        let run = SessionRun(samples: samples, configuration: configuration, requests: unique, store: store,
                             modelStages: modelStages, memory: memory, emit: { [continuation] in continuation.yield($0) })
        try state.start(run, requests: unique)
        let thread = Thread { [state, continuation] in
            let last = run.execute()
            state.finish(run)
            continuation.yield(last)
        }
        thread.name = "PhotogrammetrySession \(id)"
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Stops the running requests promptly (between images, pairs and mapper steps). Stages that
    /// finished stay in the checkpoint directory, and finished pose stages and surface in the
    /// session's memory for its next `process` call. The run ends with `processingCancelled`.
    public func cancel() { state.cancelActiveRun() }

    static func validate(_ request: Request) throws {
        guard case .modelFile(let url, _, _) = request else { return }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let ext = url.pathExtension.lowercased()
        if ["usdz", "glb", "obj"].contains(ext) {
            guard !(exists && isDirectory.boolValue) else { throw Error.invalidRequest(request, "\(url.path) is a directory") }
        } else if !(url.hasDirectoryPath || (exists && isDirectory.boolValue) || ext.isEmpty) {
            throw Error.invalidRequest(request, "the URL must end in .usdz, .glb or .obj, or be a directory (OBJ, MTL and textures)")
        }
    }
}

/// The session's mutable state behind a lock: the running `process` call, if any.
final class SessionState: @unchecked Sendable {
    private let lock = NSLock()
    private var run: SessionRun?
    private var requests: [PhotogrammetrySession.Request]?

    var activeRequests: [PhotogrammetrySession.Request]? {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    func start(_ run: SessionRun, requests: [PhotogrammetrySession.Request]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard self.run == nil else { throw PhotogrammetrySession.Error.alreadyProcessing }
        self.run = run
        self.requests = requests
    }

    func finish(_ run: SessionRun) {
        lock.lock()
        defer { lock.unlock() }
        if self.run === run {
            self.run = nil
            requests = nil
        }
    }

    func cancelActiveRun() {
        lock.lock()
        let run = self.run
        lock.unlock()
        run?.cancel()
    }
}
