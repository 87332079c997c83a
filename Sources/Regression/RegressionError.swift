/// Errors of the regression harness, each naming the file or dataset concerned.
public enum RegressionError: Error, CustomStringConvertible, Equatable {
    case manifest(String, String)
    case dataset(String, String)

    public var description: String {
        switch self {
        case let .manifest(file, problem): return "manifest \(file): \(problem)"
        case let .dataset(name, problem): return "dataset \(name): \(problem)"
        }
    }
}
