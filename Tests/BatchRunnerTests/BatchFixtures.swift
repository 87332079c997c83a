import BatchRunner
import Foundation
import XCTest

/// Temporary folders, capture folders with placeholder photos, and an executor that does what a
/// test tells it, for runner and ledger tests that need no real reconstruction.
enum BatchFixtures {
    /// A new empty folder, removed by the test's teardown.
    static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A JPEG header (SOI, an APP0 segment, SOF0 with the size) followed by filler: enough for the
    /// folder checks and `ImageDimensions`, not a decodable photo.
    static func jpegHeader(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
        bytes += Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
        return Data(bytes)
    }

    /// A capture folder `name/images/` with `photos` placeholder JPEGs of `width`×`height`.
    @discardableResult
    static func capture(in directory: URL, name: String, photos: Int = 3, width: Int = 320, height: Int = 240) throws -> URL {
        let images = directory.appendingPathComponent(name).appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for i in 0..<photos {
            try jpegHeader(width: width, height: height).write(to: images.appendingPathComponent(String(format: "%04d.jpg", i + 1)))
        }
        return directory.appendingPathComponent(name)
    }

    static func spec(_ id: String, input: URL, priority: Int = 0, retry: RetryPolicy = RetryPolicy(maxAttempts: 3, backoffSeconds: 0)) -> JobSpec {
        JobSpec(id: id, input: input.path, requests: [.poses], priority: priority, retry: retry)
    }
}

/// An executor that follows a script per job: how many attempts fail (and whether retryably),
/// whether it waits to be cancelled, how long it works. Records the most jobs it ran at once.
final class ScriptedExecutor: JobExecutor, @unchecked Sendable {
    struct Script {
        var failures = 0
        var retryable = true
        var waitsForCancel = false
        var seconds = 0.05
        /// A stage reported after "features" (at 80 %), where the attempt then stops.
        var laterStage: String?
    }

    private let lock = NSLock()
    private var scripts: [String: Script] = [:]
    private var attemptsByJob: [String: Int] = [:]
    private var running = 0
    private(set) var mostAtOnce = 0

    init(_ scripts: [String: Script] = [:]) {
        self.scripts = scripts
    }

    func attempts(_ id: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return attemptsByJob[id] ?? 0
    }

    func execute(_ execution: JobExecution, report: @escaping @Sendable (JobUpdate) -> Void) async throws {
        let (script, attempt) = begin(execution.jobID)
        defer { end() }
        report(.progress(JobProgress(stage: "features", fraction: 0.5, etaSeconds: script.seconds)))
        if let later = script.laterStage { report(.progress(JobProgress(stage: later, fraction: 0.8, etaSeconds: script.seconds))) }
        if script.waitsForCancel {
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 10_000_000) }
            throw CancellationError()
        }
        try await Task.sleep(nanoseconds: UInt64(script.seconds * 1e9))
        if attempt <= script.failures { throw JobFailure("scripted failure \(attempt)", isRetryable: script.retryable) }
        try Data("\(execution.jobID) attempt \(attempt)\n".utf8).write(to: execution.outputDirectory.appendingPathComponent("result.txt"))
    }

    private func begin(_ id: String) -> (Script, Int) {
        lock.lock()
        defer { lock.unlock() }
        attemptsByJob[id, default: 0] += 1
        running += 1
        mostAtOnce = max(mostAtOnce, running)
        return (scripts[id] ?? Script(), attemptsByJob[id]!)
    }

    private func end() {
        lock.lock()
        running -= 1
        lock.unlock()
    }
}
