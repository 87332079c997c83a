/// A UTF-8 byte buffer for large text files (USDA, OBJ) with locale-independent numbers.
///
/// Floats use Swift's shortest round-trip form (`Float.description`: `0.13696168`, `1e-05`), which
/// reads back to the same Float in USD, OBJ readers and `Float(_:)`; a trailing `.0` is dropped and
/// −0 is written as `0`. Appending is amortised O(1), so a 250k-triangle mesh costs linear time.
struct NumberText {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// A non-negative or negative integer in decimal.
    mutating func append(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(UInt64(value.magnitude))
        } else {
            append(UInt64(value))
        }
    }

    mutating func append(_ value: UInt32) {
        append(UInt64(value))
    }

    mutating func append(_ value: UInt64) {
        let start = bytes.count
        var v = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        bytes[start...].reverse()
    }

    /// A finite Float, shortest round-trip text (callers reject non-finite values beforehand).
    mutating func append(_ value: Float) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let text = value.description
        bytes.append(contentsOf: text.utf8.dropLast(text.hasSuffix(".0") ? 2 : 0))
    }

    /// A finite Double, shortest round-trip text.
    mutating func append(_ value: Double) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let text = value.description
        bytes.append(contentsOf: text.utf8.dropLast(text.hasSuffix(".0") ? 2 : 0))
    }

    /// `(x, y, z)`.
    mutating func appendTuple(_ v: SIMD3<Float>) {
        bytes.append(UInt8(ascii: "("))
        append(v.x)
        append(", ")
        append(v.y)
        append(", ")
        append(v.z)
        bytes.append(UInt8(ascii: ")"))
    }

    /// `(x, y)`.
    mutating func appendTuple(_ v: SIMD2<Float>) {
        bytes.append(UInt8(ascii: "("))
        append(v.x)
        append(", ")
        append(v.y)
        bytes.append(UInt8(ascii: ")"))
    }
}
