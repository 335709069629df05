import Hummingbird

/// CORS for the JSON API, from the `[server] cors_origins` allow-list: a listed `Origin` (or any, with `*`) gets
/// `Access-Control-Allow-Origin` for itself and `Vary: Origin`; preflight `OPTIONS` answers 204 for a listed
/// origin and 403 for another. Requests without `Origin` (curl, server to server) pass untouched.
struct CORSAllowListMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let origins: Set<String>
    let anyOrigin: Bool

    init(origins: [String]) {
        self.origins = Set(origins.map { $0.lowercased() })
        self.anyOrigin = origins.contains("*")
    }

    func allows(_ origin: String) -> Bool { anyOrigin || origins.contains(origin.lowercased()) }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        if request.method == .options {
            guard allows(origin), request.headers[.accessControlRequestMethod] != nil else {
                throw Problem(
                    status: .forbidden, title: "Origin not allowed",
                    detail: "cross-origin requests from this origin are not in the server's cors_origins")
            }
            var headers: HTTPFields = [
                .accessControlAllowOrigin: anyOrigin ? "*" : origin,
                .accessControlAllowMethods: "GET, HEAD, OPTIONS",
                .accessControlAllowHeaders: "If-None-Match, Accept, Accept-Language",
                .accessControlMaxAge: "600",
                .vary: "Origin",
            ]
            headers[.contentLength] = "0"
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if allows(origin) {
            response.headers[.accessControlAllowOrigin] = anyOrigin ? "*" : origin
            response.headers[.accessControlExposeHeaders] = "ETag, Cache-Control"
        }
        response.headers[values: .vary].append("Origin")
        return response
    }
}

/// The `ETag` of an answer (`Answers.body` sets it; `CompressionMiddleware` answers `If-None-Match` with it).
enum ETag {
    /// `"<16 hex digits>"`: FNV-1a 64 of the bytes.
    static func of(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
