import Foundation

/// Runs a program to its end and collects its output: the seam under `SlurmClient`, so tests can
/// check the exact commands and feed it Slurm's answers.
public protocol CommandRunner: Sendable {
    /// Whether `command` (a name looked up on PATH, or a path) can be run.
    func isAvailable(_ command: String) -> Bool
    /// Runs `command` with `arguments` and waits for it.
    /// - Throws: when the program cannot be started (not found, not executable).
    func run(_ command: String, _ arguments: [String]) throws -> CommandOutput
}

/// A finished program's exit status and output.
public struct CommandOutput: Sendable, Equatable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String = "") {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs programs as child processes (`Foundation.Process`), finding names on PATH.
public struct ProcessCommandRunner: CommandRunner {
    /// The children's environment; nil: this process's.
    public var environment: [String: String]?

    public init(environment: [String: String]? = nil) {
        self.environment = environment
    }

    public func isAvailable(_ command: String) -> Bool { locate(command) != nil }

    /// `command` itself when it holds a slash, else the first executable of that name on PATH.
    public func locate(_ command: String) -> URL? {
        if command.contains("/") {
            return FileManager.default.isExecutableFile(atPath: command) ? URL(fileURLWithPath: command) : nil
        }
        let path = (environment ?? ProcessInfo.processInfo.environment)["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(command) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public func run(_ command: String, _ arguments: [String]) throws -> CommandOutput {
        guard let executable = locate(command) else {
            throw SlurmError.notInstalled(command)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes at once, so a child filling one does not block on it.
        let errData = HandOver()
        Thread { errData.put(err.fileHandleForReading.readDataToEndOfFile()) }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandOutput(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData.take(), as: UTF8.self))
    }
}

/// Data one thread hands to another: `take` waits for `put`.
private final class HandOver: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var data = Data()

    func put(_ value: Data) {
        data = value
        ready.signal()
    }

    func take() -> Data {
        ready.wait()
        return data
    }
}
