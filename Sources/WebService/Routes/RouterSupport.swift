import Foundation
import Hummingbird
import StopCodes
import TransitModel

extension Router where Context == WebRequestContext {
    /// A read-only resource: GET (and HEAD, which Hummingbird derives from GET); other methods get 405 with
    /// `Allow: GET, HEAD`.
    func resource(
        _ path: RouterPath, use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        get(path, use: handler)
        for method: HTTPRequest.Method in [.post, .put, .delete, .patch] {
            on(path, method: method) { request, _ -> Response in
                throw Problem(
                    status: .methodNotAllowed, title: "Method not allowed",
                    detail: "\(request.method.rawValue) is not allowed here; this resource answers GET and HEAD",
                    allow: "GET, HEAD")
            }
        }
    }
}

enum Responses {
    /// A JSON answer with an `ETag` and, when `cacheSeconds` is set, a `Cache-Control` a proxy may honour.
    static func json(_ text: String, cacheSeconds: Int?) -> Response {
        body(text, contentType: "application/json; charset=utf-8", cacheSeconds: cacheSeconds)
    }

    static func html(_ text: String, cacheSeconds: Int?, status: HTTPResponse.Status = .ok) -> Response {
        var response = body(text, contentType: "text/html; charset=utf-8", cacheSeconds: cacheSeconds)
        response.status = status
        return response
    }

    static func body(_ text: String, contentType: String, cacheSeconds: Int?) -> Response {
        let buffer = ByteBuffer(string: text)
        var headers: HTTPFields = [.contentType: contentType]
        headers[.eTag] = ETag.of(buffer.readableBytesView)
        if let cacheSeconds, cacheSeconds > 0 {
            headers[.cacheControl] = "public, max-age=\(cacheSeconds)"
        } else {
            headers[.cacheControl] = "no-cache"
        }
        headers[.vary] = "Accept-Language"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }
}

/// Where a stop's phone page is: `/s/` and the value the labels print (its code, else its ID: the one URL rule).
enum StopLinks {
    static func page(_ stop: StopInfo) -> String {
        "/s/" + PercentEncoding.encode(StopKeyKind.labelValue(code: stop.code, id: stop.id))
    }
    static func api(_ stop: StopInfo) -> String { "/api/v1/stops/" + PercentEncoding.encode(stop.id) }
}
