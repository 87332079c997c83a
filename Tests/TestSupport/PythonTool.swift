import Foundation
import XCTest

/// Running Python helpers (usd-core's validator, trimesh) from tests.
public enum PythonTool {
    public struct Result {
        public var status: Int32
        /// stdout and stderr together.
        public var output: String
    }

    /// Runs `python3 -c script arguments…` and waits for it.
    public static func run(_ script: String, _ arguments: [String] = []) throws -> Result {
        try runProcess(["python3", "-c", script] + arguments)
    }

    /// Runs `python3 file arguments…`.
    public static func run(file: URL, _ arguments: [String] = []) throws -> Result {
        try runProcess(["python3", file.path] + arguments)
    }

    private static func runProcess(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Fails the test (does not skip) when `module` cannot be imported, naming the pip package.
    public static func requireModule(_ module: String, pipPackage: String, file: StaticString = #filePath,
                              line: UInt = #line) throws {
        let result = try run("import \(module)")
        if result.status != 0 {
            XCTFail("python3 cannot import \(module): install the pip package \(pipPackage) (Scripts/install-deps.sh does). \(result.output)",
                    file: file, line: line)
            throw XCTSkip("\(module) missing (reported as a failure above)")
        }
    }

    /// `shared/tools/usdz_check.py` next to the package: `$PHOTOGRAMMETRY_USDZ_CHECK` when set,
    /// else found by walking up from this file to a folder with `Package.swift` whose parent has
    /// `shared/tools` (works from the repository and from a scratch package of symlinks).
    public static func usdzCheckScript(filePath: String = #filePath) throws -> URL {
        if let override = ProcessInfo.processInfo.environment["PHOTOGRAMMETRY_USDZ_CHECK"] {
            return URL(fileURLWithPath: override)
        }
        let fm = FileManager.default
        for start in [URL(fileURLWithPath: filePath), URL(fileURLWithPath: filePath).resolvingSymlinksInPath()] {
            var folder = start.deletingLastPathComponent()
            while folder.path != "/" {
                let tool = folder.deletingLastPathComponent().appendingPathComponent("shared/tools/usdz_check.py")
                if fm.fileExists(atPath: folder.appendingPathComponent("Package.swift").path), fm.fileExists(atPath: tool.path) {
                    return tool
                }
                folder.deleteLastPathComponent()
            }
        }
        throw XCTSkip("../shared/tools/usdz_check.py is absent next to the package (or set PHOTOGRAMMETRY_USDZ_CHECK); skipping the USD validation")
    }
}

