/// Bounds-checked reads of integers from a byte window `[base, end)` of an array, at offsets
/// relative to `base`, in the window's byte order. Every read returns nil when out of range.
struct ByteReader {
    let bytes: [UInt8]
    let base: Int
    let end: Int
    var littleEndian = true

    init(bytes: [UInt8], base: Int, end: Int) {
        self.bytes = bytes
        self.base = max(0, min(base, bytes.count))
        self.end = max(self.base, min(end, bytes.count))
    }

    /// Bytes in the window.
    var count: Int { end - base }

    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return bytes[base + offset]
    }

    func bytes(at offset: Int, count length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        return bytes[(base + offset)..<(base + offset + length)]
    }

    private func unsigned(at offset: Int, width: Int) -> UInt64? {
        guard let raw = bytes(at: offset, count: width) else { return nil }
        var value: UInt64 = 0
        if littleEndian {
            for byte in raw.reversed() { value = value << 8 | UInt64(byte) }
        } else {
            for byte in raw { value = value << 8 | UInt64(byte) }
        }
        return value
    }

    func uint16(at offset: Int) -> UInt16? { unsigned(at: offset, width: 2).map { UInt16(truncatingIfNeeded: $0) } }
    func uint32(at offset: Int) -> UInt32? { unsigned(at: offset, width: 4).map { UInt32(truncatingIfNeeded: $0) } }
    func uint64(at offset: Int) -> UInt64? { unsigned(at: offset, width: 8) }
}
