import Foundation
import XCTest

/// A real one-node Slurm cluster for a test, started and stopped with
/// `Scripts/slurm/single-node.sh` (slurm-wlm and munge from Scripts/install-deps.sh), its files in
/// a temporary folder; the client commands find it through `SLURM_CONF`.
struct SingleNodeSlurm {
    let stateDirectory: URL

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/slurm/single-node.sh")

    /// Why a cluster cannot be started here (a program is missing), or nil.
    static var missingPrograms: String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin"
        let missing = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"].filter { name in
            !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        return missing.isEmpty ? nil : missing.joined(separator: ", ")
    }

    var configuration: URL { stateDirectory.appendingPathComponent("slurm.conf") }
    var environment: [String: String] { ["SLURM_CONF": configuration.path] }

    /// Starts the cluster: skips the test when Slurm is not installed; fails it, with the
    /// daemons' logs, when Slurm is installed but the cluster does not come up.
    static func start(for test: XCTestCase) throws -> SingleNodeSlurm {
        if let missing = missingPrograms {
            throw XCTSkip("Slurm is not installed (\(missing) not found): Scripts/install-deps.sh installs slurm-wlm and munge")
        }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("slurm-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let cluster = SingleNodeSlurm(stateDirectory: state)
        test.addTeardownBlock {
            _ = try? cluster.script("stop")
            try? FileManager.default.removeItem(at: state)
        }
        let started = try cluster.script("start")
        guard started.status == 0 else {
            XCTFail("the single-node Slurm cluster did not start (\(script.path) start \(state.path)):\n\(started.output)")
            throw ClusterDidNotStart()
        }
        return cluster
    }

    struct ClusterDidNotStart: Error {}

    @discardableResult
    func script(_ action: String) throws -> (status: Int32, output: String) {
        try run("/bin/bash", [Self.script.path, action, stateDirectory.path])
    }

    /// This user's tasks squeue still lists.
    func squeue() throws -> String {
        try run("/usr/bin/env", ["squeue", "--me", "--array", "--noheader", "--format=%i %T"]).output
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
