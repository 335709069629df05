import Foundation
import Hummingbird
import StopCodes
import StopPresentation
import TransitModel
import TransitStore

/// Browsing the network (issue 25): `/api/v1/agencies`, `/api/v1/routes?q=&agency=` (what `kiosk routes --json`
/// prints, byte for byte), `/api/v1/routes/{id}?date=` (what `kiosk route --json` prints, with the route's stop
/// patterns, its stops, its day types over the week and links), and `/api/v1/routes/{id}/map.svg`. Same caching as
/// the stop view (`ETag`, `Cache-Control`, 304); errors as problem+json: an unknown route is 404, a bad parameter 400.
struct RouteAPIRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.blockingResource("/api/v1/agencies", on: service.blocking) { _, _ in try agencies() }
        router.blockingResource("/api/v1/routes", on: service.blocking) { request, _ in try catalog(request) }
        router.blockingResource("/api/v1/routes/{id}", on: service.blocking) { request, context in
            try route(request, context)
        }
        router.blockingResource("/api/v1/routes/{id}/map.svg", on: service.blocking) { request, context in
            try map(request, context)
        }
    }

    struct AgenciesAnswer: Encodable {
        struct Agency: Encodable {
            var id: String
            var name: String
            var url: String?
            var phone: String?
            var routeCount: Int
            var routes: String
            /// With several feeds, the agency's feed (absent with one).
            var feedID: String?

            enum CodingKeys: String, CodingKey {
                case id, name, url, phone, routeCount = "route_count", routes, feedID = "feed_id"
            }
        }
        var agencies: [Agency]
    }

    /// `GET /api/v1/agencies`: the operators in agency.txt's order, with how many routes each runs.
    func agencies() throws -> Response {
        let database = service.databases.current()
        let catalog = try Self.answering { try database.routeCatalog() }
        let answer = AgenciesAnswer(
            agencies: catalog.agencies.map { entry in
                .init(
                    id: entry.agency.id, name: entry.agency.name, url: entry.agency.url, phone: entry.agency.phone,
                    routeCount: entry.routes.count,
                    routes: "/api/v1/routes?agency=" + PercentEncoding.encode(
                        entry.agency.id.isEmpty ? entry.agency.name : entry.agency.id),
                    feedID: entry.agency.feedID)
            })
        return Responses.json(
            try KioskJSON.encode(answer, timeZone: database.timeZone, keysDeclaredInSnakeCase: true) + "\n",
            cacheSeconds: service.config.server.cacheSeconds)
    }

    /// `GET /api/v1/routes?q=&agency=`: the catalog `kiosk routes --search q --agency a --json` prints.
    func catalog(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let search = try Self.text(query, "q")
        let agency = try Self.text(query, "agency")
        let database = service.databases.current()
        let catalog = try Self.answering { try database.routeCatalog(agency: agency, search: search) }
        return Responses.json(
            try RouteCatalogJSON.render(catalog) + "\n", cacheSeconds: service.config.server.cacheSeconds)
    }

    /// The route's detail as `kiosk route --json` prints it, and what the browse surfaces add.
    struct RouteAnswer: Encodable {
        struct Links: Encodable {
            var page: String
            var map: String
            var diagram: String
        }
        var detail: RouteDetail
        var patterns: [RoutePattern]
        var stops: [StopInfo]
        var week: RouteWeek
        var links: Links

        enum CodingKeys: String, CodingKey { case patterns, stops, week, links }

        func encode(to encoder: Encoder) throws {
            try detail.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(patterns, forKey: .patterns)
            try container.encode(stops, forKey: .stops)
            try container.encode(week, forKey: .week)
            try container.encode(links, forKey: .links)
        }
    }

    /// `GET /api/v1/routes/{id}?date=YYYY-MM-DD`: the route's directions (stops in order, variants, trips, first and
    /// last, headways per period) for the date (default: today), its stop patterns and stops, and its day types in
    /// the date's week.
    func route(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let routeValue = try Self.pathRoute(context)
        let database = service.databases.current()
        let (date, given) = try Self.date(query, database: database, now: service.now())
        let answer = try Self.answering(dateGiven: given) {
            let detail = try database.routeDetail(routeValue, date: date)
            let patterns = try database.routePatterns(detail.route.id)
            let week = try database.routeWeek(detail.route.id, around: date)
            return RouteAnswer(
                detail: detail, patterns: patterns.patterns, stops: patterns.stops, week: week,
                links: .init(
                    page: RouteLinks.page(detail.route), map: RouteLinks.api(detail.route) + "/map.svg",
                    diagram: RouteLinks.api(detail.route) + "/diagram.svg"))
        }
        return Responses.json(
            try KioskJSON.encode(
                answer, timeZone: TimeZone(identifier: answer.detail.timeZone) ?? database.timeZone,
                keysDeclaredInSnakeCase: true) + "\n",
            cacheSeconds: service.config.server.cacheSeconds)
    }

    /// `GET /api/v1/routes/{id}/map.svg?from=STOP&lang=&legend=full|none`: the route map, `from` highlighted.
    func map(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let routeValue = try Self.pathRoute(context)
        let legend = try MediaRoutes.legend(query)
        let database = service.databases.current()
        let svg = try Self.answering {
            let viewer = try query["from"].map { try database.resolveStop(.idOrCode(RouteDatabase.validateQuery($0))) }
            return routeMapSVG(
                for: try database.routeMap(routeValue, viewer: viewer), language: lang, legend: legend,
                conventions: service.config.passengerLocale)
        }
        return Responses.body(
            ByteBuffer(string: svg), contentType: "image/svg+xml; charset=utf-8",
            cacheSeconds: service.config.server.cacheSeconds)
    }

    // MARK: - Parameters and errors

    /// The route in the path, percent-decoded and checked (400 when malformed).
    static func pathRoute(_ context: WebRequestContext, parameter: String = "id") throws -> String {
        guard let value = QueryParameters.percentDecode(context.parameters.get(parameter) ?? "") else {
            throw Problem.badRequest("the route in the path has a malformed percent-encoding")
        }
        do {
            return try RouteDatabase.validateQuery(value)
        } catch let error as LookupError {
            throw Problem.from(error)
        }
    }

    /// An optional text parameter: nil when absent or blank; 400 when too long or holding control characters.
    static func text(_ query: QueryParameters, _ name: String) throws -> String? {
        guard let value = query[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        guard value.unicodeScalars.count <= 200,
            !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else {
            throw Problem.badRequest("\(name) must be at most 200 characters without control characters")
        }
        return value
    }

    /// `date=YYYY-MM-DD` (given: true), else today in the agency's time zone.
    static func date(
        _ query: QueryParameters, database: RouteDatabase, now: Date
    ) throws -> (date: ServiceDate, given: Bool) {
        guard let text = query["date"] else { return (ServiceDate.containing(now, in: database.timeZone), false) }
        guard let date = ServiceDate(parsing: text), text.count == 10 else {
            throw Problem.badRequest("date must be a date such as date=2026-11-25 (got '\(String(text.prefix(40)))')")
        }
        return (date, true)
    }

    /// Runs a route query, turning the store's errors into answers: an unknown or ambiguous route 404 (the detail
    /// names the routes it may have meant), an unknown agency or unusable search text 400, a date outside the
    /// feed 400 when asked for (503 when it is today's).
    static func answering<T>(dateGiven: Bool = true, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RouteQueryError {
            switch error {
            case .noSuchRoute, .ambiguousRoute:
                throw Problem(status: .notFound, title: "No such route", detail: error.description)
            case .noSuchAgency, .noSuchDirection:
                throw Problem.badRequest(error.description)
            }
        } catch let error as LookupError {
            throw Problem.from(error, atGiven: dateGiven)
        }
    }
}

/// Where a route's page and API answers are: by route_id, percent-encoded.
enum RouteLinks {
    static func page(_ route: RouteInfo) -> String { "/r/" + PercentEncoding.encode(route.id) }

    /// The route page as linked from a stop: the map highlights it.
    static func page(_ route: RouteInfo, from stop: StopInfo?, language: Language) -> String {
        page(route) + "?" + (stop.map { "from=\(PercentEncoding.encode($0.id))&" } ?? "") + "lang=\(language.rawValue)"
    }

    static func api(_ route: RouteInfo) -> String { "/api/v1/routes/" + PercentEncoding.encode(route.id) }
}
