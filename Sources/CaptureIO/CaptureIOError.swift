import Foundation

/// A problem reading a capture input (image folder, intrinsics, EXIF, ground truth).
///
/// The description names the file or directory involved and says what is wrong with it.
public struct CaptureIOError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file or directory concerned, or nil for a value given on the command line.
    public var path: String?
    /// What is wrong, in words.
    public var problem: String

    public init(path: String?, problem: String) {
        self.path = path
        self.problem = problem
    }

    init(file url: URL, _ problem: String) {
        self.init(path: url.path, problem: problem)
    }

    public var description: String {
        if let path { return "\(path): \(problem)" }
        return problem
    }
}
