import Foundation

/// Why a frame stream cannot be replayed at all, naming the file (a bad single frame is not an
/// error: it is reported and skipped).
public struct CaptureReplayError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file or folder concerned.
    public var path: String
    /// What is wrong, in words.
    public var problem: String

    public init(path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
