import Hummingbird
import Logging

/// One log line per request: client, method, path (query cut), status, bytes, milliseconds.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds =
            Double(elapsed.components.attoseconds / 1_000_000_000_000) / 1000
            + Double(elapsed.components.seconds) * 1000
        logger.info(
            "\(context.remoteAddress ?? "-") \(request.method.rawValue) \(PathText.describe(request.uri.path)) \(response.status.code) \(response.headers[.contentLength] ?? "-") \(milliseconds.formatted(.number.precision(.fractionLength(1))))ms"
        )
        return response
    }
}
