/// An archive `StoredZipWriter` cannot build.
public enum StoredZipWriterError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Empty, absolute, a directory (`…/`), with `.`/`..`/empty components, or longer than 65,535 bytes.
    case badName(String)
    case duplicateName(String)
    case tooManyEntries(Int)
    /// Over 4 GiB: would need ZIP64, which USD's reader does not support.
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .badName(let name): return "\"\(name)\" cannot name a file in a zip archive"
        case .duplicateName(let name): return "two entries are named \"\(name)\""
        case .tooManyEntries(let count): return "\(count) entries are more than a zip archive without ZIP64 holds (65,535)"
        case .tooLarge(let bytes): return "the archive would be \(bytes) bytes, more than 4 GiB"
        }
    }
}
