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

/// A permutation of `0..<count` that visits the range evenly, for work whose cost drifts along
/// the range (so a prefix's rate predicts the rest): index `k` goes to `k * step mod count`, where
/// `step` is the first integer from `count / φ` (φ the golden ratio) that is coprime with `count`.
public func spreadOrder(_ count: Int) -> [Int] {
    guard count > 2 else { return Array(0..<max(0, count)) }
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    var step = max(1, Int((Double(count) * 0.6180339887498949).rounded()))
    while gcd(step, count) != 1 { step += 1 }
    return (0..<count).map { $0 * step % count }
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
