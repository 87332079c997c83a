import Foundation

/// The runner's memory budget: a job starts only when its estimated peak fits beside those of
/// the jobs already running, or when nothing runs (a job larger than the whole budget then runs
/// alone rather than never).
final class MemoryGate: @unchecked Sendable {
    let budgetBytes: Int
    private let lock = NSLock()
    private var reserved: [String: Int] = [:]

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    /// Reserves `bytes` for job `id`; false when it does not fit now (or `id` is already reserved).
    func reserve(_ id: String, bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard reserved[id] == nil else { return false }
        let used = reserved.values.reduce(0, +)
        guard reserved.isEmpty || used + bytes <= budgetBytes else { return false }
        reserved[id] = bytes
        return true
    }

    func release(_ id: String) {
        lock.lock()
        reserved[id] = nil
        lock.unlock()
    }

    var reservedBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return reserved.values.reduce(0, +)
    }
}
