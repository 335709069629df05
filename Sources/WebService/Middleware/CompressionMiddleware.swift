import HTTPTypes
import Hummingbird
import NIOCore

/// The answer's representation: gzip when the client accepts it, and `304 Not Modified` for the variant the
/// client holds.
///
/// - A body of a compressible type (`Gzip.compressible`: pages, JSON, problem+json, SVG, CSS, scripts, plain
///   text) of at least `Gzip.minimumBytes` is sent gzip to a client whose `Accept-Encoding` allows it
///   (`Gzip.accepted`), with `Content-Encoding: gzip` and the identity `ETag` suffixed `-gzip`: the two variants
///   never share a tag, so a cache (nginx, a browser) revalidating one never gets the other. Every compressible
///   answer carries `Vary: Accept-Encoding`, compressed or not. A handler may answer gzip bytes itself (the shared
///   "now" answers are kept compressed: `NowCache`); they get the same tag and `Vary` here.
/// - Streams (`/kiosk/events`) and audio are passed through untouched: their types are not compressible and their
///   bodies are never read here.
/// - `If-None-Match` is answered here, after the variant is known (the handlers below never see it): a GET or HEAD
///   whose `200` answer's final tag (either variant) is named, or `*`, gets `304` with the answer's headers but
///   none describing a body. The tag is a hash of the identity bytes (`ETag.of`), so identical answers
///   get identical tags on every instance behind a load balancer.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let conditions = request.headers[values: .ifNoneMatch]
        var inner = request
        if !conditions.isEmpty {
            var head = request.head
            head.headerFields[values: .ifNoneMatch] = []
            inner = Request(head: head, body: request.body)
        }
        var response = try await next(inner, context)
        let alreadyGzip = response.headers[.contentEncoding]?.lowercased() == "gzip"
        guard alreadyGzip || Gzip.compressible(contentType: response.headers[.contentType]) else {
            return Self.conditional(response, request: request, conditions: conditions)
        }
        Gzip.addVary(to: &response.headers)
        if alreadyGzip {
            if let tag = response.headers[.eTag] { response.headers[.eTag] = Gzip.etag(tag) }
            return Self.conditional(response, request: request, conditions: conditions)
        }
        guard Gzip.accepted(request), Self.hasBody(response.status), let length = response.body.contentLength,
            length >= Gzip.minimumBytes, length <= Gzip.maximumBytes
        else {
            return Self.conditional(response, request: request, conditions: conditions)
        }
        if let tag = response.headers[.eTag] {
            response.headers[.eTag] = Gzip.etag(tag)
            // The client holds this variant already: no need to compress it again.
            if let notModified = Self.notModified(response, request: request, conditions: conditions) {
                return notModified
            }
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        response.headers[.contentEncoding] = "gzip"
        response.body = ResponseBody(byteBuffer: Gzip.compress(collector.buffer))
        return response
    }

    /// Statuses whose answers have bodies to compress (not 1xx, 204, 304).
    static func hasBody(_ status: HTTPResponse.Status) -> Bool {
        status.code >= 200 && status != .noContent && status != .notModified
    }

    static func conditional(_ response: Response, request: Request, conditions: [String]) -> Response {
        notModified(response, request: request, conditions: conditions) ?? response
    }

    /// `304` for a GET or HEAD whose `200` answer's `ETag` is among `conditions` (weakly compared, as RFC 9110
    /// says for `If-None-Match`), else nil.
    static func notModified(_ response: Response, request: Request, conditions: [String]) -> Response? {
        guard !conditions.isEmpty, request.method == .get || request.method == .head, response.status == .ok,
            let tag = response.headers[.eTag]
        else { return nil }
        let bare = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        let matches = conditions.contains { value in
            value.split(separator: ",").contains {
                let candidate = $0.trimmingSpaces()
                return candidate == "*" || candidate == bare || candidate == "W/" + bare
            }
        }
        guard matches else { return nil }
        var headers = response.headers
        for name: HTTPField.Name in [.contentType, .contentLength, .contentEncoding] { headers[name] = nil }
        return Response(status: .notModified, headers: headers)
    }
}

/// Collects a whole body that is already in memory (a `ResponseBody(byteBuffer:)`).
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
