import Foundation

/// The clocks progress and time estimates are measured with.
public enum ProcessClock {
    /// Monotonic wall time, seconds.
    public static var wallSeconds: Double { ProcessInfo.processInfo.systemUptime }

    /// CPU time (user + system) this process has used on all its threads, seconds.
    public static var cpuSeconds: Double {
        #if os(Linux)
        let rusageSelf = RUSAGE_SELF.rawValue
        #else
        let rusageSelf = RUSAGE_SELF
        #endif
        var usage = rusage()
        guard getrusage(__rusage_who_t(rusageSelf), &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
