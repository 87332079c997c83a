import Foundation
import ReconstructionCore

/// The stages after mapping (dense geometry, surface, model, export) as a session sees them. The
/// pipeline defines this interface; the layer that reads depth sidecars and writes model files
/// implements it (`PhotogrammetryKit`'s folder sessions install `FolderModelStages`), so the pipeline never imports a
/// file format.
public protocol ModelStages: Sendable {
    /// Whether a model can be written at `url` with `detail` from `samples`: checked by `process`
    /// before any work.
    func validate(url: URL, detail: DetailLevel, custom: CustomDetailSpecification, samples: [PhotogrammetrySample]) throws

    /// Runs the dense and surface stages once for the scene, then the model and export stages for
    /// each request, each inside `context.stage(_:_:)` so progress, ETA and cancellation work.
    /// Returns, per request in order, the written file or why it failed.
    func run(scene: SparseScene, samples: [PhotogrammetrySample], requests: [ModelRequest],
             custom: CustomDetailSpecification, context: ModelStageContext) throws -> [Result<URL, any Error>]

    /// Longest side of the photos the dense stage will work on for models at `details` from
    /// `samples`, pixels, for the session's time estimate. Default: the largest
    /// `DetailBudget.stereoImageDimension`.
    func stereoImageDimension(for details: [DetailLevel], samples: [PhotogrammetrySample], custom: CustomDetailSpecification) -> Int
}

extension ModelStages {
    public func stereoImageDimension(for details: [DetailLevel], samples: [PhotogrammetrySample],
                                     custom: CustomDetailSpecification) -> Int {
        DetailBudget.stereoImageDimension(serving: details.map { $0.budget(custom: custom) }) ?? 1024
    }
}

/// One model request's parameters.
public struct ModelRequest: Sendable {
    public var url: URL
    public var detail: DetailLevel
    public var geometry: PhotogrammetrySession.Geometry?
}

/// How a `ModelStages` implementation reports to its session: each stage runs inside `stage`,
/// which emits progress and the stage report and stops the run when it is cancelled.
public final class ModelStageContext: @unchecked Sendable {
    private let run: SessionRun

    init(run: SessionRun) { self.run = run }

    /// Runs `body` as `stage`, which may report its fraction done (0…1) through the closure it
    /// gets; throws `CancellationError` when the run was cancelled before the stage starts.
    public func stage<T>(_ stage: ProcessingStage, _ body: (_ progress: @Sendable (Double) -> Void) throws -> T) throws -> T {
        try run.reportedStage(stage, body)
    }

    /// Runs `body` as `stage` unless the session's memory (an earlier `process` call) or its
    /// checkpoint holds its result for the same poses (the mapping checkpoint) and the same
    /// `inputs` (describe every option and input file the surface depends on); a computed result
    /// is kept in both.
    public func checkpointedSurface(_ stage: ProcessingStage, inputs: [String],
                                    _ body: (_ progress: @Sendable (Double) -> Void) throws -> SurfaceStageOutput) throws -> SurfaceStageOutput {
        try run.checkpointedSurface(stage, parts: inputs, body)
    }

    /// Whether the session isolates the object from its surroundings
    /// (`Configuration.isObjectMaskingEnabled`).
    public var isObjectMaskingEnabled: Bool { run.configuration.isObjectMaskingEnabled }

    /// Reports a problem with the input that a stage found (e.g. a depth map it could not use),
    /// naming its file, as `inputWarning`.
    public func inputWarning(_ text: String) { run.warnAboutInput(text) }

    /// Whether the run was cancelled (check between long steps).
    public var isCancelled: Bool { run.isCancelled }
}
