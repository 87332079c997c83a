import Foundation

/// Runs `body` for each index on up to `workers` threads and returns the results in order.
public func parallelMap<T: Sendable>(_ count: Int, workers: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let slots = ResultSlots<T>(count)
    let counter = AtomicCounter()
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
        while true {
            let i = counter.next()
            if i >= count { break }
            let value = body(i)
            slots.lock.lock()
            slots.values[i] = value
            slots.lock.unlock()
        }
    }
    return slots.values.map { $0! }
}

/// A lock-protected incrementing counter.
public final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    public init() {}
    public func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

/// Results written by concurrent workers, one slot each.
public final class ResultSlots<T>: @unchecked Sendable {
    public var values: [T?]
    public let lock = NSLock()
    public init(_ n: Int) { values = Array(repeating: nil, count: n) }
}
