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

/// A log handler that keeps the metadata set on its logger itself and hands it to `base` with each message, as
/// the message's own metadata: what `base` prints is the same, but setting metadata costs nothing more than a
/// dictionary entry. The HTTP server sets a request ID on its logger for every request, and `StreamLogHandler`
/// formats its whole metadata again on every change (issue 41: 2.5 % of a `/health` answer).
struct DeferredMetadataLogHandler: LogHandler {
    var base: any LogHandler
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] ?? base[metadataKey: key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, given in given }
        }
        base.log(event: event)
    }
}

extension Logger {
    /// This logger with its metadata kept by `DeferredMetadataLogHandler`.
    func deferringMetadata() -> Logger {
        guard !(handler is DeferredMetadataLogHandler) else { return self }
        var logger = self
        logger.handler = DeferredMetadataLogHandler(base: handler)
        return logger
    }
}
