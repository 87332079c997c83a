import Foundation
import GRDB

/// A job's row in the ledger (table `job`). Times are seconds since 1970.
public struct JobRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "job"

    public var id: String
    /// The resolved spec as canonical JSON; for an invalid job, the text the jobs file held.
    public var spec: String
    /// `JobSpec.digest` of the spec (of the raw text for an invalid job).
    public var specDigest: String
    /// False when the spec did not pass validation (the job is `failed` and never claimed).
    public var isValid: Bool
    public var state: JobState
    /// Higher first.
    public var priority: Int
    /// Enqueue order, for first-in first-out within a priority.
    public var sequence: Int
    /// The pipeline stage running now (or last), e.g. `features`.
    public var stage: String?
    /// Fraction done, 0…1.
    public var progress: Double
    /// Estimated seconds left (from the session's messages).
    public var etaSeconds: Double?
    /// Times the job was claimed by a runner.
    public var attempts: Int
    /// Attempts that ended in an error (what the retry policy counts).
    public var failures: Int
    /// Attempts cut short because their runner died or was stopped.
    public var interruptions: Int
    /// Times the job was marked completed: 0 or 1 (the ledger proves "exactly once" with it and
    /// the `completed` events).
    public var completions: Int
    /// A retry waits until this time.
    public var notBefore: Double?
    public var enqueuedAt: Double
    /// Start of the latest attempt.
    public var startedAt: Double?
    /// When the job reached completed, failed or cancelled.
    public var finishedAt: Double?
    public var updatedAt: Double
    /// The latest error (failed or retrying jobs).
    public var error: String?
    /// The committed output folder (completed jobs).
    public var outputDirectory: String?
    /// JSON array of the output files, relative to `outputDirectory`.
    public var outputs: String?
    /// The runner holding the job while it is running (its lease).
    public var runnerID: String?
    /// `jobs cancel` asked the runner holding the job to stop it.
    public var cancelRequested: Bool
    /// Photos in the input and the largest one's pixels, for the memory estimate.
    public var imageCount: Int
    public var largestImagePixels: Int
    /// The Slurm array task (`<array id>_<index>`) the job was submitted to or ran in (the Slurm
    /// backend); nil for jobs of the local runner. A queued job with a task waits for that task
    /// to claim it; a job sent back to the queue loses its task (it is submitted again).
    public var slurmJobID: String?

    /// The spec, for a valid job.
    public var decodedSpec: JobSpec? {
        guard isValid else { return nil }
        return try? JSONDecoder().decode(JobSpec.self, from: Data(spec.utf8))
    }

    /// The output files, relative to `outputDirectory`.
    public var outputFiles: [String] {
        guard let outputs else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(outputs.utf8))) ?? []
    }
}
