import Foundation
import Hummingbird
import ScanService
import StopCodes
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

/// The phone pages (server-rendered, no JavaScript): `/` search, `/s/{code}` the stop a label names, `/plan`,
/// and the stylesheets. Language from `?lang=`, else `Accept-Language`, else the config.
struct PageRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.resource("/") { request, _ in
            // The search form alone is a static page; a search reads the database.
            guard request.uri.queryParameters["q"].map({ !$0.isEmpty }) == true else { return try searchPage(request) }
            return try await service.blocking.run { try searchPage(request) }
        }
        router.resource("/s/{code}") { request, context in try await stopPage(request, context) }
        router.resource("/plan") { request, _ in try await service.plans.run { try planPage(request) } }
        RoutePages(service: service).register(on: router)
        router.resource("/style.css") { _, _ in
            Responses.body(Stylesheet.css, contentType: "text/css; charset=utf-8", cacheSeconds: 3600)
        }
        router.resource("/routes.css") { _, _ in
            let database = service.databases.current()
            return Responses.body(
                RouteColours.stylesheet(database.allRoutes), contentType: "text/css; charset=utf-8",
                cacheSeconds: 3600)
        }
        router.resource("/favicon.ico") { _, _ in
            throw Problem.notFound("no icon")
        }
    }

    func language(_ request: Request) -> Language { LanguageChoice.pick(request: request, config: service.config) }

    func feedTag(_ database: RouteDatabase) -> String { String(database.feedHash.prefix(12)) }

    // MARK: - Search

    struct SearchPage {
        struct Stop {
            var href: String
            var name: String
            var code: String?
            var detail: String?
        }
        var page: PageRenderer.Frame
        var heading: String
        var searched: Bool
        var resultCount: String
        var results: Bool
        var stops: [Stop]
        var noMatches: String
    }

    func searchPage(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = language(request)
        let database = service.databases.current()
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        var found: [StopSearch.Found] = []
        if !text.isEmpty {
            do {
                found = try StopSearch.find(text, in: database, limit: 20)
            } catch let error as LookupError {
                if case .invalidQuery = error { found = [] } else { throw Problem.from(error) }
            }
        }
        let model = SearchPage(
            page: PageRenderer.Frame(
                language: lang, title: Message.webFindStop.text(lang), path: "/",
                query: text.isEmpty ? [] : [("q", text)], feedTag: feedTag(database), search: text),
            heading: Message.webFindStop.text(lang), searched: !text.isEmpty,
            resultCount: Message.webStopsFound(found.count).text(lang), results: !found.isEmpty,
            stops: found.map { item in
                SearchPage.Stop(
                    href: StopLinks.page(item.stop) + "?lang=\(lang.rawValue)", name: FeedText.shown(item.stop.name),
                    code: item.stop.code.map { FeedText.shown($0, limit: 40) },
                    detail: item.stop.parentStationName.map { Message.station(FeedText.shown($0)).text(lang) })
            },
            noMatches: Message.noMatches.text(lang))
        return Responses.html(
            service.pages.render(model, "search"),
            cacheSeconds: text.isEmpty ? 3600 : service.config.server.cacheSeconds)
    }

    // MARK: - A stop

    struct StopPage {
        struct Route {
            var colourClass: String
            var label: String
            /// The route's page (`/r/{route}?from=<this stop>`), which its badge links to.
            var href: String?
            var linkLabel: String
            var mode: String
            var towards: String?
            var diagrams: [Picture]
            /// The route's printed timetable (`/r/{route}/timetable`); nil on the `/kiosk` board.
            var timetableHref: String? = nil
            /// "timetable", and "timetable L1" for a screen reader.
            var timetableWord = ""
            var timetableLabel = ""
        }
        /// An embedded SVG (`/api/v1/…`) and its text equivalent.
        struct Picture {
            var href: String
            var alt: String
        }
        struct Departure {
            var clock: String
            var colourClass: String
            var label: String
            /// The route's page; nil on the `/kiosk` board, which must not navigate away from the kiosk.
            var href: String?
            var linkLabel: String
            var headsign: String
            var extra: String?
            var due: String
            /// "● live +4 min (scheduled 08:03)", "○ timetable", "✕ cancelled": words and symbols, not colour.
            var live: String?
            var canceled: Bool
        }
        /// One row of the phone page's departures: a route to one destination and its next few times.
        struct Group {
            var colourClass: String
            var label: String
            var href: String?
            var linkLabel: String
            var destination: String
            /// Operator, platform, approximate, step-free: what the row's departures share, as on the board.
            var extra: String?
            /// The first departure's live mark in words ("● live +4 min (scheduled 08:03)").
            var live: String?
            var times: [Time]
        }
        struct Time {
            /// "3 min", "now".
            var due: String
            /// "08:03", marked "●" when live and "✕" when cancelled.
            var clock: String
            var canceled: Bool
        }
        struct Span {
            var colourClass: String
            var label: String
            var href: String?
            var linkLabel: String
            var towards: String
            var first: String
            var last: String
        }
        struct Near {
            var href: String
            var name: String
            var code: String?
            var distance: String
            var routes: String
        }
        var page: PageRenderer.Frame
        /// The name as shown: at most `FeedText.shownLength` characters (`fullName` has the rest).
        var name: String
        /// The whole name, for the page title and the heading's `title` when `name` is cut.
        var fullName: String?
        var code: String?
        var stopID: String
        var facts: String?
        var routesHeading: String
        var routes: [Route]
        var diagramsHeading: String
        /// The stop map, when the stop has coordinates to draw around.
        var map: Picture?
        var speechHref: String
        var listenLabel: String
        var departuresHeading: String
        var departures: [Departure]
        /// The departures grouped by route and destination (`DepartureGroup`), for the phone page.
        var groups: [Group] = []
        /// The stop's printed timetable for today and for the week.
        var timetableHref = ""
        var timetableLabel = ""
        var weekTimetableHref = ""
        var weekTimetableLabel = ""
        /// "Live information unavailable since 14:05. Showing the timetable." when live data is not in force.
        var liveNotice: String?
        /// "Timetable out of date (valid … to …)" and what to do, in place of the departures, when the feed's
        /// calendar does not cover the day (`PageRoutes.outOfServiceView`).
        var serviceNotice: String?
        var serviceNoticeDetail: String?
        var alertsHeading: String
        var alerts: [Alert]
        /// "and 35 more alerts" when more apply than the stop view lists.
        var moreAlerts: String?
        struct Alert {
            var header: String
            var description: String?
        }
        var emptyNote: String?
        var nextNote: String?
        var whereTo: String
        var toLabel: String
        var planLabel: String
        var spansHeading: String
        var spans: [Span]
        var nearbyHeading: String
        var nearby: [Near]
        var noNearby: String
        var updated: String
        // Mustache reads stored properties only (through Mirror): set by `finished()`.
        var has_routes = false
        var has_diagrams = false
        var has_departures = false
        var has_groups = false
        var has_alerts = false
        var has_spans = false
        var has_nearby = false

        func finished() -> StopPage {
            var page = self
            page.has_routes = !routes.isEmpty
            page.has_diagrams = routes.contains { !$0.diagrams.isEmpty }
            page.has_departures = !departures.isEmpty
            page.has_groups = !groups.isEmpty
            page.has_alerts = !alerts.isEmpty
            page.has_spans = !spans.isEmpty
            page.has_nearby = !nearby.isEmpty
            return page
        }
    }

    struct MessagePage {
        var page: PageRenderer.Frame
        var kind: String
        var heading: String
        var detail: String?
        var showSearch: Bool
        var backHome: String
    }

    /// `/s/{value}[?k=…&s=…]`: the URL a label prints, read exactly as the kiosk's scanner reads it (the config's
    /// template, keys and signature policy), so a forged or altered label gets a warning, not the stop. A page
    /// shared within its minute (`NowCache`) still counts as a scan of the stop.
    func stopPage(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let query = try QueryParameters(request)
        let lang = language(request)
        let raw = context.parameters.get("code") ?? ""
        guard QueryParameters.percentDecode(raw) != nil else {
            throw Problem.badRequest("the stop in the path has a malformed percent-encoding")
        }
        let database = service.databases.current()
        let at = try query.instant(in: database.timeZone, now: service.now())
        return try await service.sharedNowOffPool(
            request, key: "page " + lang.rawValue, database: database, at: at,
            hit: { service.metrics.recordScan(status: ScanStatus.stop.rawValue, source: "page") }
        ) { [self] instant in
            // A page rendered ahead for the next minute is no one's scan: only the request's own render counts.
            try renderStopPage(
                request, query: query, raw: raw, language: lang, database: database, at: instant,
                countScan: instant == at.date)
        }
    }

    private func renderStopPage(
        _ request: Request, query: QueryParameters, raw: String, language lang: Language, database: RouteDatabase,
        at: Date, countScan: Bool
    ) throws -> Answer {
        let template: StopURLTemplate
        let resolver: ScanResolver
        do {
            template = try StopURLTemplate(service.config.urlTemplate)
            resolver = try ScanResolver(config: service.config, database: database)
        } catch {
            throw Problem(
                status: .internalServerError, title: "Label settings unusable",
                detail: "the server's [labels] settings cannot be used")
        }
        // The payload the label carried: the template around the path's value, then its signature parameters.
        var payload = template.prefix + raw + template.suffix
        if let key = query["k"] ?? (query["s"] != nil ? "" : nil) {
            payload += (payload.contains("?") ? "&" : "?") + "k=\(key)&s=\(query["s"] ?? "")"
        }
        let outcome = resolver.resolve(payload)
        if countScan { service.metrics.recordScan(status: outcome.status.rawValue, source: "page") }
        let frame = { (title: String) in
            PageRenderer.Frame(
                language: lang, title: title, path: request.uri.path,
                query: [("k", query["k"]), ("s", query["s"])].compactMap { pair in pair.1.map { (pair.0, $0) } },
                feedTag: feedTag(database))
        }
        let warning = { (status: HTTPResponse.Status, heading: Message, detail: Message?, search: Bool) -> Answer in
            let page = MessagePage(
                page: frame(heading.text(lang)), kind: search ? "notice" : "warning", heading: heading.text(lang),
                detail: detail?.text(lang), showSearch: search, backHome: Message.webBackHome.text(lang))
            return Answers.html(service.pages.render(page, "message"), cacheSeconds: nil, status: status)
        }
        switch outcome.status {
        case .forged:
            return warning(.forbidden, .forged, .forgedDetail(outcome.reference?.value ?? ""), false)
        case .signatureRequired:
            return warning(.forbidden, .signatureRequired, .signatureRequiredDetail, false)
        case .notAStopCode, .unknownStop:
            let value = QueryParameters.percentDecode(raw) ?? raw
            return warning(.notFound, .noSuchStop(FeedText.shown(value, limit: 80)), .unknownStopDetail, true)
        case .stop:
            break
        }
        guard let stop = outcome.stop else { throw Problem.notFound("no such stop") }
        let model = try Self.stopModel(
            service: service, database: database, stop: stop, at: at, language: lang, frame: frame)
        return Answers.html(service.pages.render(model, "stop"), cacheSeconds: service.config.server.cacheSeconds)
    }

    /// The page model of `stop` at `at`, for the phone page and the `/kiosk` board. When the feed's calendar does
    /// not cover the day the page still shows the stop — its name and code, routes, map and nearby stops, which do
    /// not depend on the day — with the notice where the departures would be, and answers 200: the passenger who
    /// scanned the label is at a real stop and the page says everything that is known about it (the API keeps its
    /// 503, which tells a program that the departures are missing).
    static func stopModel(
        service: WebService, database: RouteDatabase, stop: ResolvedStop, at: Date, language lang: Language,
        frame: (String) -> PageRenderer.Frame
    ) throws -> StopPage {
        do {
            let view = database.translated(
                try service.stopView(
                    database, for: stop, at: at, window: service.config.windowMinutes,
                    nearby: service.config.nearbyRadiusMeters, language: lang), into: lang)
            return stopModel(
                view, language: lang, conventions: service.config.passengerLocale, frame: frame(view.stop.name))
        } catch LookupError.outsideServiceRange(let date, let start, let end) {
            let (view, notice) = try outOfServiceView(
                database, stop: stop, at: at, date: date, start: start, end: end,
                window: service.config.windowMinutes, nearby: service.config.nearbyRadiusMeters, language: lang)
            var model = stopModel(
                database.translated(view, into: lang), language: lang, conventions: service.config.passengerLocale,
                frame: frame(view.stop.name))
            model.serviceNotice = notice.heading
            model.serviceNoticeDetail = notice.detail
            model.emptyNote = nil
            model.nextNote = nil
            return model.finished()
        } catch let error as LookupError {
            throw Problem.from(error)
        }
    }

    /// The stop view on a day the timetable does not cover: what the stop is (read at the nearest day the feed
    /// covers) without departures, first and last services or live data, and the notice: out of date, or not yet
    /// in force with the first departure from this stop once it is.
    static func outOfServiceView(
        _ database: RouteDatabase, stop: ResolvedStop, at: Date, date: ServiceDate, start: ServiceDate,
        end: ServiceDate, window: Int, nearby: Int, language lang: Language
    ) throws -> (view: StopView, notice: (heading: String, detail: String)) {
        let zone = database.timeZone
        let notYet = date < start
        let covered = notYet ? start : end
        guard case .instant(let instant) = LocalTime.interpret("\(covered.description)T00:00", in: zone) else {
            throw LookupError.outsideServiceRange(date: date, start: start, end: end)
        }
        var view = try database.stopView(
            for: stop, at: instant, windowMinutes: max(window, 60), nearbyRadiusMeters: nearby)
        let notice: (heading: String, detail: String)
        if notYet {
            let first = view.departures.first?.time ?? view.nextDeparture?.time
            let from =
                first.map { LocalTime.iso8601($0, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ") }
                ?? start.description
            notice = (
                Message.notYetInService(start: start.description, end: end.description).text(lang),
                Message.nextServiceFrom(from).text(lang)
            )
        } else {
            notice = (
                Message.outOfService(start: start.description, end: end.description).text(lang),
                Message.outOfServiceDetail.text(lang)
            )
        }
        view.at = at
        view.windowMinutes = window
        view.serviceDate = date.description
        view.departures = []
        view.serviceSpans = []
        view.nextDeparture = nil
        return (view, notice)
    }

    /// `conventions`: the process's passenger locale (`KioskConfig.passengerLocale`), whose clock, dates and units
    /// the page writes in the reader's language.
    static func stopModel(
        _ view: StopView, language lang: Language, conventions: PassengerLocale = .standard, frame: PageRenderer.Frame
    ) -> StopPage {
        let locale = conventions.speaking(lang)
        let zone = TimeZone(identifier: view.timeZone) ?? .current
        let severalOperators = Set(view.departures.compactMap(\.route.feedID)).count > 1
        var facts: [String] = []
        if let station = view.stop.parentStationName {
            facts.append(Message.station(FeedText.shown(station)).text(lang))
        }
        if let platform = view.stop.platformCode {
            facts.append(Message.platform(FeedText.shown(platform, limit: 40)).text(lang))
        }
        switch view.stop.wheelchairBoarding {
        case .accessible: facts.append("♿ " + Message.wheelchairAccessible.text(lang))
        case .notAccessible: facts.append(Message.notWheelchairAccessible.text(lang))
        case .unknown: break
        }
        var nextNote: String?
        if view.departures.isEmpty {
            if let next = view.nextDeparture {
                nextNote =
                    Message.nextDeparture(
                        clock: locale.clock(next.time, in: zone),
                        dayOffset: LocalTime.dayDifference(from: view.at, to: next.time, in: zone)
                    ).text(lang)
                    + " · \(FeedText.shown(next.route.label, limit: 40)) → \(FeedText.shown(next.headsign))"
            } else {
                nextNote = Message.noDeparturesThisWeek.text(lang)
            }
        }
        let api = StopLinks.api(view.stop)
        // Route badges link to the route's page, from this stop; not on the `/kiosk` board (its frame's links start
        // with the page's path), where a link would take a public screen away from the kiosk.
        let linksRoutes = !frame.otherLanguageHref.hasPrefix("/kiosk")
        let routeLink = { (route: RouteInfo) -> (href: String?, label: String) in
            (
                linksRoutes ? RouteLinks.page(route, from: view.stop, language: lang) : nil,
                BrowseMessage.routeLink(FeedText.shown(route.label, limit: 40)).text(lang)
            )
        }
        let hasCoordinates = view.stop.coordinate != nil || view.platforms.contains { $0.coordinate != nil }
        return StopPage(
            page: frame, name: FeedText.shown(view.stop.name), fullName: FeedText.whole(view.stop.name),
            code: view.stop.code.map { FeedText.shown($0, limit: 40) }, stopID: view.stop.id,
            facts: facts.isEmpty ? nil : facts.joined(separator: " · "),
            routesHeading: Message.routes.text(lang),
            routes: routesOncePerName(view.routes).map { entry in
                StopPage.Route(
                    colourClass: RouteColours.className(entry.route),
                    label: FeedText.shown(entry.route.label, limit: 40),
                    href: routeLink(entry.route).href, linkLabel: routeLink(entry.route).label,
                    mode: entry.route.mode.name(lang),
                    towards: entry.directions.flatMap(\.headsigns).isEmpty
                        ? nil
                        : FeedText.shown(entry.directions.flatMap(\.headsigns).joined(separator: " / "), limit: 240),
                    diagrams: entry.directions.map { direction in
                        StopPage.Picture(
                            href: StopLinks.diagram(
                                route: entry.route, direction: direction.directionID, stop: view.stop, language: lang),
                            alt: Message.routeDiagramTitle(
                                route: entry.route.label, headsign: direction.headsigns.joined(separator: " / ")
                            ).text(lang))
                    },
                    timetableHref: linksRoutes
                        ? "/r/\(PercentEncoding.encode(entry.route.id))/timetable?lang=\(lang.rawValue)" : nil,
                    timetableWord: PhoneMessage.routeTimetable.text(lang),
                    timetableLabel: PhoneMessage.routeTimetable.text(lang)
                        + " " + FeedText.shown(entry.route.label, limit: 40))
            },
            diagramsHeading: Message.webLineDiagrams.text(lang),
            map: hasCoordinates
                ? StopPage.Picture(
                    href: StopLinks.map(view.stop, language: lang),
                    alt: Message.stopMapTitle(stop: view.stop.name).text(lang)) : nil,
            speechHref: "\(api)/speech?lang=\(lang.rawValue)", listenLabel: Message.webListen.text(lang),
            departuresHeading: Message.departures(minutes: view.windowMinutes).text(lang),
            departures: view.departures.filter { $0.realtime?.state != .skipped }.map { departure in
                var extra: [String] = []
                // At an interchange of several feeds' operators, each departure says whose it is.
                if severalOperators { extra.append(FeedText.shown(departure.route.agency, limit: 60)) }
                if view.platforms.count > 1, let platform = departure.platformCode {
                    extra.append(Message.platform(platform).text(lang))
                }
                if departure.approximate { extra.append(Message.approximate.text(lang)) }
                if departure.wheelchairAccessible == .accessible { extra.append("♿") }
                return StopPage.Departure(
                    clock: locale.clock(departure.expectedTime, in: zone),
                    colourClass: RouteColours.className(departure.route),
                    label: FeedText.shown(departure.route.label, limit: 40),
                    href: routeLink(departure.route).href, linkLabel: routeLink(departure.route).label,
                    headsign: FeedText.shown(departure.headsign),
                    extra: extra.isEmpty ? nil : extra.joined(separator: " · "),
                    due: departure.minutesFromNow <= 0
                        ? Message.now.text(lang) : Message.webMinutesToGo(departure.minutesFromNow).text(lang),
                    live: LiveText.mark(departure, locale: locale, zone: zone),
                    canceled: departure.realtime?.state == .canceled)
            },
            liveNotice: LiveText.notice(view, locale: locale, zone: zone),
            alertsHeading: Message.alertsHeading.text(lang),
            alerts: (view.alerts ?? []).map {
                StopPage.Alert(
                    header: FeedText.shown($0.header, limit: 240),
                    description: $0.description.map { FeedText.shown($0, limit: 1000) })
            },
            moreAlerts: view.alertsNotShown.map { Message.moreAlerts($0).text(lang) },
            emptyNote: view.departures.isEmpty
                ? Message.noDeparturesInWindow(minutes: view.windowMinutes).text(lang) : nil,
            nextNote: nextNote,
            whereTo: Message.webWhereTo.text(lang), toLabel: Message.webTo.text(lang),
            planLabel: Message.webFindWay.text(lang),
            spansHeading: locale.firstAndLastHeading(serviceDate: view.serviceDate),
            spans: view.serviceSpans.map { span in
                StopPage.Span(
                    colourClass: RouteColours.className(span.route), label: FeedText.shown(span.route.label, limit: 40),
                    href: routeLink(span.route).href, linkLabel: routeLink(span.route).label,
                    towards: FeedText.shown(span.headsigns.joined(separator: " / "), limit: 240),
                    first: locale.clock(span.first, in: zone),
                    last: locale.clock(span.last, in: zone))
            },
            nearbyHeading: locale.nearbyHeading(meters: view.nearbyRadiusMeters),
            nearby: view.nearby.map { near in
                StopPage.Near(
                    href: StopLinks.page(near.stop) + "?lang=\(lang.rawValue)", name: FeedText.shown(near.stop.name),
                    code: near.stop.code.map { FeedText.shown($0, limit: 40) },
                    distance: locale.nearbyDistance(meters: near.distanceMeters, direction: near.direction),
                    routes: FeedText.shown(near.routes.joined(separator: ", "), limit: 240))
            },
            noNearby: locale.noNearbyStops(meters: view.nearbyRadiusMeters),
            updated:
                "\(locale.dateAndClock(view.at, in: zone)) \(view.timeZone)"
        )
        .withGroups(view, locale: locale, zone: zone, severalOperators: severalOperators, routeLink: routeLink)
        .finished()
    }

    /// A stop's routes once per name and destinations: a feed that gives every train its own route (Renfe: 29
    /// "AVE" routes through one station) lists one row, whose links go to the first of them.
    static func routesOncePerName(_ routes: [RouteAtStop]) -> [RouteAtStop] {
        var seen = Set<[String]>()
        return routes.filter { entry in
            let towards = entry.directions.flatMap(\.headsigns)
            return seen.insert([entry.route.feedID ?? "", entry.route.label, "\(entry.route.mode)"] + towards)
                .inserted
        }
    }
}

extension PageRoutes.StopPage {
    /// The phone page's rows: the view's departures grouped by route and destination, three times a row, with
    /// the links to the stop's printed timetable.
    func withGroups(
        _ view: StopView, locale: PassengerLocale, zone: TimeZone, severalOperators: Bool,
        routeLink: (RouteInfo) -> (href: String?, label: String)
    ) -> PageRoutes.StopPage {
        let lang = locale.language
        var page = self
        let shown = view.departures.filter { $0.realtime?.state != .skipped }
        page.groups = DepartureGroup.grouping(shown, timesPerGroup: 3).map { group in
            let first = group.departures[0]
            var extra: [String] = []
            if severalOperators { extra.append(FeedText.shown(first.route.agency, limit: 60)) }
            let platforms = Set(group.departures.compactMap(\.platformCode))
            if view.platforms.count > 1, !platforms.isEmpty {
                extra.append(Message.platform(platforms.sorted().joined(separator: ", ")).text(lang))
            }
            if group.departures.contains(where: \.approximate) { extra.append(Message.approximate.text(lang)) }
            if group.departures.allSatisfy({ $0.wheelchairAccessible == .accessible }) { extra.append("♿") }
            return Group(
                colourClass: RouteColours.className(group.route),
                label: FeedText.shown(group.route.label, limit: 40),
                href: routeLink(group.route).href, linkLabel: routeLink(group.route).label,
                destination: FeedText.shown(group.destination),
                extra: extra.isEmpty ? nil : extra.joined(separator: " · "),
                live: LiveText.mark(first, locale: locale, zone: zone),
                times: group.departures.map { departure in
                    let state = departure.realtime?.state
                    let mark = state == .canceled ? "✕ " : (state == .updated || state == .added) ? "● " : ""
                    return Time(
                        due: departure.minutesFromNow <= 0
                            ? Message.now.text(lang) : DurationText.minutes(departure.minutesFromNow),
                        clock: mark + locale.clock(departure.expectedTime, in: zone),
                        canceled: state == .canceled)
                })
        }
        let timetable = StopLinks.page(view.stop) + "/timetable?"
        page.timetableHref = timetable + "lang=\(lang.rawValue)"
        page.timetableLabel = PhoneMessage.stopTimetable.text(lang)
        page.weekTimetableHref = timetable + "week=1&lang=\(lang.rawValue)"
        page.weekTimetableLabel = PhoneMessage.weekTimetable.text(lang)
        return page
    }
}
