import Foundation
import Hummingbird

/// Refuses requests without the server's token (`?token=` as NodeODM clients send it, or
/// `Authorization: Bearer`), with 401 and a JSON error. No token configured: everything passes.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, !token.isEmpty else { return try await next(request, context) }
        var given = request.uri.queryParameters.get("token")
        if given == nil, let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            given = String(authorization.dropFirst(7))
        }
        guard let given else { throw NodeODMError.unauthorized("this node needs a token: add ?token=… to the URL") }
        guard Self.constantTimeEqual(given, token) else { throw NodeODMError.unauthorized("invalid token") }
        return try await next(request, context)
    }

    /// Compares without stopping at the first difference, so timing does not reveal the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}

/// Turns every error a route throws into a JSON error body: `NodeODMError`s keep their status,
/// Hummingbird's own (unknown route, 404) keep theirs, anything else is a 500 with its message.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as NodeODMError {
            throw error
        } catch let error as HTTPError {
            throw NodeODMError(error.status, error.body ?? (error.status == .notFound ? "no such endpoint: \(request.method) \(request.uri.path)" : error.status.reasonPhrase))
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            throw NodeODMError(.internalServerError, "\(error)")
        }
    }
}
