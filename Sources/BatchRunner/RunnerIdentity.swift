import Foundation

/// Who a runner process is, and whether a recorded runner is still alive.
public struct RunnerIdentity: Sendable, Equatable {
    public var pid: Int
    public var host: String
    public var bootID: String
    public var processStart: Int

    /// This process.
    public static var current: RunnerIdentity {
        let pid = Int(getpid())
        return RunnerIdentity(pid: pid, host: hostName(), bootID: bootID(), processStart: processStart(pid: pid) ?? 0)
    }

    /// A new runner record for this process.
    public func record(workers: Int, now: Double) -> RunnerRecord {
        RunnerRecord(id: UUID().uuidString.lowercased(), pid: pid, host: host, bootID: bootID, processStart: processStart,
                     startedAt: now, heartbeatAt: now, workers: workers)
    }

    /// Whether the runner `record` still runs. On this host and boot the process table decides
    /// (its pid exists and started when the runner did); elsewhere, a heartbeat newer than
    /// `leaseTimeout` seconds.
    public func isAlive(_ record: RunnerRecord, now: Double, leaseTimeout: Double) -> Bool {
        guard record.host == host, record.bootID == bootID, !bootID.isEmpty else {
            return now - record.heartbeatAt < leaseTimeout
        }
        if record.pid == pid && record.processStart == processStart { return true }
        if let started = Self.processStart(pid: record.pid) {
            return record.processStart == 0 || started == record.processStart
        }
        return kill(pid_t(record.pid), 0) == 0 && record.processStart == 0
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func bootID() -> String {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Field 22 of `/proc/<pid>/stat` (start time in clock ticks after boot); nil when the
    /// process does not exist (or is a zombie) or there is no /proc.
    static func processStart(pid: Int) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3); the start time is field 22.
        guard fields.count > 19, fields[0] != "Z", let start = Int(fields[19]) else { return nil }
        return start
    }
}
