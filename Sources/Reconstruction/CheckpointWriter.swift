import Foundation

/// Appends values to a little-endian binary buffer: the encoding of checkpoint files.
/// Arrays of fixed-size numbers are copied in bulk, prefixed with their element count.
struct CheckpointWriter {
    private(set) var data = Data()

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    mutating func write(_ value: Int) { write(Int64(value)) }

    mutating func write(_ value: Double) { write(value.bitPattern) }

    mutating func write(_ value: Float) { write(value.bitPattern) }

    mutating func write(_ value: Bool) { write(UInt8(value ? 1 : 0)) }

    mutating func write(_ value: String) {
        let bytes = Array(value.utf8)
        write(bytes.count)
        data.append(contentsOf: bytes)
    }

    mutating func write(optional value: String?) {
        write(value != nil)
        if let value { write(value) }
    }

    mutating func write(optional value: Double?) {
        write(value != nil)
        if let value { write(value) }
    }

    /// Writes the count, then the elements' bytes as stored (every supported platform is little-endian).
    mutating func write<T: BitwiseCopyable>(array: [T]) {
        write(array.count)
        array.withUnsafeBytes { data.append(contentsOf: $0) }
    }
}
