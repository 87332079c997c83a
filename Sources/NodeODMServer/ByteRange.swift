import Foundation

/// One byte range of an HTTP `Range` header (RFC 9110 §14), resolved against a file's size.
///
/// Downloads accept a single range (`bytes=FIRST-LAST`, `bytes=FIRST-`, `bytes=-SUFFIX`), which
/// is what PyODM's parallel download and resumable clients send. Anything else (other units,
/// several ranges, malformed values) is ignored and the whole file is sent, as the RFC allows.
public enum ByteRange: Equatable, Sendable {
    /// No usable range: send the whole file (200).
    case whole
    /// Send these bytes (206 with `Content-Range: bytes FIRST-LAST/SIZE`).
    case part(ClosedRange<Int>)
    /// A well-formed range that starts past the end of the file (416 with `Content-Range: bytes */SIZE`).
    case unsatisfiable

    public init(header: String?, size: Int) {
        guard let header, size >= 0 else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let firstText = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let lastText = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
            return Int(text)
        }
        if firstText.isEmpty {
            // A suffix: the last N bytes.
            guard let suffix = number(lastText) else { self = .whole; return }
            guard suffix > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, size - suffix)...(size - 1))
            return
        }
        guard let first = number(firstText) else { self = .whole; return }
        var last = size - 1
        if !lastText.isEmpty {
            guard let value = number(lastText) else { self = .whole; return }
            guard value >= first else { self = .whole; return }
            last = min(value, size - 1)
        }
        guard first < size else { self = .unsatisfiable; return }
        self = .part(first...last)
    }
}
