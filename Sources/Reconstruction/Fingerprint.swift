import Foundation

/// A 128-bit digest of the inputs and options a stage result depends on, used to key checkpoints:
/// two FNV-1a 64 hashes with different offset bases. It detects changed inputs; it is not a
/// cryptographic hash.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x6c62_272e_07bb_0142
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public init() {}

    /// A fingerprint of `parts`, in order.
    public init(_ parts: String...) {
        for part in parts { combine(part) }
    }

    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var a = self.a, b = self.b
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* Self.prime
            b = (b ^ UInt64(byte)) &* Self.prime
        }
        self.a = a
        self.b = b ^ UInt64(bytes.count)
    }

    /// Mixes in a string and a separator, so ("ab", "c") and ("a", "bc") differ.
    public mutating func combine(_ text: String) {
        var copy = text + "\u{1F}"
        copy.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ other: Fingerprint) { combine(other.description) }

    public mutating func combine<T: BitwiseCopyable>(array: [T]) {
        array.withUnsafeBytes { combine(bytes: $0) }
    }

    /// 32 hexadecimal digits.
    public var description: String {
        func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return hex(a) + hex(b)
    }
}
