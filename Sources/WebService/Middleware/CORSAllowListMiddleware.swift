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
    /// `"<16 hex digits>"`: a 64-bit hash of the bytes taken eight at a time (each word multiplied in, then the high
    /// bits folded down, so every byte reaches every bit). Byte at a time, FNV-1a cost 3 % of an uncached stop
    /// view's CPU for its 17 KB. The same bytes give the same tag in every process, as replicas behind a cache need.
    static func of(_ buffer: ByteBuffer) -> String {
        buffer.withUnsafeReadableBytes { of($0) }
    }

    static func of(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBytes { of($0) }
    }

    private static func of(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        let words = bytes.count / 8
        for index in 0..<words {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
        var tail: UInt64 = 0
        for (shift, byte) in bytes[(words * 8)...].enumerated() { tail |= UInt64(byte) << (8 * shift) }
        mix(tail)
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
