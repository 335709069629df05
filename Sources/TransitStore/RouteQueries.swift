import Foundation
import GRDB
import TransitModel

/// Why a route, an agency or a direction could not be found. Each case names what was asked for and what exists.
public enum RouteQueryError: Error, Equatable, CustomStringConvertible {
    /// No route has this route_id, short name or long name; `suggestions` are routes it probably meant, else
    /// `known` lists the first routes of the catalog.
    case noSuchRoute(query: String, suggestions: [RouteInfo], known: [RouteInfo] = [])
    /// Several routes share this name; `candidates` are all of them.
    case ambiguousRoute(query: String, candidates: [RouteInfo])
    /// No agency has this agency_id or name; `known` lists them all.
    case noSuchAgency(query: String, known: [AgencyInfo])
    /// The route has no trips in this direction; `known` lists its directions (nil: the feed gives none).
    case noSuchDirection(route: String, direction: Int, known: [Int?])

    public var description: String {
        func routeText(_ route: RouteInfo) -> String {
            let label = TerminalText.sanitize(route.label, maxLength: 30)
            let long = route.longName.map { " " + TerminalText.sanitize($0, maxLength: 60) } ?? ""
            return "\(label)\(route.shortName == nil ? "" : long) (\(TerminalText.sanitize(route.id, maxLength: 40)))"
        }
        switch self {
        case let .noSuchRoute(query, suggestions, known):
            return
                "no such route: '\(TerminalText.sanitize(query, maxLength: 60))' (give a route_id, short name or long name)"
                + (suggestions.isEmpty ? "" : "; did you mean: " + suggestions.map(routeText).joined(separator: ", "))
                + (known.isEmpty ? "" : "; routes include: " + known.map(routeText).joined(separator: ", "))
        case let .ambiguousRoute(query, candidates):
            return "several routes are called '\(TerminalText.sanitize(query, maxLength: 60))': "
                + candidates.map(routeText).joined(separator: ", ") + "; give a route_id to choose"
        case let .noSuchAgency(query, known):
            let list = known.map {
                "\(TerminalText.sanitize($0.name, maxLength: 60))"
                    + ($0.id.isEmpty ? "" : " (\(TerminalText.sanitize($0.id, maxLength: 40)))")
            }
            return "no such agency: '\(TerminalText.sanitize(query, maxLength: 60))' (give an agency_id or name)"
                + (list.isEmpty ? "" : "; agencies: " + list.joined(separator: ", "))
        case let .noSuchDirection(route, direction, known):
            let list = known.map { $0.map(String.init) ?? "none given" }.joined(separator: ", ")
            return "route '\(TerminalText.sanitize(route, maxLength: 30))' has no trips in direction \(direction)"
                + (known.isEmpty ? " (it has no trips)" : " (its directions: \(list))")
        }
    }
}

extension RouteDatabase {
    // MARK: - The catalog

    /// The operators and their routes, in feed order: agencies by their place in agency.txt, routes by
    /// `route_sort_order` (routes without one after those with one), then by short name in natural order ("2"
    /// before "10"), then by route_id.
    ///
    /// - Parameters:
    ///   - agency: an agency_id, else an agency name ignoring accents, case and punctuation (exact, else
    ///     contained); no match → `RouteQueryError.noSuchAgency`.
    ///   - search: text to find in an agency's name (all its routes match) or a route's short or long name,
    ///     ignoring accents, case and punctuation ("cumbaya" finds "Cumbayá"). Agencies without a match are left
    ///     out.
    public func routeCatalog(agency: String? = nil, search: String? = nil) throws -> RouteCatalog {
        let searchKey = try search.map { text -> String in
            let key = TextFolding.searchKey(text)
            guard !key.isEmpty else {
                throw LookupError.invalidQuery(
                    "the search text '\(TerminalText.sanitize(text, maxLength: 40))' has no letters or digits to look for"
                )
            }
            return key
        }
        return try read { db in
            let agencies = try Self.agencies(db, namespaces: namespaces)
            var chosen = agencies
            if let agency {
                let text = agency.trimmingCharacters(in: .whitespaces)
                let key = TextFolding.searchKey(text)
                chosen = agencies.filter { $0.info.id == text && !text.isEmpty }
                if chosen.isEmpty {
                    chosen = agencies.filter { !key.isEmpty && TextFolding.searchKey($0.info.name) == key }
                }
                if chosen.isEmpty {
                    chosen = agencies.filter { !key.isEmpty && TextFolding.searchKey($0.info.name).contains(key) }
                }
                if chosen.isEmpty { throw RouteQueryError.noSuchAgency(query: text, known: agencies.map(\.info)) }
            }
            let ordered = try orderedRoutes(db)
            var result: [AgencyRoutes] = []
            for entry in chosen {
                var list = ordered.filter { $0.agency == entry.index }.map(\.info)
                if let searchKey, !Self.matches(entry.info.name, searchKey) {
                    list = list.filter { Self.matches($0.shortName, searchKey) || Self.matches($0.longName, searchKey) }
                    if list.isEmpty { continue }
                }
                result.append(AgencyRoutes(agency: entry.info, routes: list))
            }
            return RouteCatalog(agencyFilter: agency, search: search, agencies: result)
        }
    }

    /// Whether `name` contains the folded `key`, also with spaces squeezed out ("lay" finds "La Y").
    static func matches(_ name: String?, _ key: String) -> Bool {
        guard let name else { return false }
        let folded = TextFolding.searchKey(name)
        return folded.contains(key)
            || folded.replacingOccurrences(of: " ", with: "").contains(key.replacingOccurrences(of: " ", with: ""))
    }

    static func agencies(_ db: Database, namespaces: FeedNamespaces) throws -> [(index: Int, info: AgencyInfo)] {
        try Row.fetchAll(
            db,
            sql: "SELECT agency_idx, agency_id, agency_name, agency_url, agency_phone FROM agency ORDER BY agency_idx"
        ).map { row in
            (row[0], agencyInfo(row, from: 1, namespaces))
        }
    }

    /// agency_id, agency_name, agency_url and agency_phone from column `from` on, its feed named from its id in a
    /// database of several feeds.
    static func agencyInfo(_ row: Row, from column: Int, _ namespaces: FeedNamespaces) -> AgencyInfo {
        let id: String = row[column]
        return AgencyInfo(
            id: id, name: row[column + 1], url: row[column + 2], phone: row[column + 3],
            feedID: namespaces.feedID(of: id))
    }

    /// Every route with its agency key, in catalog order.
    func orderedRoutes(_ db: Database) throws -> [(index: Int, agency: Int?, info: RouteInfo)] {
        var list: [(index: Int, agency: Int?, order: Int?, info: RouteInfo)] = []
        for row in try Row.fetchAll(db, sql: "SELECT route_idx, agency_idx, route_sort_order FROM routes") {
            guard let info = routes[row[0]] else { continue }
            list.append((row[0], row[1], row[2], info))
        }
        list.sort { a, b in
            if a.order != b.order { return (a.order ?? .max) < (b.order ?? .max) }
            switch a.info.label.compare(b.info.label, options: [.numeric, .caseInsensitive]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return a.info.id < b.info.id
            }
        }
        return list.map { ($0.index, $0.agency, $0.info) }
    }

    // MARK: - Finding one route

    /// A route by route_id; else by short name (any case); else by short or long name ignoring accents, case and
    /// punctuation; else the one route whose short or long name contains it so ("cumbaya" finds "Alimentador Río
    /// Coca – Cumbayá"). Several routes with that name → `ambiguousRoute`; none, or several containing it →
    /// `noSuchRoute` with up to five routes whose names contain the query or whose short name is one or two edits
    /// away (else the catalog's first eight routes).
    public func findRoute(_ query: String) throws -> RouteInfo {
        try routes[findRouteIndex(query)]!
    }

    func findRouteIndex(_ query: String) throws -> Int {
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw LookupError.invalidQuery("the route is empty: give a route_id, short name or long name")
        }
        guard text.unicodeScalars.count <= Self.maxQueryLength,
            !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else {
            throw LookupError.invalidQuery(
                "the route '\(TerminalText.sanitize(text, maxLength: 40))' is too long or contains control characters")
        }
        let all = try read { try orderedRoutes($0) }
        if let exact = all.first(where: { $0.info.id == text }) { return exact.index }
        if !namespaces.isEmpty {  // a bare route_id: the route of the one feed that has it
            let inFeeds = all.filter { namespaces.bareID($0.info.id) == text }
            if inFeeds.count == 1 { return inFeeds[0].index }
            if inFeeds.count > 1 { throw RouteQueryError.ambiguousRoute(query: text, candidates: inFeeds.map(\.info)) }
        }
        let lower = text.lowercased()
        let key = TextFolding.searchKey(text)
        let passes: [((index: Int, agency: Int?, info: RouteInfo)) -> Bool] = [
            { $0.info.shortName?.lowercased() == lower },
            { !key.isEmpty && $0.info.shortName.map(TextFolding.searchKey) == key },
            { !key.isEmpty && $0.info.longName.map(TextFolding.searchKey) == key },
        ]
        for pass in passes {
            let found = all.filter(pass)
            if found.count == 1 { return found[0].index }
            if found.count > 1 { throw RouteQueryError.ambiguousRoute(query: text, candidates: found.map(\.info)) }
        }
        var suggestions: [RouteInfo] = []
        if !key.isEmpty {
            let containing = all.filter { Self.matches($0.info.shortName, key) || Self.matches($0.info.longName, key) }
            if containing.count == 1 { return containing[0].index }  // "ecovia", "cumbaya": one route has it
            suggestions = containing.map(\.info)
        }
        let allowedEdits = min(2, text.unicodeScalars.count / 2)
        for entry in all where !suggestions.contains(entry.info) {
            guard let short = entry.info.shortName else { continue }
            if Self.editDistance(short.lowercased(), lower, limit: allowedEdits) <= allowedEdits {
                suggestions.append(entry.info)
            }
        }
        throw RouteQueryError.noSuchRoute(
            query: text, suggestions: Array(suggestions.prefix(5)),
            known: suggestions.isEmpty ? all.prefix(8).map(\.info) : [])
    }

    // MARK: - A route's detail

    /// A route's directions for `date` (default: today in the agency's time zone): each direction's stops in
    /// the order of its longest pattern (most stops; ties: most trips), the other patterns as branches, the first
    /// and last trip, and the typical headway per `DayPeriod` — all from the departures at each trip's first stop
    /// (a frequencies.txt period counts as a departure every `headway_secs` from its start to its end). A date
    /// outside the feed's calendar → `LookupError.outsideServiceRange`; a direction the route does not have →
    /// `RouteQueryError.noSuchDirection`.
    public func routeDetail(_ query: String, direction: Int? = nil, date: ServiceDate? = nil) throws -> RouteDetail {
        let routeIndex = try findRouteIndex(query)
        let route = routes[routeIndex]!
        let date = date ?? ServiceDate.containing(Date(), in: timeZone)
        try checkServiceRange(date)
        let active = Set(calendar.activeServices(on: date))
        return try read { db in
            struct Trip {
                var index: Int, service: Int, headsign: String, stops: [Int] = [], start: Int?
            }
            var tripsByDirection: [Int: [Trip]] = [:]
            var current: (direction: Int, trip: Trip)?
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT t.trip_idx, COALESCE(t.direction_id, -1), t.service_idx, COALESCE(t.trip_headsign, ''),
                           st.stop_idx, st.departure_time
                    FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx
                    WHERE t.route_idx = ? ORDER BY t.direction_id, t.trip_idx, st.stop_sequence
                    """, arguments: [routeIndex])
            while let row = try rows.next() {
                let tripIndex: Int = row[0]
                if current?.trip.index != tripIndex {
                    if let done = current { tripsByDirection[done.direction, default: []].append(done.trip) }
                    current = (row[1], Trip(index: tripIndex, service: row[2], headsign: row[3], start: nil))
                }
                current!.trip.stops.append(row[4])
                if current!.trip.start == nil, let time: Int = row[5] { current!.trip.start = time }
            }
            if let done = current { tripsByDirection[done.direction, default: []].append(done.trip) }

            let known = tripsByDirection.keys.sorted()
            let wanted: [Int]
            if let direction {
                guard tripsByDirection[direction] != nil else {
                    throw RouteQueryError.noSuchDirection(
                        route: route.label, direction: direction, known: known.map { $0 < 0 ? nil : $0 })
                }
                wanted = [direction]
            } else {
                wanted = known
            }
            var stopCache: [Int: StopInfo] = [:]
            func stop(_ index: Int) throws -> StopInfo {
                if let known = stopCache[index] { return known }
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?"),
                    arguments: [index])
                let info =
                    row.map(stopInfo)
                    ?? StopInfo(
                        id: "?", code: nil, name: "?", parentStationID: nil, parentStationName: nil, platformCode: nil,
                        wheelchairBoarding: .unknown, latitude: nil, longitude: nil, locationType: 0)
                stopCache[index] = info
                return info
            }

            var directions: [RouteDirection] = []
            for directionKey in wanted {
                let trips = tripsByDirection[directionKey]!
                // Patterns: the same stops in the same order.
                var patterns: [[Int]: (trips: Int, headsigns: [String: Int], firstTrip: Int)] = [:]
                for trip in trips {
                    var entry = patterns[trip.stops] ?? (0, [:], trip.index)
                    entry.trips += 1
                    if !trip.headsign.isEmpty { entry.headsigns[trip.headsign, default: 0] += 1 }
                    entry.firstTrip = min(entry.firstTrip, trip.index)
                    patterns[trip.stops] = entry
                }
                let ranked = patterns.sorted { a, b in
                    (a.key.count, a.value.trips, -a.value.firstTrip) > (b.key.count, b.value.trips, -b.value.firstTrip)
                }
                let main = ranked[0]
                // Named as departures are (`TripDestination`): the most common headsign, else the last stop.
                func headsign(_ counts: [String: Int], stops: [Int]) throws -> String {
                    let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key ?? ""
                    return TripDestination.named(
                        headsign: best, lastStopName: try best.isEmpty ? stops.last.map { try stop($0).name } : nil,
                        route: route)
                }
                let mainStops = main.key
                let mainSet = Set(mainStops)
                struct BranchKey: Hashable { var start: Int?, end: Int?, other: [Int] }
                var branches: [BranchKey: (trips: Int, headsigns: [String: Int], stops: [Int])] = [:]
                var branchOrder: [BranchKey] = []
                for (stops, pattern) in ranked.dropFirst() {
                    guard let first = stops.first, let last = stops.last else { continue }
                    let key = BranchKey(
                        start: first == mainStops.first ? nil : first, end: last == mainStops.last ? nil : last,
                        other: stops.filter { !mainSet.contains($0) })
                    if branches[key] == nil { branchOrder.append(key) }
                    var entry = branches[key] ?? (0, [:], stops)
                    entry.trips += pattern.trips
                    entry.headsigns.merge(pattern.headsigns, uniquingKeysWith: +)
                    branches[key] = entry
                }
                var routeBranches: [RouteBranch] = []
                let byTrips = branchOrder.enumerated().sorted {
                    (branches[$0.element]!.trips, -$0.offset) > (branches[$1.element]!.trips, -$1.offset)
                }
                for key in byTrips.map(\.element) {
                    let entry = branches[key]!
                    // A pattern with the same ends that only leaves stops out (an express) is no branch: every stop
                    // it serves is listed, and a passenger boards where the list says.
                    if key.start == nil && key.end == nil && key.other.isEmpty { continue }
                    routeBranches.append(
                        RouteBranch(
                            headsign: try headsign(entry.headsigns, stops: entry.stops), trips: entry.trips,
                            startsAt: try key.start.map(stop), endsAt: try key.end.map(stop),
                            otherStops: try key.other.map(stop)))
                }

                // Departures from each running trip's first stop on the date.
                var starts: [Int] = []
                for trip in trips where active.contains(trip.service) {
                    if let periods = frequencies[trip.index] {
                        for period in periods where period.headway > 0 {
                            starts += Swift.stride(from: period.start, to: period.end, by: period.headway)
                        }
                    } else if let start = trip.start {
                        starts.append(start)
                    }
                }
                starts.sort()
                directions.append(
                    RouteDirection(
                        directionID: directionKey < 0 ? nil : directionKey,
                        headsign: try headsign(main.value.headsigns, stops: mainStops),
                        stops: try mainStops.map(stop), branches: routeBranches, tripsOnDate: starts.count,
                        firstDeparture: starts.first.map { GTFSTime(seconds: $0).description },
                        lastDeparture: starts.last.map { GTFSTime(seconds: $0).description },
                        headways: Self.headways(starts)))
            }
            let agencyRow = try Row.fetchOne(
                db,
                sql: """
                    SELECT a.agency_id, a.agency_name, a.agency_url, a.agency_phone FROM routes r
                    JOIN agency a ON a.agency_idx = r.agency_idx WHERE r.route_idx = ?
                    """, arguments: [routeIndex])
            let agency =
                agencyRow.map { Self.agencyInfo($0, from: 0, namespaces) }
                ?? AgencyInfo(id: "", name: route.agency, url: nil, phone: nil, feedID: route.feedID)
            return RouteDetail(
                route: route, agency: agency, serviceDate: date.description, timeZone: timeZone.identifier,
                directions: directions)
        }
    }

    /// The headway of each `DayPeriod` from sorted departure times (seconds of the service day). A gap counts for
    /// a period when both its departures lie in the same stretch of that period: night's early hours and its late
    /// ones are separate stretches, so the gap from 05:50 to 20:10 is no night headway.
    static func headways(_ starts: [Int]) -> [PeriodHeadway] {
        let boundaries = (0..<4).flatMap { day in [6, 9, 16, 20].map { ($0 + 24 * day) * 3600 } }
        func stretch(_ seconds: Int) -> Int { boundaries.filter { $0 <= seconds }.count }
        var departures: [DayPeriod: Int] = [:]
        var gaps: [DayPeriod: [Int]] = [:]
        for (i, start) in starts.enumerated() {
            let period = DayPeriod.containing(seconds: start)
            departures[period, default: 0] += 1
            if i > 0, stretch(starts[i - 1]) == stretch(start) {
                gaps[period, default: []].append(start - starts[i - 1])
            }
        }
        return DayPeriod.allCases.map { period in
            let list = (gaps[period] ?? []).sorted()
            let minutes = { (seconds: Int) in Int((Double(seconds) / 60).rounded()) }
            return PeriodHeadway(
                period: period, departures: departures[period] ?? 0,
                typicalMinutes: list.isEmpty ? nil : minutes(list[(list.count - 1) / 2]),
                shortestMinutes: list.first.map(minutes), longestMinutes: list.last.map(minutes))
        }
    }
}
