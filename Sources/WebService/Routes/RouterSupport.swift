import Foundation
import Hummingbird
import StopCodes
import TransitModel
import TransitStore

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

    /// A read-only resource whose answer is blocking work (a database read, a search, a picture, a page): `handler`
    /// runs on `pool`'s threads, never on the threads that answer everything else, and is refused with 503 when
    /// the pool's queue is full.
    func blockingResource(
        _ path: RouterPath, on pool: BlockingWork,
        use handler: @escaping @Sendable (Request, Context) throws -> Response
    ) {
        resource(path) { request, context in try await pool.run { try handler(request, context) } }
    }
}

extension WebService {
    /// `sharedNow` with its rendering on the blocking pool: an answer shared within its minute is returned at once
    /// by the request's own task; only an answer to render waits for a thread of `blocking` (or is refused).
    func sharedNowOffPool(
        _ request: Request, key: String, database: RouteDatabase, at: (date: Date, given: Bool),
        hit: @escaping @Sendable () -> Void = {}, render: @escaping NowCache.Render
    ) async throws -> Response {
        do {
            return try sharedNow(request, key: key, database: database, at: at, hit: hit) { _ in throw NotShared() }
        } catch is NotShared {
            return try await blocking.run { [self] in
                try sharedNow(request, key: key, database: database, at: at, hit: hit, render: render)
            }
        }
    }
}

/// Thrown by the render `sharedNowOffPool` first tries: there is no shared answer, so one has to be rendered.
private struct NotShared: Error {}

/// A whole answer in memory: what the handlers make, what `NowCache` keeps, and what becomes the `Response`.
struct Answer: Sendable {
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields
    var body: ByteBuffer

    var response: Response { Response(status: status, headers: headers, body: .init(byteBuffer: body)) }
}

/// Answers with an `ETag` and, when `cacheSeconds` is set, a `Cache-Control` a proxy may honour.
enum Answers {
    static func json(_ text: String, cacheSeconds: Int?) -> Answer {
        body(ByteBuffer(string: text), contentType: "application/json; charset=utf-8", cacheSeconds: cacheSeconds)
    }

    static func html(_ text: String, cacheSeconds: Int?, status: HTTPResponse.Status = .ok) -> Answer {
        var answer = body(ByteBuffer(string: text), contentType: "text/html; charset=utf-8", cacheSeconds: cacheSeconds)
        answer.status = status
        return answer
    }

    static func body(_ buffer: ByteBuffer, contentType: String, cacheSeconds: Int?) -> Answer {
        var headers: HTTPFields = [.contentType: contentType]
        headers[.eTag] = ETag.of(buffer)
        if let cacheSeconds, cacheSeconds > 0 {
            headers[.cacheControl] = "public, max-age=\(cacheSeconds)"
        } else {
            headers[.cacheControl] = "no-cache"
        }
        headers[.vary] = "Accept-Language"
        return Answer(headers: headers, body: buffer)
    }
}

/// The same, as the `Response` a handler returns.
enum Responses {
    static func json(_ text: String, cacheSeconds: Int?) -> Response {
        Answers.json(text, cacheSeconds: cacheSeconds).response
    }

    static func html(_ text: String, cacheSeconds: Int?, status: HTTPResponse.Status = .ok) -> Response {
        Answers.html(text, cacheSeconds: cacheSeconds, status: status).response
    }

    static func body(_ text: String, contentType: String, cacheSeconds: Int?) -> Response {
        body(ByteBuffer(string: text), contentType: contentType, cacheSeconds: cacheSeconds)
    }

    static func body(_ buffer: ByteBuffer, contentType: String, cacheSeconds: Int?) -> Response {
        Answers.body(buffer, contentType: contentType, cacheSeconds: cacheSeconds).response
    }
}

/// Where a stop's phone page is: `/s/` and the value the labels print (its code, else its ID: the one URL rule).
enum StopLinks {
    static func page(_ stop: StopInfo) -> String {
        "/s/" + PercentEncoding.encode(StopKeyKind.labelValue(code: stop.code, id: stop.id))
    }
    static func api(_ stop: StopInfo) -> String { "/api/v1/stops/" + PercentEncoding.encode(stop.id) }
    /// The stop map without its legend: the page lists the routes and nearby stops as text.
    static func map(_ stop: StopInfo, language: Language) -> String {
        api(stop) + "/map.svg?lang=\(language.rawValue)&legend=none"
    }

    /// The line diagram of one direction of `route`, `stop` highlighted.
    static func diagram(route: RouteInfo, direction: Int?, stop: StopInfo, language: Language) -> String {
        "/api/v1/routes/\(PercentEncoding.encode(route.id))/diagram.svg?"
            + (direction.map { "direction=\($0)&" } ?? "")
            + "stop=\(PercentEncoding.encode(stop.id))&lang=\(language.rawValue)"
    }

    /// The journey map of option `option` (from 1) of `plan`, asked for with the plan's own stops and instant so
    /// that it draws the option the page lists; without its legend, which the page shows as text.
    /// The map of option `option` (from 1) of `plan`: the same query, so the same plan — its arrive-by moment and its
    /// step-free choice too.
    static func journeyMap(_ plan: JourneyPlan, option: Int, language: Language) -> String {
        let zone = TimeZone(identifier: plan.timeZone) ?? .current
        let minute = { (date: Date) in PercentEncoding.encode(String(LocalTime.iso8601(date, in: zone).prefix(16))) }
        return
            "/api/v1/plan/map.svg?from=\(PercentEncoding.encode(plan.from.id))&to=\(PercentEncoding.encode(plan.to.id))"
            + "&at=\(minute(plan.at))&max_transfers=\(plan.maxTransfers)&option=\(option)&lang=\(language.rawValue)"
            + (plan.arriveBy.map { "&arrive_by=\(minute($0))" } ?? "")
            + (plan.stepFree == true ? "&wheelchair=true" : "")
            + "&legend=none"
    }
}
