import Foundation

/// Slurm's client commands as the batch runner uses them: `sbatch` submits a job array, `squeue`
/// lists this user's pending and running tasks, `scancel` cancels tasks. Builds the exact command
/// lines and parses the answers; the programs run through a `CommandRunner`.
public struct SlurmClient: Sendable {
    public let runner: any CommandRunner

    public init(runner: any CommandRunner = ProcessCommandRunner()) {
        self.runner = runner
    }

    /// One job array to submit.
    public struct ArrayRequest: Sendable, Equatable {
        /// The batch script (each task picks its job by `SLURM_ARRAY_TASK_ID`).
        public var script: URL
        /// Tasks 0…count-1.
        public var count: Int
        public var jobName: String
        /// Where each task's standard output and error go (Slurm's `%A` = array id, `%a` = index).
        public var output: String
        public var workingDirectory: URL
        public var partition: String?
        public var cpusPerTask: Int
        /// Memory per task in MB (`--mem`); nil leaves it to the cluster's default.
        public var memoryMB: Int?
        /// More sbatch options, passed as they are, before the script.
        public var extraOptions: [String]

        public init(script: URL, count: Int, jobName: String, output: String, workingDirectory: URL, partition: String? = nil,
                    cpusPerTask: Int = 1, memoryMB: Int? = nil, extraOptions: [String] = []) {
            self.script = script
            self.count = count
            self.jobName = jobName
            self.output = output
            self.workingDirectory = workingDirectory
            self.partition = partition
            self.cpusPerTask = cpusPerTask
            self.memoryMB = memoryMB
            self.extraOptions = extraOptions
        }

        /// sbatch's arguments.
        public var arguments: [String] {
            var arguments = ["--parsable", "--array=0-\(count - 1)", "--job-name=\(jobName)", "--output=\(output)",
                             "--chdir=\(workingDirectory.path)", "--cpus-per-task=\(cpusPerTask)"]
            if let memoryMB { arguments.append("--mem=\(memoryMB)M") }
            if let partition { arguments.append("--partition=\(partition)") }
            return arguments + extraOptions + [script.path]
        }
    }

    /// A submitted job array.
    public struct Submission: Sendable, Equatable {
        /// The array's job id (`SLURM_ARRAY_JOB_ID`).
        public var arrayJobID: String
        /// The cluster, when sbatch names one (federations, `--clusters`).
        public var cluster: String?

        public init(arrayJobID: String, cluster: String? = nil) {
            self.arrayJobID = arrayJobID
            self.cluster = cluster
        }

        /// Task `index`'s id, `<array id>_<index>` (what squeue lists and scancel takes).
        public func task(_ index: Int) -> String { "\(arrayJobID)_\(index)" }
    }

    /// Throws unless sbatch, squeue and scancel are installed and the controller answers.
    public func checkReady() throws {
        for command in ["sbatch", "squeue", "scancel"] where !runner.isAvailable(command) {
            throw SlurmError.notInstalled(command)
        }
        do { _ = try queue() } catch SlurmError.failed(let command, _, let message) where command == "squeue" {
            throw SlurmError.unreachable(message)
        }
    }

    /// `sbatch --parsable --array=0-(n-1) …`: submits the array.
    public func submit(_ request: ArrayRequest) throws -> Submission {
        let output = try checked("sbatch", request.arguments)
        return try Self.parseSubmission(output.stdout)
    }

    /// `scancel TASK…`. Tasks that already ended are not an error.
    public func cancel(_ tasks: [String]) throws {
        guard !tasks.isEmpty else { return }
        _ = try checked("scancel", tasks)
    }

    /// `squeue --me --array`: this user's tasks Slurm still knows as pending, running or
    /// completing, by task id (`<array id>_<index>`, or the job id of a job that is not an array),
    /// with their state (`PENDING`, `RUNNING`, …).
    public func queue() throws -> [String: String] {
        Self.parseQueue(try checked("squeue", ["--me", "--array", "--noheader", "--format=%i|%T"]).stdout)
    }

    /// The array id in `sbatch --parsable`'s answer: `<id>` or `<id>;<cluster>`.
    public static func parseSubmission(_ text: String) throws -> Submission {
        let line = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty } ?? ""
        let parts = line.split(separator: ";", maxSplits: 1).map(String.init)
        guard let id = parts.first, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw SlurmError.unexpectedOutput(command: "sbatch --parsable", output: text)
        }
        return Submission(arrayJobID: id, cluster: parts.count > 1 ? parts[1] : nil)
    }

    /// `squeue --format=%i|%T` lines as task id → state.
    public static func parseQueue(_ text: String) -> [String: String] {
        var tasks: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let id = fields.first, !id.isEmpty else { continue }
            tasks[id] = fields.count > 1 ? fields[1] : ""
        }
        return tasks
    }

    private func checked(_ command: String, _ arguments: [String]) throws -> CommandOutput {
        let output = try runner.run(command, arguments)
        guard output.status == 0 else {
            let message = [output.stderr, output.stdout].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .first { !$0.isEmpty } ?? "no message"
            throw SlurmError.failed(command: command, status: output.status, message: message)
        }
        return output
    }
}

/// Why Slurm could not be used. Descriptions are complete sentences for the command line.
public enum SlurmError: Error, CustomStringConvertible, Equatable {
    /// A client command is not on PATH.
    case notInstalled(String)
    /// squeue could not reach the controller (or no configuration names one).
    case unreachable(String)
    /// A command exited with a non-zero status.
    case failed(command: String, status: Int32, message: String)
    /// A command's answer did not parse.
    case unexpectedOutput(command: String, output: String)

    public var description: String {
        switch self {
        case .notInstalled(let command):
            return "\(command) is not on PATH: the Slurm backend needs Slurm's client commands (sbatch, squeue, scancel; "
                + "Debian's slurm-client) on this machine"
        case .unreachable(let message):
            return "the Slurm controller cannot be reached (squeue: \(message)); check that slurmctld runs and that "
                + "SLURM_CONF (default /etc/slurm/slurm.conf) names it"
        case .failed(let command, let status, let message):
            return "\(command) failed (exit status \(status)): \(message)"
        case .unexpectedOutput(let command, let output):
            return "unexpected answer from \(command): '\(output.trimmingCharacters(in: .whitespacesAndNewlines))'"
        }
    }
}
