import Foundation
import ReconstructionCore

/// A fixed-size buffer that concurrent workers write at disjoint indices (each texel row belongs
/// to one worker), read back once they have all finished.
final class SharedBuffer<Element>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Element>

    init(count: Int, initial: Element) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: initial)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    subscript(index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    var count: Int { storage.count }
    var array: [Element] { Array(storage) }
}

extension SharedBuffer where Element == UInt8 {
    convenience init(count: Int) { self.init(count: count, initial: 0) }
}

extension SharedBuffer where Element == Float {
    convenience init(count: Int) { self.init(count: count, initial: 0) }
}

extension SharedBuffer where Element == Bool {
    convenience init(count: Int) { self.init(count: count, initial: false) }
}

/// The first error a worker met; the others stop at their next row.
final class ErrorSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?

    var hasError: Bool { lock.withLock { stored != nil } }
    var error: Error? { lock.withLock { stored } }
    func set(_ error: Error) { lock.withLock { if stored == nil { stored = error } } }
}

/// A lock-protected sum that workers add their per-row counts to.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ n: Int) { lock.withLock { total += n } }
    var value: Int { lock.withLock { total } }
}

/// Runs `body` for every texel row on `workers` threads (rows handed out one at a time, so
/// uneven rows balance); the first error stops the others at their next row and is rethrown.
func forEachRow(_ rows: Int, workers: Int, progress: @Sendable (Double) -> Void = { _ in },
                _ body: @Sendable (Int) throws -> Void) throws {
    let next = AtomicCounter()
    let errors = ErrorSlot()
    let every = rowsPerProgressReport(rows)
    DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
        while true {
            let y = next.next()
            if y >= rows || errors.hasError { break }
            if y % every == 0 { progress(Double(y) / Double(rows)) }
            do { try body(y) } catch { errors.set(error) }
        }
    }
    if let error = errors.error { throw error }
}

/// Rows between two progress reports of a row loop over `rows`: about fifty reports in all.
func rowsPerProgressReport(_ rows: Int) -> Int { max(1, rows / 50) }
