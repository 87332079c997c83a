/// A capture folder or a file beside it that cannot be used, naming the path and the problem.
public struct CaptureFolderError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
