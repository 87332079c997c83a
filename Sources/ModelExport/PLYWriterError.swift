/// A mesh that cannot be written as PLY.
public enum PLYWriterError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Triangle `triangle` refers to a vertex index ≥ `vertexCount`.
    case vertexIndexOutOfRange(triangle: Int, vertexCount: Int)

    public var description: String {
        switch self {
        case .vertexIndexOutOfRange(let triangle, let vertexCount):
            return "triangle \(triangle) refers to a vertex the mesh does not have (it has \(vertexCount) vertices)"
        }
    }
}
