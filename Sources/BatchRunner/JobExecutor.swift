import Foundation

/// Runs one claimed job attempt: the backend seam of the batch runner.
///
/// The runner owns the ledger, the leases, the output commit and the schedule; an executor only
/// turns a spec into files in a staging folder. `SessionJobExecutor` runs a
/// `PhotogrammetrySession` in this process. The Slurm backend (`SlurmBackend`) is not another
/// executor: each array task runs a one-job `BatchRunner` with this executor on its node, sharing
/// the ledger's protocol (claims, leases, commits).
public protocol JobExecutor: Sendable {
    /// Writes the outputs `execution.spec` asks for into `execution.outputDirectory`, reporting
    /// progress and notes as it goes. Task cancellation must stop the work promptly (keeping the
    /// checkpoint) and throw `CancellationError`.
    /// - Throws: `JobFailure` (with whether a retry can help), `CancellationError`, or any error
    ///   (treated as retryable).
    func execute(_ execution: JobExecution, report: @escaping @Sendable (JobUpdate) -> Void) async throws
}

/// What an executor tells the runner while a job runs.
public enum JobUpdate: Sendable, Equatable {
    case progress(JobProgress)
    /// A stage (and how many of its items) was loaded from the checkpoint, e.g. `features 12/30`.
    case restoredFromCheckpoint(String)
    /// Something for the job's history: photos skipped, images that did not register.
    case note(String)
}

/// One attempt of a job, as the executor sees it.
public struct JobExecution: Sendable {
    public var jobID: String
    public var spec: JobSpec
    /// 1-based.
    public var attempt: Int
    /// The staging folder to write into (committed by the runner when the attempt succeeds).
    public var outputDirectory: URL
    /// Where the session keeps its stage checkpoints between attempts.
    public var checkpointDirectory: URL
    /// Threads the job may keep busy.
    public var threads: Int

    public init(jobID: String, spec: JobSpec, attempt: Int, outputDirectory: URL, checkpointDirectory: URL, threads: Int) {
        self.jobID = jobID
        self.spec = spec
        self.attempt = attempt
        self.outputDirectory = outputDirectory
        self.checkpointDirectory = checkpointDirectory
        self.threads = threads
    }
}

/// Where a running job is.
public struct JobProgress: Sendable, Equatable {
    /// The pipeline stage (`features`, `matching`, `mapping`, `dense`, …) or `writing`.
    public var stage: String
    /// Fraction of the whole job done, 0…1.
    public var fraction: Double
    /// Estimated seconds left; nil until the session has an estimate.
    public var etaSeconds: Double?

    public init(stage: String, fraction: Double, etaSeconds: Double?) {
        self.stage = stage
        self.fraction = fraction
        self.etaSeconds = etaSeconds
    }
}
