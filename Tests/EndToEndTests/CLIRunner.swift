import Foundation
import XCTest

/// Runs the built `photogrammetry` binary as a user would, capturing exit status and output.
enum CLIRunner {
    /// The built `photogrammetry` beside the test bundle (SwiftPM puts products in one folder).
    static var binary: URL { Bundle.main.bundleURL.appendingPathComponent("photogrammetry") }

    /// - Parameter environment: variables set (or replaced) in the child's environment.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("photogrammetry binary not built at \(binary.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts the binary in the background, its output (standard output and error) in `log`.
    /// - Parameter environment: variables set (or replaced) in the child's environment.
    static func start(_ arguments: [String], log: URL, environment: [String: String] = [:]) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("photogrammetry binary not built at \(binary.path)")
        }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }
}
