import Hummingbird
import Logging

/// One log line per request: client, method, path (query cut), status, bytes, milliseconds. The client is the one
/// a trusted proxy names (`trusted_proxies`: nginx's `X-Real-IP`), else the peer: behind nginx every peer is nginx.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let logger: Logger
    let addresses: ClientAddressResolver

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        logger.info(
            "\(addresses.loggedAddress(peer: context.remoteAddress, headers: request.headers) ?? "-") \(request.method.rawValue) \(PathText.describe(request.uri.path)) \(response.status.code) \(response.headers[.contentLength] ?? "-") \(Self.milliseconds(elapsed))ms"
        )
        return response
    }

    /// "12.3": tenths of a millisecond, rounded, without a number formatter (ICU's took 3 % of a busy server).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
