import Foundation

/// A problem writing or reading an exported pose or model file.
///
/// The description names the file involved and says what went wrong.
public struct ModelExportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file or directory concerned.
    public var path: String
    /// What went wrong, in words.
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    init(file url: URL, _ problem: String) {
        self.init(path: url.path, problem: problem)
    }

    public var description: String { "\(path): \(problem)" }
}
