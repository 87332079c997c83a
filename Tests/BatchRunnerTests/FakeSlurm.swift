import BatchRunner
import Foundation

/// Slurm's client commands played by a test: records every command line, answers sbatch with the
/// next array id, squeue with `queue`, and scancel by removing tasks from it.
final class FakeSlurm: CommandRunner, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[String]] = []
    private var nextArrayID: Int
    /// Task id → state, as squeue lists them.
    var queue: [String: String] = [:]
    var installed: Set<String> = ["sbatch", "squeue", "scancel"]
    /// Answers that replace the normal one, by command, once each.
    var failures: [String: CommandOutput] = [:]
    /// sbatch's answer after the id (e.g. ";cluster").
    var clusterSuffix = ""

    init(firstArrayID: Int = 100) {
        nextArrayID = firstArrayID
    }

    var commands: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func isAvailable(_ command: String) -> Bool { installed.contains(command) }

    func run(_ command: String, _ arguments: [String]) throws -> CommandOutput {
        lock.lock()
        defer { lock.unlock() }
        recorded.append([command] + arguments)
        if let failure = failures.removeValue(forKey: command) { return failure }
        switch command {
        case "sbatch":
            let id = nextArrayID
            nextArrayID += 1
            let count = arguments.first { $0.hasPrefix("--array=0-") }.flatMap { Int($0.dropFirst("--array=0-".count)) }.map { $0 + 1 } ?? 1
            for index in 0..<count { queue["\(id)_\(index)"] = "PENDING" }
            return CommandOutput(status: 0, stdout: "\(id)\(clusterSuffix)\n")
        case "squeue":
            return CommandOutput(status: 0, stdout: queue.sorted { $0.key < $1.key }.map { "\($0.key)|\($0.value)\n" }.joined())
        case "scancel":
            arguments.forEach { queue[$0] = nil }
            return CommandOutput(status: 0, stdout: "")
        default:
            throw SlurmError.notInstalled(command)
        }
    }
}
