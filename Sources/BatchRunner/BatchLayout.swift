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

extension BatchLayout {
    /// Why `output` cannot be a job's own output folder in this batch folder, or nil: the batch
    /// folder itself or a folder around it (a job's outputs replace its folder whole), or a place
    /// inside `jobs/` or `slurm/`, whose folders the batch creates and removes for its jobs.
    public func problem(withOutput output: URL) -> String? {
        let path = output.standardizedFileURL.path, rootPath = root.path
        if path == rootPath || rootPath.hasPrefix(path.hasSuffix("/") ? path : path + "/") {
            return "output \(path) would hold the batch folder \(rootPath) (its ledger and every job's files); give a folder outside it"
        }
        for reserved in [root.appendingPathComponent("jobs").path, slurmDirectory.path]
        where path == reserved || path.hasPrefix(reserved + "/") {
            return "output \(path) is inside \(reserved), where the batch keeps its jobs' checkpoints and staging folders; "
                + "give a folder outside it"
        }
        return nil
    }
}

extension JobsFile {
    /// The file with each job whose output folder `layout` reserves (`BatchLayout.problem(withOutput:)`)
    /// made invalid, saying why, so it fails at once instead of losing another job's outputs.
    /// So is a job whose output lies inside another's, or around it: a job's outputs replace its
    /// whole folder, so the outer job's would remove the inner one's (the later job in the file is
    /// the one refused).
    public func checked(against layout: BatchLayout) -> JobsFile {
        var file = self
        var outputs: [(path: String, id: String)] = []
        file.entries = entries.map { entry in
            guard case .valid(let spec) = entry, let output = spec.output else { return entry }
            if let problem = layout.problem(withOutput: URL(fileURLWithPath: output, isDirectory: true)) {
                return .invalid(id: spec.id, raw: spec.canonicalJSON(), problem: "job '\(spec.id)': \(problem)")
            }
            if let other = outputs.first(where: { Self.isNested(output, $0.path) }) {
                return .invalid(id: spec.id, raw: spec.canonicalJSON(),
                                problem: "job '\(spec.id)': output \(output) and job '\(other.id)'s output \(other.path) lie one inside "
                                    + "the other, and a job's outputs replace its whole folder; give each job a folder of its own")
            }
            outputs.append((output, spec.id))
            return entry
        }
        return file
    }
}
