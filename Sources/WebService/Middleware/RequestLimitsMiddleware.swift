import HTTPTypes
import Hummingbird
import KioskConfiguration

/// Limits a request before any route sees it: the URL length (414), the declared body size (413; the API reads
/// no body), malformed percent-encoding in the path or query (400) and paths that try to climb out (`..`, a
/// backslash or NUL: 404, as for anything else that does not exist; an encoded `/` inside a segment is not a
/// climb). Header size and the idle-connection timeout
/// are the HTTP server's (`WebService.application`).
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let settings: ServerSettings

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let target = request.head.path ?? ""
        if target.utf8.count > settings.maxURLBytes {
            throw Problem(
                status: .uriTooLong, title: "URI too long",
                detail: "the request target is \(target.utf8.count) bytes; at most \(settings.maxURLBytes) are accepted"
            )
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > settings.maxBodyBytes {
            throw Problem(
                status: .contentTooLarge, title: "Content too large",
                detail: "the body is \(length) bytes; at most \(settings.maxBodyBytes) are accepted")
        }
        let path = request.uri.path
        if request.uri.query == nil,
            !path.utf8.contains(where: { $0 == 0x25 || $0 == 0x2E || $0 == 0x5C || $0 == 0 })  // % . \ NUL
        {
            // Nothing encoded, no dot, no backslash: nothing below can refuse it (most requests; issue 41).
            return try await next(request, context)
        }
        guard let decodedPath = QueryParameters.percentDecode(path) else {
            throw Problem.badRequest("the path has a malformed percent-encoding (a % not followed by two hex digits)")
        }
        if request.uri.query != nil {
            _ = try QueryParameters(request)  // throws the 400 for a malformed query
        }
        // Segment by segment: a `%2F` inside a segment (a stop code `../../14` in a link) is part of that segment's
        // value, not a separator; a segment that is, or decodes to, `.` or `..` is a climb.
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map {
            QueryParameters.percentDecode($0) ?? ""
        }
        if segments.contains(where: { $0 == ".." || $0 == "." }) || decodedPath.contains("\\")
            || decodedPath.contains("\0")
        {
            throw Problem.notFound("nothing at \(PathText.describe(path))")
        }
        return try await next(request, context)
    }
}

/// Headers every answer carries: no inline script anywhere (CSP), no sniffing, no framing, no referrer leaks.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var response = try await next(request, context)
        Self.apply(to: &response.headers)
        return response
    }

    /// The headers themselves, for answers made outside this middleware (`ProblemMiddleware`'s error answers).
    static func apply(to headers: inout HTTPFields) {
        // Made once: a field made from a string checks its value every time (issue 41).
        headers[fields: .contentSecurityPolicy] = Fields.contentSecurityPolicy
        headers[fields: .xContentTypeOptions] = Fields.noSniff
        headers[fields: .referrerPolicy] = Fields.noReferrer
        if headers[.xFrameOptions] == nil { headers.append(Fields.deny) }
    }

    private enum Fields {
        static let contentSecurityPolicy = [
            HTTPField(name: .contentSecurityPolicy, value: SecurityHeadersMiddleware.contentSecurityPolicy)
        ]
        static let noSniff = [HTTPField(name: .xContentTypeOptions, value: "nosniff")]
        static let noReferrer = [HTTPField(name: .referrerPolicy, value: "no-referrer")]
        static let deny = HTTPField(name: .xFrameOptions, value: "DENY")
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
