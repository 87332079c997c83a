import Foundation

/// Sequential reads of PLY body values, one per call, whatever the encoding.
protocol PLYValueSource {
    /// The next value, stored as `type`, converted to a double.
    mutating func next(_ type: PLYHeader.ScalarType) throws(PLYProblem) -> Double
    /// Bytes left to read (binary), or nil when the encoding has no fixed value size (ASCII).
    var remainingBytes: Int? { get }
    /// An upper bound on the number of values left (to size allocations from the data, not from
    /// the header's claims).
    var maxValuesLeft: Int { get }
}

/// Values of a binary body in either byte order; every read is bounds-checked.
struct PLYBinarySource: PLYValueSource {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool
    var offset: Int

    var remainingBytes: Int? { bytes.count - offset }
    var maxValuesLeft: Int { bytes.count - offset }

    @inline(__always)
    mutating func next(_ type: PLYHeader.ScalarType) throws(PLYProblem) -> Double {
        let size = type.size
        guard offset + size <= bytes.count else {
            throw .truncated("the data ends at byte \(bytes.count) in the middle of a value")
        }
        defer { offset += size }
        switch type {
        case .int8: return Double(Int8(bitPattern: bytes[offset]))
        case .uint8: return Double(bytes[offset])
        case .int16: return Double(Int16(bitPattern: load(UInt16.self)))
        case .uint16: return Double(load(UInt16.self))
        case .int32: return Double(Int32(bitPattern: load(UInt32.self)))
        case .uint32: return Double(load(UInt32.self))
        case .float32: return Double(Float(bitPattern: load(UInt32.self)))
        case .float64: return Double(bitPattern: load(UInt64.self))
        }
    }

    @inline(__always)
    private func load<T: FixedWidthInteger>(_: T.Type) -> T {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }
}

/// Values of an ASCII body: whitespace-separated numbers, read with `strtod`.
struct PLYASCIISource: PLYValueSource {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    /// A null-terminated copy of the current token (tokens longer than this are rejected).
    private var token = [CChar](repeating: 0, count: 80)

    init(bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var remainingBytes: Int? { nil }
    var maxValuesLeft: Int { (bytes.count - offset + 1) / 2 }  // a digit and a separator each

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    mutating func next(_ type: PLYHeader.ScalarType) throws(PLYProblem) -> Double {
        while offset < bytes.count && Self.isSpace(bytes[offset]) { offset += 1 }
        guard offset < bytes.count else { throw .truncated("the data ends before the last value") }
        let start = offset
        while offset < bytes.count && !Self.isSpace(bytes[offset]) { offset += 1 }
        let length = offset - start
        let bytes = self.bytes
        let text = { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<start + min(length, 40)]),
                            as: UTF8.self) }
        guard length < token.count else { throw .badValue("\"\(text())…\" is not a number") }
        let value: Double? = token.withUnsafeMutableBufferPointer { buffer in
            for k in 0..<length { buffer[k] = CChar(bitPattern: bytes[start + k]) }
            buffer[length] = 0
            var end: UnsafeMutablePointer<CChar>?
            let parsed = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + length ? parsed : nil
        }
        guard let value else { throw .badValue("\"\(text())\" is not a number") }
        if type.isInteger {
            guard value.rounded() == value, type.integerRange.contains(value) else {
                throw .badValue("\"\(text())\" is not a valid \(type) value")
            }
        }
        return value
    }
}
