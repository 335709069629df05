import Foundation
import Hummingbird
import KioskConfiguration
import Logging

/// Turns every error into an answer: `Problem`s and Hummingbird's own errors (404 for an unknown path) become
/// `application/problem+json` under `/api/`, `/health` and `/metrics`, and a page in the reader's language
/// elsewhere. Anything unexpected is a 500 that names no internals; the log has the error. Every resource answers
/// GET and HEAD only, so a request with another method that no route takes (`TRACE`, `CONNECT`, `OPTIONS` without
/// CORS, an unknown method) is a 405 with `Allow`, not a 404. Error answers carry the security headers (they are
/// made outside `SecurityHeadersMiddleware`) and a 503 carries `Retry-After`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let pages: PageRenderer
    let config: KioskConfig

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return respond(problem, to: request)
        } catch let error as HTTPError {
            let problem: Problem
            switch error.status {
            case .notFound where request.method != .get && request.method != .head:
                problem = Problem(
                    status: .methodNotAllowed, title: "Method not allowed",
                    detail:
                        "\(String(request.method.rawValue.prefix(20))) is not allowed here; this server answers GET and HEAD",
                    allow: "GET, HEAD")
            case .notFound:
                problem = .notFound("nothing at \(PathText.describe(request.uri.path))")
            default:
                problem = Problem(
                    status: error.status, title: error.status.reasonPhrase,
                    detail: error.body ?? error.status.reasonPhrase)
            }
            return respond(problem, to: request)
        } catch {
            context.logger.error("request failed: \(error)")
            return respond(
                Problem(
                    status: .internalServerError, title: "Internal error",
                    detail: "the server could not answer; the error is in its log"), to: request)
        }
    }

    func respond(_ problem: Problem, to request: Request) -> Response {
        var headers: HTTPFields = [:]
        if let allow = problem.allow { headers[.allow] = allow }
        if problem.status == .serviceUnavailable {
            headers[.retryAfter] = String(problem.retryAfter ?? Problem.defaultRetryAfter)
        }
        headers[.cacheControl] = "no-store"
        SecurityHeadersMiddleware.apply(to: &headers)
        if Self.isMachinePath(request.uri.path) {
            headers[.contentType] = "application/problem+json"
            return Response(
                status: problem.status, headers: headers,
                body: .init(byteBuffer: problem.json(instance: String(request.uri.path.prefix(200)))))
        }
        headers[.contentType] = "text/html; charset=utf-8"
        let language = LanguageChoice.pick(request: request, config: config)
        return Response(
            status: problem.status, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: pages.errorPage(problem, language: language))))
    }

    static func isMachinePath(_ path: String) -> Bool {
        path.hasPrefix("/api/") || path == "/api" || path == "/health" || path == "/metrics"
    }
}

/// A request path made safe to quote in a message.
enum PathText {
    static func describe(_ path: String) -> String {
        // Nearly every path is short printable ASCII, quoted as it is (without looking at it character by character).
        let utf8 = path.utf8
        if utf8.count <= 80, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "'" + path + "'" }
        let clipped = path.count > 80 ? String(path.prefix(80)) + "…" : path
        return "'" + String(clipped.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
            + "'"
    }
}
