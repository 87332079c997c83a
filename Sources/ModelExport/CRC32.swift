/// The IEEE CRC-32 of zip and PNG (reflected polynomial 0xEDB88320, initial value and final XOR
/// 0xFFFFFFFF).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The checksum of `bytes`; pass an earlier result as `previous` to continue over several pieces.
    public static func checksum(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
        var c = ~previous
        table.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
                for byte in b { c = t[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
            }
        }
        return ~c
    }
}
