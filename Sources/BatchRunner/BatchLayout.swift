import Foundation

/// The files of a batch output folder `OUT`:
///
/// ```
/// OUT/ledger.sqlite                 the job ledger (with -wal and -shm beside it)
/// OUT/jobs/<id>/checkpoint/         the job's session checkpoints (removed when it completes)
/// OUT/jobs/<id>/output/             the job's outputs, unless its spec names another folder
/// OUT/jobs/<id>/.output.attempt-<n>.partial/   an attempt's staging folder (never read)
/// OUT/slurm/<array id>.sh           a Slurm job array's batch script (the Slurm backend)
/// OUT/slurm/<array id>_<index>.out  each array task's standard output and error
/// ```
public struct BatchLayout: Sendable, Equatable {
    public var root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var ledger: URL { root.appendingPathComponent(JobLedger.fileName) }

    public func jobDirectory(_ id: String) -> URL {
        root.appendingPathComponent("jobs", isDirectory: true).appendingPathComponent(id, isDirectory: true)
    }

    public func checkpointDirectory(_ id: String) -> URL {
        jobDirectory(id).appendingPathComponent("checkpoint", isDirectory: true)
    }

    /// The Slurm backend's batch scripts and task logs.
    public var slurmDirectory: URL { root.appendingPathComponent("slurm", isDirectory: true) }

    /// Slurm task `task`'s (`<array id>_<index>`) standard output and error.
    public func slurmLog(_ task: String) -> URL { slurmDirectory.appendingPathComponent("\(task).out") }

    /// The spec's output folder, or `OUT/jobs/<id>/output`.
    public func outputDirectory(_ id: String, spec: JobSpec) -> URL {
        spec.output.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? jobDirectory(id).appendingPathComponent("output", isDirectory: true)
    }
}
