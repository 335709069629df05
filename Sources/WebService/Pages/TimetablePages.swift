import Foundation
import Hummingbird
import StopCodes
import StopPresentation
import TransitModel
import TransitStore

/// The printed timetables as web pages: `/s/{stop}/timetable` (the stop's departures by hour per route and
/// direction, for `?date=` or today; `?week=1` for the week's day types) and `/r/{route}/timetable` (stops down,
/// trips across, `?date=`, `?direction=`), with `/timetable.css`, whose print rules make them printable from the
/// browser. The tables come from the same store values `kiosk timetable` prints.
struct TimetablePageRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.blockingResource("/s/{code}/timetable", on: service.blocking) { request, context in
            try stopTimetable(request, context)
        }
        router.blockingResource("/r/{route}/timetable", on: service.blocking) { request, context in
            try routeTimetable(request, context)
        }
        router.resource("/timetable.css") { _, _ in
            Responses.body(TimetableHTML.stylesheet, contentType: "text/css; charset=utf-8", cacheSeconds: 3600)
        }
    }

    func date(_ query: QueryParameters, _ database: RouteDatabase) throws -> ServiceDate {
        if let text = query["date"] {
            guard let date = ServiceDate(parsing: text) else {
                throw Problem.badRequest(
                    "date=\(TerminalText.sanitize(text, maxLength: 40)) is not a date such as 2026-11-25")
            }
            return date
        }
        return ServiceDate.containing(service.now(), in: database.timeZone)
    }

    func stopTimetable(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        guard let value = QueryParameters.percentDecode(context.parameters.get("code") ?? "") else {
            throw Problem.badRequest("the stop in the path has a malformed percent-encoding")
        }
        let day = try date(query, database)
        // The one URL rule: a value is a stop code, else a stop ID.
        let stop: ResolvedStop
        do {
            let text = try RouteDatabase.validateQuery(value)
            stop = try (try? database.resolveStop(.code(text))) ?? database.resolveStop(.id(text))
        } catch let error as LookupError {
            throw Problem.from(error)
        }
        let span: TimetableSpan = query["week"] == "1" ? .week(containing: day) : .day(day)
        let body: String
        do {
            let timetable = try database.stopTimetable(for: stop, span: span)
            body = TimetableHTML.stop(
                timetable, language: lang, date: day, conventions: service.config.passengerLocale)
        } catch let error as LookupError {
            throw Problem.from(error)
        } catch let error as TimetableError {
            body = TimetableHTML.message(
                title: stop.stop.name, detail: error.description, back: StopLinks.page(stop.stop), language: lang)
        }
        return Responses.html(body, cacheSeconds: 300)
    }

    func routeTimetable(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        guard let value = QueryParameters.percentDecode(context.parameters.get("route") ?? "") else {
            throw Problem.badRequest("the route in the path has a malformed percent-encoding")
        }
        let day = try date(query, database)
        var direction: Int?
        if let text = query["direction"] {
            guard let number = Int(text), (0...1).contains(number) else {
                throw Problem.badRequest("direction=\(TerminalText.sanitize(text, maxLength: 20)) must be 0 or 1")
            }
            direction = number
        }
        let body: String
        do {
            let timetable = try database.routeTimetable(value, direction: direction, date: day)
            body = TimetableHTML.route(
                timetable, language: lang, shortNames: Self.shortNames(timetable, database),
                conventions: service.config.passengerLocale)
        } catch let error as LookupError {
            throw Problem.from(error)
        } catch let error as RouteQueryError {
            switch error {
            case .noSuchDirection: throw Problem.badRequest(error.description)
            default: throw Problem.notFound(error.description)
            }
        } catch let error as TimetableError {
            body = TimetableHTML.message(title: value, detail: error.description, back: "/", language: lang)
        }
        return Responses.html(body, cacheSeconds: 300)
    }
}

extension TimetablePageRoutes {
    /// The trips' `trip_short_name`s (train numbers), in the timetable's order; none when they cannot be read.
    static func shortNames(_ timetable: RouteTimetable, _ database: RouteDatabase) -> [String?] {
        guard let indexes = try? database.tripIndexes(ids: timetable.trips.map(\.tripID)),
            let names = try? database.trips(atIndexes: indexes.values)
        else { return [] }
        return timetable.trips.map { trip in indexes[trip.tripID].flatMap { names[$0]?.shortName } }
    }
}

/// The HTML of the timetable pages: plain tables, no script; feed text escaped.
enum TimetableHTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in TerminalText.sanitize(text, maxLength: 500).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The page's head and the site's bar (home, the other language), as on the other phone pages; `path` and
    /// `query` are the page's own, for the language link.
    static func head(
        _ title: String, _ language: Language, landscape: Bool = false, path: String = "/", query: String = ""
    ) -> String {
        let other = language.other
        let switchHref = path + "?" + (query.isEmpty ? "" : query + "&") + "lang=\(other.rawValue)"
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/timetable.css"><link rel="stylesheet" href="/routes.css">
            </head><body class="timetable\(landscape ? " landscape" : "")">
            <header class="bar noprint"><a class="home" href="/?lang=\(language.rawValue)">StopKiosk</a>
            <a class="lang" href="\(escape(switchHref))" lang="\(other.rawValue)">\(other == .es ? "Español" : "English")</a></header>

            """
    }

    /// On a 12-hour clock, what the compact times' a and p mean (as the printed timetable says).
    static func clockNote(_ hours: PassengerLocale.Clock, _ language: Language) -> String {
        hours == .twelveHour ? "<p class=\"small\">\(escape(TimetableText.twelveHourNote(language)))</p>" : ""
    }

    static func badge(_ route: RouteInfo) -> String {
        "<span class=\"badge \(RouteColours.className(route))\">\(escape(route.label))</span>"
    }

    static func message(title: String, detail: String, back: String, language: Language) -> String {
        head(title, language) + "<main><h1>\(escape(title))</h1><p class=\"notice\">\(escape(detail))</p>"
            + "<p class=\"noprint\"><a href=\"\(escape(back))\">\(language == .en ? "Back" : "Volver")</a></p></main></body></html>\n"
    }

    /// `conventions`: the process's passenger locale, whose clock and date style the page writes (3p, 3:05p and
    /// 8/19/2026 on a US feed, as the printed timetable does).
    static func stop(
        _ timetable: StopTimetable, language: Language, date: ServiceDate, conventions: PassengerLocale = .standard
    ) -> String {
        let hours = conventions.clock
        let code = StopKeyKindValue.value(timetable.stop)
        let path = StopLinks.page(timetable.stop) + "/timetable"
        var html = head(
            "\(timetable.stop.name) · \(TimetableText.stopTimetableTitle(language))", language, path: path,
            query: "date=\(date)" + (timetable.single ? "" : "&week=1"))
        html += "<main><div class=\"intro\"><p class=\"kicker\">\(escape(TimetableText.stopTimetableTitle(language)))</p>"
        html += "<h1>\(escape(timetable.stop.name))</h1>"
        html += "<p class=\"code\">\(escape(TimetableText.stopCode(code, language)))</p>"
        if !timetable.agencies.isEmpty {
            html += "<p>\(escape(TimetableText.operators(timetable.agencies.map(\.name), language)))</p>"
        }
        html += "<p class=\"validity\">\(escape(TimetableText.validity(from: timetable.validFrom, until: timetable.validUntil, single: timetable.single, language, dates: conventions.dates)))</p>"
        if !timetable.holidays.isEmpty { html += "<p>\(escape(TimetableText.holidays(timetable.holidays, language)))</p>" }
        html += "<nav class=\"noprint\"><a href=\"\(escape(StopLinks.page(timetable.stop)))?lang=\(language.rawValue)\">\(language == .en ? "Live departures" : "Salidas en tiempo real")</a>"
        let previous = date.adding(days: timetable.single ? -1 : -7), next = date.adding(days: timetable.single ? 1 : 7)
        let week = timetable.single ? "" : "&amp;week=1"
        html += " · <a href=\"\(escape(path))?date=\(previous)\(week)&amp;lang=\(language.rawValue)\">←</a>"
        html += " <a href=\"\(escape(path))?date=\(next)\(week)&amp;lang=\(language.rawValue)\">→</a>"
        html += timetable.single
            ? " · <a href=\"\(escape(path))?date=\(date)&amp;week=1&amp;lang=\(language.rawValue)\">\(language == .en ? "Whole week" : "Toda la semana")</a>"
            : " · <a href=\"\(escape(path))?date=\(date)&amp;lang=\(language.rawValue)\">\(language == .en ? "This day only" : "Solo este día")</a>"
        html += "</nav></div>\n\n"
        for section in timetable.sections {
            html += "<section class=\"route\"><h2>\(badge(section.route)) \(escape(TimetableText.towards(section.headsign, language)))</h2>\n"
            html += "<table class=\"tt\"><thead><tr>"
            for column in section.columns {
                html += "<th colspan=\"2\" scope=\"colgroup\">\(escape(TimetableText.dayType(column.dayType, language)))</th>"
            }
            html += "</tr></thead><tbody>\n"
            var keys = Set<Int>()
            for column in section.columns {
                for band in column.bands { keys.insert(band.first / 3600 * 2) }
                for hour in column.hours { keys.insert(hour.hour * 2 + 1) }
            }
            for key in keys.sorted() {
                let hour = key / 2
                html += "<tr>"
                for column in section.columns {
                    if key % 2 == 0 {
                        let bands = column.bands.filter { $0.first / 3600 == hour }
                        let text = bands.map {
                            escape(TimetableText.frequency($0, language, clock: hours))
                                + ($0.marks.isEmpty ? "" : " <sup>\(escape($0.marks.joined(separator: ", ")))</sup>")
                        }.joined(separator: "<br>")
                        html += "<td colspan=\"2\" class=\"band\">\(text)</td>"
                    } else if let row = column.hours.first(where: { $0.hour == hour }) {
                        html += "<th scope=\"row\" class=\"hour\">\(TimetableText.hour(hour, hours))</th><td class=\"min\">"
                        html += row.entries.map {
                            "<span>\(String(format: "%02d", $0.minute))"
                                + ($0.marks.isEmpty ? "" : "<sup>\(escape($0.marks.joined()))</sup>") + "</span>"
                        }.joined(separator: " ")
                        html += "</td>"
                    } else {
                        html += "<td class=\"hour\"></td><td class=\"min\"></td>"
                    }
                }
                html += "</tr>\n"
            }
            html += "</tbody></table>\n"
            if !section.footnotes.isEmpty {
                html += "<dl class=\"notes\">"
                for note in section.footnotes {
                    html += "<dt>\(escape(note.mark))</dt><dd>\(escape(TimetableText.footnote(note.kind, language)))</dd>"
                }
                html += "</dl>\n"
            }
            html += "</section>\n"
        }
        html += clockNote(hours, language)
        html += "<p class=\"small\">\(escape(TimetableText.afterMidnightNote(language)))</p></main></body></html>\n"
        return html
    }

    /// A trip column's label: the frequency of a frequency-based trip, else the train number the feed gives
    /// (`trip_short_name`), else the time it leaves its first stop (the narrowest label: columns stay narrow).
    static func tripLabel(
        _ trip: RouteTimetableTrip, shortName: String?, language: Language, hours: PassengerLocale.Clock = .twentyFourHour
    ) -> String {
        if let headway = trip.headwaySeconds { return TimetableText.every(headway, language) }
        if let shortName, !shortName.isEmpty { return shortName }
        return trip.times.compactMap { $0 }.first.map { TimetableText.clock($0, hours) } ?? ""
    }

    /// `shortNames`: each trip's `trip_short_name`, in the order of `timetable.trips` (nil where there is none).
    static func route(
        _ timetable: RouteTimetable, language: Language, shortNames: [String?] = [],
        conventions: PassengerLocale = .standard
    ) -> String {
        let hours = conventions.clock
        let shortNames = shortNames.count == timetable.trips.count
            ? shortNames : Array(repeating: nil, count: timetable.trips.count)
        let path = "/r/\(PercentEncoding.encode(timetable.route.id))/timetable"
        var html = head(
            "\(timetable.route.label) · \(TimetableText.routeTimetableTitle(language))", language, landscape: true,
            path: path, query: "date=\(timetable.date)" + (timetable.directionID.map { "&direction=\($0)" } ?? ""))
        html += "<main><div class=\"intro\"><p class=\"kicker\">\(escape(TimetableText.routeTimetableTitle(language)))</p>"
        html += "<h1>\(badge(timetable.route)) \(escape(timetable.route.longName ?? "")) \(escape(TimetableText.towards(timetable.headsign, language)))</h1>"
        html += "<p>\(escape(TimetableText.longDate(timetable.date, language))) · \(escape(TimetableText.operators([timetable.agency.name], language)))</p>"
        if timetable.timepointsOnly { html += "<p class=\"small\">\(escape(TimetableText.timepointsNote(language)))</p>" }
        html += "<nav class=\"noprint\">"
        html += "<a href=\"/r/\(escape(PercentEncoding.encode(timetable.route.id)))?lang=\(language.rawValue)\">"
            + "\(escape(PhoneMessage.routePage.text(language)))</a> · "
        let other = (timetable.directionID ?? 0) == 0 ? 1 : 0
        html += "<a href=\"\(escape(path))?date=\(timetable.date)&amp;direction=\(other)&amp;lang=\(language.rawValue)\">\(language == .en ? "Other direction" : "Otro sentido")</a>"
        html += "</nav></div>\n<div class=\"scroll\"><table class=\"tt route\"><thead><tr><th scope=\"col\">\(escape(TimetableText.stopHeading(language)))</th>"
        for (index, trip) in timetable.trips.enumerated() {
            html += "<th scope=\"col\">\(escape(tripLabel(trip, shortName: shortNames[index], language: language, hours: hours)))</th>"
        }
        html += "</tr></thead><tbody>\n"
        for (row, stop) in timetable.stops.enumerated() {
            html += "<tr><th scope=\"row\"><a href=\"\(escape(StopLinks.page(stop)))?lang=\(language.rawValue)\">\(escape(stop.name))</a></th>"
            for trip in timetable.trips {
                if let time = trip.times[row] {
                    var text = TimetableText.clock(time, hours)
                    if trip.headwaySeconds != nil, let last = trip.lastTimes?[row] ?? nil {
                        text += "–" + TimetableText.clock(last, hours)
                    }
                    html += "<td>\(text)</td>"
                } else {
                    html += "<td class=\"none\">–</td>"
                }
            }
            html += "</tr>\n"
        }
        html += "</tbody></table></div>" + clockNote(hours, language)
        html += "<p class=\"small\">\(escape(TimetableText.afterMidnightNote(language)))</p></main></body></html>\n"
        return html
    }

    static let stylesheet = """
        body.timetable { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; color: #000; background: #fff; overflow-wrap: normal; }
        body.timetable main { max-width: 60rem; margin: 0 auto; padding: 0 0.75rem; }
        body.landscape main { max-width: none; }
        .timetable .intro { padding-top: 0.75rem; }
        .timetable .intro nav a { display: inline-block; min-height: 44px; padding: 0.6rem 0.2rem; }
        .timetable p.code { display: block; border: 0; padding: 0; font-size: 1rem; }
        .timetable h1 { font-size: 1.6rem; margin: 0.2rem 0; }
        .timetable h2 { font-size: 1.15rem; margin: 1rem 0 0.3rem; }
        .timetable .kicker, .timetable .small { color: #444; font-size: 0.85rem; margin: 0; }
        .timetable .code { font-weight: bold; margin: 0.2rem 0; }
        .timetable .validity { font-weight: bold; }
        .timetable .badge { display: inline-block; padding: 0.05rem 0.45rem; border-radius: 0.3rem; font-weight: bold; border: 1px solid #555; }
        table.tt { border-collapse: collapse; margin: 0.3rem 0 0.6rem; width: 100%; }
        .tt th, .tt td { border: 1px solid #bbb; padding: 0.15rem 0.35rem; text-align: left; vertical-align: top; }
        .tt thead th { background: #ddd; }
        .tt .hour { font-weight: bold; width: 2.2em; }
        .tt .min span { display: inline-block; min-width: 2.3em; }
        .tt.route td { text-align: center; white-space: nowrap; }
        .tt.route th[scope=row] { white-space: nowrap; }
        .tt.route thead th { white-space: nowrap; }
        .tt td, .tt th { border-bottom: 1px solid #bbb; }
        /* Separate borders: a collapsed border of the sticky column would let the times show through beside it. */
        table.tt.route { border-collapse: separate; border-spacing: 0; border-left: 1px solid #bbb; border-top: 1px solid #bbb; }
        .tt.route th, .tt.route td { border-width: 0 1px 1px 0; }
        /* The stop column stays in place while the times scroll sideways under it. */
        .tt.route th[scope=row], .tt.route thead th:first-child { position: sticky; left: 0; z-index: 1; background: #fff;
          box-shadow: inset -2px 0 0 #888; }
        .tt.route thead th:first-child { background: #ddd; z-index: 2; }
        .tt.route tbody tr:nth-child(even) th[scope=row] { background: #f2f2f2; }
        @media (max-width: 40rem) {
          .tt.route th[scope=row] { white-space: normal; min-width: 8rem; max-width: 11rem; overflow-wrap: break-word; }
        }
        .tt .none { color: #888; }
        .tt tbody tr:nth-child(even) { background: #f2f2f2; }
        .notes { display: grid; grid-template-columns: auto 1fr; gap: 0 0.6rem; font-size: 0.85rem; margin: 0; }
        .notes dt { font-weight: bold; }
        .notes dd { margin: 0; }
        .scroll { overflow-x: auto; }
        .notice { font-weight: bold; }
        @page { size: A4 portrait; margin: 12mm; }
        @page wide { size: A4 landscape; margin: 10mm; }
        body.landscape { page: wide; }
        @media print {
          .noprint, nav { display: none; }
          .tt.route th[scope=row], .tt.route thead th:first-child { position: static; box-shadow: none; }
          body.timetable { margin: 0; font-size: 9pt; }
          .scroll { overflow: visible; }
          section.route { break-inside: avoid; }
          .tt thead { display: table-header-group; }
          .tt tr { break-inside: avoid; }
          a { color: #000; text-decoration: none; }
          .timetable .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        @media print { body.landscape { font-size: 7pt; } }

        """
}

/// The value a stop's URL and label carry: its code, else its ID (the one URL rule).
enum StopKeyKindValue {
    static func value(_ stop: StopInfo) -> String {
        if let code = stop.code, !code.isEmpty { return code }
        return stop.id
    }
}
