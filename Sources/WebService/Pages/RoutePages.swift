import Foundation
import Hummingbird
import StopCodes
import StopPresentation
import TransitModel
import TransitStore

/// The browse pages (issue 25), server-rendered like the stop page: `/routes[?q=&agency=]`, the operators and their
/// routes with a search box (accent-insensitive, a plain GET form: no JavaScript), and `/r/{route}[?from=&date=]`,
/// a route's page: its map (the viewer's stop highlighted when `from` names it), its stops per direction linking to
/// their `/s/…` pages, its service and headways on the date, and when it runs over the week by day type. Both come
/// from the same store queries and values as `kiosk routes` / `kiosk route` and the API.
struct RoutePages {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.blockingResource("/routes", on: service.blocking) { request, _ in try routesPage(request) }
        router.blockingResource("/r/{route}", on: service.blocking) { request, context in
            try routePage(request, context)
        }
    }

    func feedTag(_ database: RouteDatabase) -> String { String(database.feedHash.prefix(12)) }

    // MARK: - /routes

    struct RoutesPage {
        struct Route {
            var href: String
            var colourClass: String
            var label: String
            var longName: String?
            var mode: String
        }
        struct Agency {
            var name: String
            var href: String
            var url: String?
            var websiteLabel: String
            var phone: String?
            var count: String
            var routes: [Route]
        }
        var page: PageRenderer.Frame
        var heading: String
        var searchHint: String
        var searchLabel: String
        var query: String
        var agency: String?
        var filtered: Bool
        var allRoutesLabel: String
        var allRoutesHref: String
        var count: String
        var agencies: [Agency]
        var problem: String?
    }

    func routesPage(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        let agencyText = (query["agency"] ?? "").trimmingCharacters(in: .whitespaces)
        var catalog = RouteCatalog(agencyFilter: nil, search: nil, agencies: [])
        var problem: String?
        var status: HTTPResponse.Status = .ok
        do {
            let search = try RouteAPIRoutes.text(query, "q")
            let agency = try RouteAPIRoutes.text(query, "agency")
            catalog = try database.routeCatalog(agency: agency, search: search)
            if catalog.routeCount == 0, let search {
                problem = BrowseMessage.noRouteMatches(FeedText.shown(search, limit: 80)).text(lang)
            }
        } catch let error as RouteQueryError {
            problem = FeedText.shown(error.description, limit: 400)
            status = .badRequest
        } catch let error as LookupError {
            // Search text without a letter or digit: nothing to look for; the page says so with the full list.
            if case .invalidQuery = error {
                problem = BrowseMessage.noRouteMatches(FeedText.shown(text, limit: 80)).text(lang)
                catalog = try database.routeCatalog()
            } else {
                throw Problem.from(error)
            }
        } catch let error as Problem {
            problem = error.detail
            status = error.status
        }
        let filtered = !text.isEmpty || !agencyText.isEmpty
        let model = RoutesPage(
            page: PageRenderer.Frame(
                language: lang, title: BrowseMessage.routesTitle.text(lang), path: "/routes",
                query: [("q", text), ("agency", agencyText)].filter { !$0.1.isEmpty }, feedTag: feedTag(database),
                search: text),
            heading: BrowseMessage.routesTitle.text(lang), searchHint: BrowseMessage.routesSearchHint.text(lang),
            searchLabel: BrowseMessage.routesSearchLabel.text(lang), query: text,
            agency: agencyText.isEmpty ? nil : agencyText, filtered: filtered,
            allRoutesLabel: BrowseMessage.allRoutes.text(lang), allRoutesHref: "/routes?lang=\(lang.rawValue)",
            count: BrowseMessage.routeCount(catalog.routeCount).text(lang),
            agencies: catalog.agencies.map { entry in
                RoutesPage.Agency(
                    name: FeedText.shown(entry.agency.name),
                    href: "/routes?agency="
                        + PageRenderer.Frame.encode(entry.agency.id.isEmpty ? entry.agency.name : entry.agency.id)
                        + "&lang=\(lang.rawValue)",
                    url: entry.agency.url.flatMap(Self.webLink), websiteLabel: BrowseMessage.website.text(lang),
                    phone: entry.agency.phone.map { BrowseMessage.phone(FeedText.shown($0, limit: 40)).text(lang) },
                    count: BrowseMessage.routeCount(entry.routes.count).text(lang),
                    routes: entry.routes.map { route in
                        RoutesPage.Route(
                            href: RouteLinks.page(route, from: nil, language: lang),
                            colourClass: RouteColours.className(route), label: FeedText.shown(route.label, limit: 40),
                            longName: route.shortName == nil ? nil : route.longName.map { FeedText.shown($0) },
                            mode: route.mode.name(lang))
                    })
            },
            problem: problem)
        return Responses.html(
            service.pages.render(model, "routes"),
            cacheSeconds: status == .ok ? service.config.server.cacheSeconds : nil, status: status)
    }

    /// An agency's web site as a link only when it is an http(s) URL (a feed could hold `javascript:`).
    static func webLink(_ url: String) -> String? {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), trimmed.count <= 300,
            !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        return trimmed
    }

    // MARK: - /r/{route}

    struct RoutePage {
        struct Stop {
            var href: String
            var name: String
            var code: String?
            var here: String?
        }
        struct Direction {
            var heading: String
            var stops: [Stop]
            var variantsHeading: String
            var variants: [String]
            var has_variants: Bool
        }
        struct Headway {
            var period: String
            var span: String
            var how: String
        }
        struct Service {
            var heading: String
            var summary: String
            var headways: [Headway]
            var has_headways: Bool
        }
        struct DayType {
            var label: String
            var dates: String
            var lines: [String]
        }
        var page: PageRenderer.Frame
        var label: String
        var longName: String?
        var colourClass: String
        var mode: String
        var operatorHeading: String
        var agencyName: String
        var agencyHref: String
        var agencyURL: String?
        var websiteLabel: String
        var phone: String?
        var notice: String?
        var viewer: String?
        var map: PageRoutes.StopPage.Picture?
        var stopsHeading: String
        var directions: [Direction]
        var serviceHeading: String
        var services: [Service]
        var weekHeading: String
        var dayTypes: [DayType]
        var allRoutesLabel: String
        var allRoutesHref: String
    }

    struct RouteNotFoundPage {
        struct Candidate {
            var href: String
            var colourClass: String
            var label: String
            var longName: String?
        }
        var page: PageRenderer.Frame
        var heading: String
        var detail: String
        var didYouMean: String
        var candidates: [Candidate]
        var has_candidates: Bool
        var searchHint: String
        var searchLabel: String
        var query: String
    }

    func routePage(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let routeValue = try RouteAPIRoutes.pathRoute(context, parameter: "route")
        let database = service.databases.current()
        var (date, _) = try RouteAPIRoutes.date(query, database: database, now: service.now())
        var notice: String?
        if let start = database.serviceStart, let end = database.serviceEnd, date < start || date > end {
            // The route is still worth showing: its stops and map do not depend on the day. The service shown is
            // the nearest day the timetable covers, and the page says so.
            notice =
                date < start
                ? Message.notYetInService(start: start.description, end: end.description).text(lang)
                : Message.outOfService(start: start.description, end: end.description).text(lang)
            date = date < start ? start : end
        }
        let viewer = try query["from"].flatMap { value -> ResolvedStop? in
            do {
                return try database.resolveStop(.idOrCode(RouteDatabase.validateQuery(value)))
            } catch let error as LookupError {
                if case .noSuchStop = error { return nil }
                throw Problem.from(error)
            }
        }
        let detail: RouteDetail
        let week: RouteWeek
        do {
            detail = try database.routeDetail(routeValue, date: date)
            week = try database.routeWeek(detail.route.id, around: date)
        } catch let error as RouteQueryError {
            return try notFoundPage(error, query: routeValue, language: lang, database: database)
        } catch let error as LookupError {
            throw Problem.from(error)
        }
        let model = Self.routeModel(
            detail, week: week, viewer: viewer, notice: notice, language: lang,
            frame: PageRenderer.Frame(
                language: lang, title: BrowseMessage.routeLink(detail.route.label).text(lang),
                path: request.uri.path,
                query: [("from", query["from"] ?? ""), ("date", query["date"] ?? "")].filter { !$0.1.isEmpty },
                feedTag: feedTag(database)))
        return Responses.html(service.pages.render(model, "route"), cacheSeconds: service.config.server.cacheSeconds)
    }

    func notFoundPage(
        _ error: RouteQueryError, query: String, language lang: Language, database: RouteDatabase
    ) throws -> Response {
        var candidates: [RouteInfo] = []
        var status: HTTPResponse.Status = .notFound
        switch error {
        case let .noSuchRoute(_, suggestions, known): candidates = suggestions.isEmpty ? known : suggestions
        case let .ambiguousRoute(_, list):
            candidates = list
            status = .multipleChoices
        default: break
        }
        let model = RouteNotFoundPage(
            page: PageRenderer.Frame(
                language: lang, title: BrowseMessage.noRouteFound(FeedText.shown(query, limit: 60)).text(lang),
                path: "/routes", feedTag: feedTag(database)),
            heading: BrowseMessage.noRouteFound(FeedText.shown(query, limit: 60)).text(lang),
            detail: FeedText.shown(error.description, limit: 400), didYouMean: BrowseMessage.didYouMean.text(lang),
            candidates: candidates.map { route in
                RouteNotFoundPage.Candidate(
                    href: RouteLinks.page(route, from: nil, language: lang), colourClass: RouteColours.className(route),
                    label: FeedText.shown(route.label, limit: 40),
                    longName: route.shortName == nil ? nil : route.longName.map { FeedText.shown($0) })
            },
            has_candidates: !candidates.isEmpty, searchHint: BrowseMessage.routesSearchHint.text(lang),
            searchLabel: BrowseMessage.routesSearchLabel.text(lang), query: "")
        return Responses.html(service.pages.render(model, "routeNotFound"), cacheSeconds: nil, status: status)
    }

    /// `05:30:00` → `05:30`; `25:10:00` → `01:10 (+1)`.
    static func clock(_ gtfs: String) -> String {
        guard let time = GTFSTime(parsing: gtfs) else { return FeedText.shown(gtfs, limit: 10) }
        let days = time.seconds / 86_400
        return time.clockText + (days > 0 ? " (+\(days))" : "")
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func routeModel(
        _ detail: RouteDetail, week: RouteWeek, viewer: ResolvedStop?, notice: String?, language lang: Language,
        frame: PageRenderer.Frame
    ) -> RoutePage {
        let route = detail.route
        let viewerIDs = Set((viewer?.platforms.map(\.id) ?? []) + (viewer.map { [$0.stop.id] } ?? []))
        let onRoute = detail.directions.contains { $0.stops.contains { viewerIDs.contains($0.id) } }
        let mapHref =
            RouteLinks.api(route) + "/map.svg?"
            + (viewer.map { "from=\(PercentEncoding.encode($0.stop.id))&" } ?? "") + "lang=\(lang.rawValue)&legend=none"
        let directions = detail.directions.map { direction in
            RoutePage.Direction(
                heading: BrowseMessage.stopsTowards(
                    direction: direction.directionID, headsign: FeedText.shown(direction.headsign),
                    stops: direction.stops.count
                ).text(lang),
                stops: direction.stops.map { stop in
                    RoutePage.Stop(
                        href: StopLinks.page(stop) + "?lang=\(lang.rawValue)", name: FeedText.shown(stop.name),
                        code: stop.code.map { FeedText.shown($0, limit: 40) },
                        here: viewerIDs.contains(stop.id) ? Message.youAreHere.text(lang) : nil)
                },
                variantsHeading: BrowseMessage.variants.text(lang),
                variants: direction.branches.map { branch in
                    var notes: [String] = []
                    if let start = branch.startsAt {
                        notes.append(Message.tripsStartAt(FeedText.shown(start.name)).text(lang))
                    }
                    if let end = branch.endsAt { notes.append(Message.tripsEndAt(FeedText.shown(end.name)).text(lang)) }
                    if !branch.otherStops.isEmpty {
                        notes.append(
                            Message.tripsAlsoServe(
                                FeedText.shown(branch.otherStops.map(\.name).joined(separator: ", "), limit: 400)
                            ).text(lang))
                    }
                    return notes.joined(separator: "; ") + " (" + Message.tripCount(branch.trips).text(lang) + ", "
                        + Message.towards(FeedText.shown(branch.headsign)).text(lang) + ")"
                },
                has_variants: !direction.branches.isEmpty)
        }
        let services = detail.directions.map { direction -> RoutePage.Service in
            let heading = BrowseMessage.towards(FeedText.shown(direction.headsign)).text(lang)
            guard let first = direction.firstDeparture, let last = direction.lastDeparture else {
                return RoutePage.Service(
                    heading: heading, summary: BrowseMessage.doesNotRun.text(lang), headways: [], has_headways: false)
            }
            let headways = direction.headways.map { headway -> RoutePage.Headway in
                let hours = headway.period.hours
                let how: String
                if headway.departures == 0 {
                    how = Message.noServiceInPeriod.text(lang)
                } else if let typical = headway.typicalMinutes {
                    how =
                        Message.headwayEvery(
                            typical: typical, shortest: headway.shortestMinutes ?? typical,
                            longest: headway.longestMinutes ?? typical
                        ).text(lang) + " · " + Message.departureCount(headway.departures).text(lang)
                } else {
                    how = Message.departureCount(headway.departures).text(lang)
                }
                return RoutePage.Headway(
                    period: Message.dayPeriod(headway.period).text(lang),
                    span: "\(twoDigits(hours.start)):00–\(twoDigits(hours.end)):00", how: how)
            }
            return RoutePage.Service(
                heading: heading,
                summary: BrowseMessage.trips(direction.tripsOnDate).text(lang) + " · "
                    + BrowseMessage.firstLast(first: clock(first), last: clock(last)).text(lang),
                headways: headways, has_headways: true)
        }
        let headsigns = Dictionary(
            detail.directions.map { ($0.directionID ?? -1, $0.headsign) }, uniquingKeysWith: { a, _ in a })
        let dayTypes = week.dayTypes.map { dayType -> RoutePage.DayType in
            var lines: [String] = []
            if !dayType.inFeed {
                lines.append(BrowseMessage.outsideTimetable.text(lang))
            } else if dayType.directions.isEmpty {
                lines.append(BrowseMessage.doesNotRun.text(lang))
            }
            for service in dayType.directions {
                let towards = headsigns[service.directionID ?? -1].map {
                    BrowseMessage.towards(FeedText.shown($0)).text(lang) + ": "
                } ?? ""
                lines.append(
                    towards + BrowseMessage.trips(service.trips).text(lang) + ", "
                        + BrowseMessage.firstLast(first: clock(service.firstDeparture), last: clock(service.lastDeparture))
                        .text(lang))
            }
            return RoutePage.DayType(
                label: BrowseMessage.weekdays(dayType.weekdays).text(lang),
                dates: dayType.dates.joined(separator: ", "), lines: lines)
        }
        let agency = detail.agency
        return RoutePage(
            page: frame, label: FeedText.shown(route.label, limit: 40),
            longName: route.shortName == nil ? nil : route.longName.map { FeedText.shown($0) },
            colourClass: RouteColours.className(route), mode: route.mode.name(lang),
            operatorHeading: BrowseMessage.operatorHeading.text(lang), agencyName: FeedText.shown(agency.name),
            agencyHref: "/routes?agency="
                + PageRenderer.Frame.encode(agency.id.isEmpty ? agency.name : agency.id) + "&lang=\(lang.rawValue)",
            agencyURL: agency.url.flatMap(webLink), websiteLabel: BrowseMessage.website.text(lang),
            phone: agency.phone.map { BrowseMessage.phone(FeedText.shown($0, limit: 40)).text(lang) },
            notice: notice,
            viewer: viewer.map {
                onRoute
                    ? BrowseMessage.viewerStop(FeedText.shown($0.stop.name)).text(lang)
                    : BrowseMessage.viewerNotOnRoute(FeedText.shown($0.stop.name)).text(lang)
            },
            map: detail.directions.contains { $0.stops.contains { $0.coordinate != nil } }
                ? PageRoutes.StopPage.Picture(
                    href: mapHref, alt: BrowseMessage.routeMapTitle(route: route.label).text(lang)) : nil,
            stopsHeading: BrowseMessage.stops.text(lang), directions: directions,
            serviceHeading: BrowseMessage.howOften(date: detail.serviceDate).text(lang), services: services,
            weekHeading: BrowseMessage.whenItRuns(weekStart: week.weekStart).text(lang), dayTypes: dayTypes,
            allRoutesLabel: BrowseMessage.allRoutes.text(lang), allRoutesHref: "/routes?lang=\(lang.rawValue)")
    }
}
