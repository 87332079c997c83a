import Foundation
import Hummingbird

/// An API error: an HTTP status and a message, sent as `{"error": message}` (the shape NodeODM
/// clients look for). Refusals use 401 (token) and 403 (names, limits, state) because PyODM
/// reads the JSON message of those statuses and raises it as `NodeResponseError`.
public struct NodeODMError: HTTPResponseError, CustomStringConvertible, Equatable {
    public var status: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
    /// The status as a number (401, 403, 404, …).
    public var statusCode: Int { status.code }

    public static func unauthorized(_ message: String) -> NodeODMError { NodeODMError(.unauthorized, message) }
    public static func refused(_ message: String) -> NodeODMError { NodeODMError(.forbidden, message) }
    public static func notFound(_ message: String) -> NodeODMError { NodeODMError(.notFound, message) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONReply.response(body, status: status)
    }

    /// `{"error": message}`, with `"noRetry": true` for a refusal (4xx): the same request would be
    /// refused again, and PyODM's uploads otherwise retry it five times with growing pauses.
    public var body: [String: Any] {
        var body: [String: Any] = ["error": message]
        if (400..<500).contains(status.code) { body["noRetry"] = true }
        return body
    }
}

/// JSON responses.
enum JSONReply {
    static func response(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
