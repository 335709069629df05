import Foundation
import TransitModel

/// The route catalog and a route's detail as plain text (`kiosk routes`, `kiosk route`) and as JSON (`--json`,
/// and the API's routes): renderings of the same `RouteCatalog` and `RouteDetail` values. Every string from the
/// feed is sanitised for the terminal.
public enum RouteCatalogText {
    static func clean(_ text: String, _ length: Int = 80) -> String { TerminalText.sanitize(text, maxLength: length) }

    /// "Name (id) · url · phone" for an agency heading.
    static func agencyLine(_ agency: AgencyInfo, language: Language) -> String {
        var parts = [clean(agency.name) + (agency.id.isEmpty ? "" : "  (\(clean(agency.id, 40)))")]
        if let url = agency.url { parts.append(clean(url)) }
        if let phone = agency.phone { parts.append(Message.agencyPhone(clean(phone, 40)).text(language)) }
        return parts.joined(separator: " · ")
    }

    static func colors(_ route: RouteInfo) -> String {
        guard let color = route.color else { return "" }
        return "#\(clean(color, 6))" + (route.textColor.map { "/#\(clean($0, 6))" } ?? "")
    }

    /// One agency a paragraph: its name, id and contact, then one line per route: short name, mode, long name,
    /// colour (and text colour).
    public static func render(_ catalog: RouteCatalog, language: Language) -> String {
        var lines: [String] = []
        if catalog.agencies.isEmpty || catalog.routeCount == 0, let search = catalog.search {
            lines.append(Message.noRouteMatches(clean(search, 60)).text(language))
        }
        for entry in catalog.agencies {
            if !lines.isEmpty { lines.append("") }
            lines.append(agencyLine(entry.agency, language: language))
            for route in entry.routes {
                let long = route.shortName == nil ? "" : clean(route.longName ?? "")
                lines.append(
                    "  \(StopViewText.pad(clean(route.label, 30), 6)) \(StopViewText.pad(route.mode.name(language), 11)) \(StopViewText.pad(long, 44)) \(colors(route))"
                )
            }
        }
        if catalog.routeCount > 0 {
            lines.append("")
            lines.append(Message.routeCount(catalog.routeCount).text(language))
        }
        return trimmed(lines)
    }

    /// The route's heading and operator's contact, then per direction: its stops numbered in travel order (code
    /// in brackets), its branches, and its service on the date (trips, first and last, headway per period).
    public static func render(_ detail: RouteDetail, language: Language) -> String {
        let route = detail.route
        var lines: [String] = []
        var title = clean(route.label, 30)
        if route.shortName != nil, let long = route.longName { title += "  " + clean(long) }
        var facts = [route.mode.name(language)]
        if !colors(route).isEmpty { facts.append(colors(route)) }
        lines.append(title + "  · " + facts.joined(separator: " · "))
        lines.append(agencyLine(detail.agency, language: language))
        for direction in detail.directions {
            lines.append("")
            lines.append(
                Message.routeDirectionHeading(
                    direction: direction.directionID, headsign: clean(direction.headsign, 60),
                    stops: direction.stops.count
                ).text(language))
            for (number, stop) in direction.stops.enumerated() {
                let code = stop.code.map { " [\(clean($0, 20))]" } ?? ""
                lines.append("  \(String(format: "%3d", number + 1))  \(clean(stop.name, 60))\(code)")
            }
            if !direction.branches.isEmpty {
                lines.append("  " + Message.routeBranchesHeading.text(language))
                for branch in direction.branches {
                    var notes: [String] = []
                    if let start = branch.startsAt {
                        notes.append(Message.tripsStartAt(clean(start.name, 60)).text(language))
                    }
                    if let end = branch.endsAt { notes.append(Message.tripsEndAt(clean(end.name, 60)).text(language)) }
                    if !branch.otherStops.isEmpty {
                        notes.append(
                            Message.tripsAlsoServe(branch.otherStops.map { clean($0.name, 60) }.joined(separator: ", "))
                                .text(language))
                    }
                    lines.append(
                        "    · " + notes.joined(separator: "; ") + " (" + Message.tripCount(branch.trips).text(language)
                            + ", " + Message.towards(clean(branch.headsign, 60)).text(language) + ")")
                }
            }
            lines.append(
                "  " + Message.routeServiceOn(date: detail.serviceDate, trips: direction.tripsOnDate).text(language))
            guard let first = direction.firstDeparture, let last = direction.lastDeparture else { continue }
            lines.append("    " + Message.firstAndLastTrip(first: clock(first), last: clock(last)).text(language))
            for headway in direction.headways {
                let hours = headway.period.hours
                let span = "\(twoDigits(hours.start)):00–\(twoDigits(hours.end)):00"
                let how: String
                if headway.departures == 0 {
                    how = Message.noServiceInPeriod.text(language)
                } else if let typical = headway.typicalMinutes {
                    how =
                        Message.headwayEvery(
                            typical: typical, shortest: headway.shortestMinutes ?? typical,
                            longest: headway.longestMinutes ?? typical
                        ).text(language) + " · " + Message.departureCount(headway.departures).text(language)
                } else {
                    how = Message.departureCount(headway.departures).text(language)
                }
                lines.append(
                    "    \(StopViewText.pad(Message.dayPeriod(headway.period).text(language), 22)) \(span)  \(how)")
            }
        }
        return trimmed(lines)
    }

    /// `05:30:00` → `05:30`; `25:10:00` → `01:10 (+1)`, so a trip after midnight reads as the next day.
    static func clock(_ gtfs: String) -> String {
        guard let time = GTFSTime(parsing: gtfs) else { return clean(gtfs, 10) }
        let days = time.seconds / 86_400
        return time.clockText + (days > 0 ? " (+\(days))" : "")
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func trimmed(_ lines: [String]) -> String {
        lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(
            separator: "\n")
    }
}

/// The catalog and a route's detail as the JSON `--json` prints (snake_case keys declared by the values).
public enum RouteCatalogJSON {
    public static func render(_ catalog: RouteCatalog) throws -> String {
        try KioskJSON.encode(catalog, timeZone: .current, keysDeclaredInSnakeCase: true)
    }

    public static func render(_ detail: RouteDetail) throws -> String {
        try KioskJSON.encode(
            detail, timeZone: TimeZone(identifier: detail.timeZone) ?? .current, keysDeclaredInSnakeCase: true)
    }
}
