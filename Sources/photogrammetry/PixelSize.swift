import ArgumentParser

/// `--size WxH` options: width and height in pixels, each at least 64 × 48 and at most `maximum`.
enum PixelSize {
    static func parse(_ text: String, maximum: Int) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 64, parts[1] >= 48, parts[0] <= maximum, parts[1] <= maximum else {
            throw ValidationError("--size must be WxH with 64 ≤ W, 48 ≤ H, both ≤ \(maximum) (got \"\(text)\")")
        }
        return (parts[0], parts[1])
    }
}
