import CReconstruction

/// An error reported by the C++ kernels, with the kernel's message.
public struct ShimError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case invalidArgument, decodeFailed, estimationFailed, internalError
    }

    public var kind: Kind
    public var message: String

    public var description: String { message }

    /// Runs a shim call and throws if its status is not `RC_OK`.
    static func check(_ body: (UnsafeMutablePointer<rc_error>) -> Int32) throws {
        var error = rc_error()
        let status = body(&error)
        guard status != Int32(RC_OK) else { return }
        let message = withUnsafeBytes(of: &error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: Kind
        switch status {
        case Int32(RC_INVALID_ARGUMENT): kind = .invalidArgument
        case Int32(RC_DECODE_FAILED): kind = .decodeFailed
        case Int32(RC_ESTIMATION_FAILED): kind = .estimationFailed
        default: kind = .internalError
        }
        throw ShimError(kind: kind, message: message)
    }
}
