import Foundation
import Reconstruction

/// Progress of a command that runs the stages itself (`reconstruct`): each report goes to the
/// `ProgressReporter` with the time left over the whole run, which an `ETAEstimator` learns from
/// the stages done so far. Reports may come from worker threads; they are serialised here.
final class StageProgress: @unchecked Sendable {
    let reporter: ProgressReporter
    private var eta: ETAEstimator
    private var current: ProcessingStage?
    private let lock = NSLock()

    /// `stages`: the run's stages in order with their expected relative costs
    /// (`ETAEstimator.poseStageWeights`, `modelStageWeights`).
    init(reporter: ProgressReporter, stages: [(ProcessingStage, weight: Double)]) {
        self.reporter = reporter
        eta = ETAEstimator(stages: stages)
    }

    /// `stage` is `fraction` done (0…1). A new stage ends the one before it.
    func update(_ stage: ProcessingStage, _ fraction: Double) {
        lock.lock()
        defer { lock.unlock() }
        let now = ProcessClock.wallSeconds
        if let current, current != stage { eta.finish(current, at: now) }
        if current != stage { eta.begin(stage, at: now) }
        current = stage
        let remaining = eta.update(stage, fraction: fraction, at: now)
        reporter.progress(stage: stage, fraction: min(1, max(0, fraction)), remaining: remaining)
    }

    /// `stage` came whole from a checkpoint: it took no time and teaches the estimate nothing.
    func restored(_ stage: ProcessingStage) {
        lock.lock()
        defer { lock.unlock() }
        eta.finish(stage, at: ProcessClock.wallSeconds, restored: true)
        if current == stage { current = nil }
    }

    /// Runs `body` as `stage`, reporting its start and end; `body` may report the fractions in between.
    func stage<T>(_ stage: ProcessingStage, _ body: () throws -> T) rethrows -> T {
        update(stage, 0)
        let value = try body()
        update(stage, 1)
        return value
    }

    /// A message between progress reports (a note, or with `warning`, a warning).
    func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if text.hasPrefix("warning: ") { reporter.warning(String(text.dropFirst("warning: ".count))) } else { reporter.note(text) }
    }

    /// Ends the progress bar line, if one is shown.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        reporter.finish()
    }
}
