import Foundation

/// Measures wall time and peak resident memory per pipeline stage of this process, on Linux:
/// at each stage boundary it reads the resident-set high-water mark (`VmHWM` in /proc/self/status)
/// and resets it (writing 5 to /proc/self/clear_refs), so each stage's peak is its own.
public final class StageProbe: @unchecked Sendable {
    public struct StageMeasurement: Codable, Sendable, Equatable {
        public var stage: String
        public var seconds: Double
        /// Peak resident memory during the stage, bytes (nil where /proc is unavailable).
        public var peakResidentBytes: Int?
    }

    private let lock = NSLock()
    private var current: (stage: String, started: Date)?
    private var finished: [StageMeasurement] = []

    public init() {}

    /// Marks that `stage` is running; closes the previous stage if it differs.
    public func enter(_ stage: String) {
        lock.lock()
        defer { lock.unlock() }
        if current?.stage == stage { return }
        closeCurrent()
        Self.resetPeak()
        current = (stage, Date())
    }

    /// Closes the running stage and returns every stage's measurement in order.
    public func finish() -> [StageMeasurement] {
        lock.lock()
        defer { lock.unlock() }
        closeCurrent()
        return finished
    }

    private func closeCurrent() {
        guard let running = current else { return }
        finished.append(StageMeasurement(stage: running.stage, seconds: Date().timeIntervalSince(running.started),
                                         peakResidentBytes: Self.peakResidentBytes()))
        current = nil
    }

    /// VmHWM of this process in bytes.
    public static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }

    /// Resets VmHWM to the current resident size (Linux ≥ 4.0).
    public static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        handle.write(Data("5".utf8))
        try? handle.close()
    }
}
