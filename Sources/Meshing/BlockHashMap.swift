/// An open-addressing hash map from packed block coordinates to block indices.
///
/// Swift's `Dictionary` hashes with SipHash; block lookups sit in the innermost loops of
/// allocation and extraction, so this map uses a multiplicative hash and linear probing instead.
struct BlockHashMap: Sendable {
    /// Slot keys; `BlockKey.empty` marks a free slot.
    private var keys: [Int64]
    /// Slot values, meaningful where the key is not empty.
    private var values: [Int32]
    /// Number of stored keys.
    private(set) var count = 0
    /// log2 of the slot count.
    private var bits: Int

    /// A map with room for about `capacity` keys before it grows.
    init(capacity: Int = 64) {
        var bits = 4
        while (1 << bits) < 2 * max(capacity, 1) { bits += 1 }
        self.bits = bits
        keys = [Int64](repeating: BlockKey.empty, count: 1 << bits)
        values = [Int32](repeating: -1, count: 1 << bits)
    }

    @inline(__always)
    private static func slot(_ key: Int64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The value stored for `key`, or -1.
    @inline(__always)
    func find(_ key: Int64) -> Int32 {
        let mask = (1 << bits) - 1
        var i = Self.slot(key, bits: bits)
        return keys.withUnsafeBufferPointer { k in
            while true {
                let stored = k[i]
                if stored == key { return values[i] }
                if stored == BlockKey.empty { return -1 }
                i = (i + 1) & mask
            }
        }
    }

    /// Stores `value` for `key` unless the key is present; returns the stored value and whether it was inserted.
    @inline(__always)
    @discardableResult
    mutating func insert(_ key: Int64, value: Int32) -> (value: Int32, inserted: Bool) {
        if 2 * (count + 1) > keys.count { grow() }
        let mask = (1 << bits) - 1
        var i = Self.slot(key, bits: bits)
        while true {
            let stored = keys[i]
            if stored == key { return (values[i], false) }
            if stored == BlockKey.empty {
                keys[i] = key
                values[i] = value
                count += 1
                return (value, true)
            }
            i = (i + 1) & mask
        }
    }

    /// Every stored key, in slot order.
    var allKeys: [Int64] { keys.filter { $0 != BlockKey.empty } }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        bits += 1
        keys = [Int64](repeating: BlockKey.empty, count: 1 << bits)
        values = [Int32](repeating: -1, count: 1 << bits)
        count = 0
        for (k, v) in zip(oldKeys, oldValues) where k != BlockKey.empty { insert(k, value: v) }
    }
}

/// Packing of integer block coordinates (each within ±2²⁰) into one `Int64` key.
enum BlockKey {
    /// A value no packed coordinate takes.
    static let empty = Int64.min
    /// Largest magnitude of a packable coordinate.
    static let limit: Int32 = (1 << 20) - 1

    @inline(__always)
    static func isPackable(_ c: SIMD3<Int32>) -> Bool {
        abs(c.x) <= limit && abs(c.y) <= limit && abs(c.z) <= limit
    }

    @inline(__always)
    static func pack(_ c: SIMD3<Int32>) -> Int64 {
        let bias = Int64(1 << 20)
        return (Int64(c.x) + bias) | ((Int64(c.y) + bias) << 21) | ((Int64(c.z) + bias) << 42)
    }

    @inline(__always)
    static func unpack(_ key: Int64) -> SIMD3<Int32> {
        let bias = Int64(1 << 20), mask = Int64((1 << 21) - 1)
        return SIMD3(Int32(key & mask - bias), Int32((key >> 21) & mask - bias), Int32((key >> 42) & mask - bias))
    }
}
