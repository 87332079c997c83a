import Foundation

/// Reads what `CheckpointWriter` wrote, checking every length against the bytes left, so a
/// truncated or corrupt checkpoint is an error and never a crash.
struct CheckpointReader {
    struct Corrupt: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else {
            throw Corrupt(description: "checkpoint truncated: needed \(count) bytes at offset \(offset) of \(bytes.count)")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let slice = try take(MemoryLayout<T>.size)
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: slice) }
        return T(littleEndian: value)
    }

    mutating func readInt() throws -> Int {
        let value = try read(Int64.self)
        guard let int = Int(exactly: value) else { throw Corrupt(description: "integer out of range") }
        return int
    }

    /// A count of elements, each at least `stride` bytes, that must fit in the bytes left.
    mutating func readCount(stride: Int = 1) throws -> Int {
        let count = try readInt()
        guard count >= 0, count <= (bytes.count - offset) / max(1, stride) else {
            throw Corrupt(description: "checkpoint count \(count) exceeds the data left")
        }
        return count
    }

    mutating func readDouble() throws -> Double { Double(bitPattern: try read(UInt64.self)) }

    mutating func readFloat() throws -> Float { Float(bitPattern: try read(UInt32.self)) }

    mutating func readBool() throws -> Bool { try read(UInt8.self) != 0 }

    mutating func readString() throws -> String {
        let count = try readCount()
        return String(decoding: try take(count), as: UTF8.self)
    }

    mutating func readOptionalString() throws -> String? { try readBool() ? try readString() : nil }

    mutating func readOptionalDouble() throws -> Double? { try readBool() ? try readDouble() : nil }

    mutating func readArray<T: BitwiseCopyable>(of _: T.Type) throws -> [T] {
        let size = MemoryLayout<T>.stride
        let count = try readCount(stride: size)
        let slice = try take(count * size)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            slice.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            }
            initialized = count
        }
    }
}
