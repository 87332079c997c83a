import Foundation

/// A runner's shared mutable state behind a lock: the running attempts' tasks, which of them were
/// cancelled by `jobs cancel`, throttling of progress writes, and whether the runner is stopping.
final class RunnerState: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [String: Task<Void, any Error>] = [:]
    private var cancelled: Set<String> = []
    private var lastProgressWrite: [String: Double] = [:]
    private var lastProgress: [String: JobProgress] = [:]
    private var stopping = false
    private var finished = false

    func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var isStopping: Bool { withLock { stopping } }
    var isFinished: Bool { withLock { finished } }
    var runningCount: Int { withLock { tasks.count } }

    func markFinished() { withLock { finished = true } }

    /// Stops claiming and cancels every running attempt (they go back to the queue).
    func stop() {
        let running = withLock { () -> [Task<Void, any Error>] in
            stopping = true
            return Array(tasks.values)
        }
        running.forEach { $0.cancel() }
    }

    func started(_ id: String, _ task: Task<Void, any Error>) {
        let cancelNow = withLock { () -> Bool in
            tasks[id] = task
            return stopping
        }
        if cancelNow { task.cancel() }
    }

    func ended(_ id: String) {
        withLock {
            tasks[id] = nil
            cancelled.remove(id)
            lastProgressWrite[id] = nil
            lastProgress[id] = nil
        }
    }

    /// Cancels job `id`'s attempt at a user's request.
    func cancel(_ id: String) {
        let task = withLock { () -> Task<Void, any Error>? in
            guard let task = tasks[id], !cancelled.contains(id) else { return nil }
            cancelled.insert(id)
            return task
        }
        task?.cancel()
    }

    func wasCancelledByUser(_ id: String) -> Bool { withLock { cancelled.contains(id) } }

    /// True (and remembers `now`) when the job's progress was last written at least `interval` ago.
    func shouldWriteProgress(_ id: String, now: Double, interval: Double) -> Bool {
        withLock {
            if let last = lastProgressWrite[id], now - last < interval { return false }
            lastProgressWrite[id] = now
            return true
        }
    }

    /// Remembers the job's latest progress, written or not (the ledger's is throttled).
    func progressed(_ id: String, _ progress: JobProgress) { withLock { lastProgress[id] = progress } }

    /// The job's latest progress: where an attempt that fails stopped.
    func latestProgress(of id: String) -> JobProgress? { withLock { lastProgress[id] } }
}
