import Foundation
import GRDB
import TransitModel

/// A boarding stop as a printed label shows it: the stop, the routes that depart from it, and the agencies
/// that run them. `kiosk labels` turns these into `Labels.LabelStop` values (TransitStore does not depend on
/// the label library, so the two modules meet at the command).
public struct LabelStopRecord: Sendable, Equatable {
    public var stop: StopInfo
    /// Routes with departures at the stop (`stop_routes`), in the order the stop view lists them; for a stop
    /// where routes only arrive (a terminus), those routes.
    public var routes: [RouteInfo]
    /// Names of the agencies running `routes`, in that order, without repeats. For a stop no route calls at,
    /// the feed's agency when it has only one (a label still needs to say whose stop it is).
    public var agencies: [String]

    public init(stop: StopInfo, routes: [RouteInfo], agencies: [String]) {
        self.stop = stop
        self.routes = routes
        self.agencies = agencies
    }
}

/// Why a set of stops to label could not be chosen. Every case names what was asked for.
public enum LabelSelectionError: Error, Equatable, CustomStringConvertible {
    /// Stop IDs or codes the database does not know, all of them (so one run lists every typo).
    case unknownStops([String])
    /// No route has this route_id or short name; `known` lists some that exist.
    case unknownRoute(query: String, known: [String])
    /// Several routes share this short name; `candidates` are their route_ids.
    case ambiguousRoute(query: String, candidates: [String])
    /// The route exists but no trip of it calls at a boarding stop.
    case routeWithoutStops(routeID: String)
    /// The database has no boarding stops at all.
    case noStops
    /// `--feed` names no feed of the database; `known` lists them.
    case unknownFeed(feed: String, known: [String])

    public var description: String {
        switch self {
        case let .unknownStops(queries):
            let list = queries.map { "'\(TerminalText.sanitize($0, maxLength: 60))'" }.joined(separator: ", ")
            return "unknown stop\(queries.count == 1 ? "" : "s") (\(queries.count)): \(list); nothing was written"
        case let .unknownRoute(query, known):
            let list = known.map { TerminalText.sanitize($0, maxLength: 30) }.joined(separator: ", ")
            return "no route '\(TerminalText.sanitize(query, maxLength: 60))' (give a route_id or short name)"
                + (known.isEmpty ? "" : "; routes include: \(list)")
        case let .ambiguousRoute(query, candidates):
            return
                "several routes are called '\(TerminalText.sanitize(query, maxLength: 60))': give one of their route_ids: "
                + candidates.map { TerminalText.sanitize($0, maxLength: 40) }.joined(separator: ", ")
        case let .routeWithoutStops(routeID):
            return
                "route '\(TerminalText.sanitize(routeID, maxLength: 60))' has no stops (no trip of it calls at a boarding stop): there is nothing to label"
        case .noStops:
            return "the route database has no boarding stops: there is nothing to label"
        case let .unknownFeed(feed, known):
            return
                "the route database has no feed '\(TerminalText.sanitize(feed, maxLength: 40))'"
                + (known.isEmpty ? "" : "; its feeds: \(known.joined(separator: ", "))")
        }
    }
}

extension RouteDatabase {
    /// The stops named by `queries` (stop IDs, or stop codes, as `kiosk lookup` reads them), in the order given,
    /// without repeats. A station stands for its boarding platforms, an entrance for its station's platforms,
    /// so "label this station" labels every pole of it. Every unknown query is reported at once.
    public func labelStops(ids queries: [String]) throws -> [LabelStopRecord] {
        var indexes: [Int] = []
        var unknown: [String] = []
        for query in queries {
            do {
                let resolved = try resolveStop(.idOrCode(query))
                indexes.append(contentsOf: resolved.platformIndexes)
            } catch LookupError.noSuchStop {
                unknown.append(query)
            } catch LookupError.invalidQuery {
                unknown.append(query)
            }
        }
        if !unknown.isEmpty { throw LabelSelectionError.unknownStops(unknown) }
        var seen = Set<Int>()
        return try labelRecords(indexes.filter { seen.insert($0).inserted })
    }

    /// The boarding stops a route's trips call at, in travel order: the stops of its longest trip in each
    /// direction (direction 0 first), then any stop only shorter patterns serve, by code. Staff walking a line
    /// with a stack of labels meet them in that order.
    ///
    /// `route` is a route_id, or a short name when exactly one route has it.
    public func labelStops(route query: String) throws -> [LabelStopRecord] {
        let (routeIndex, routeID) = try resolveRoute(query)
        let ordered: [Int] = try read { db in
            // The longest trip of each direction gives the travel order.
            let counts = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.trip_idx, COALESCE(t.direction_id, -1), COUNT(*) FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx
                    WHERE t.route_idx = ? GROUP BY t.trip_idx
                    """, arguments: [routeIndex])
            var longest: [Int: (trip: Int, stops: Int)] = [:]
            for row in counts {
                let trip: Int = row[0], direction: Int = row[1], stops: Int = row[2]
                if let best = longest[direction], best.stops > stops || (best.stops == stops && best.trip < trip) {
                    continue
                }
                longest[direction] = (trip, stops)
            }
            var order: [Int] = []
            var seen = Set<Int>()
            for direction in longest.keys.sorted() {
                let stops = try Int.fetchAll(
                    db,
                    sql: """
                        SELECT st.stop_idx FROM stop_times st JOIN stops s ON s.stop_idx = st.stop_idx
                        WHERE st.trip_idx = ? AND s.location_type = 0 ORDER BY st.stop_sequence
                        """, arguments: [longest[direction]!.trip])
                for stop in stops where seen.insert(stop).inserted { order.append(stop) }
            }
            let all = try Int.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT st.stop_idx FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx JOIN stops s ON s.stop_idx = st.stop_idx
                    WHERE t.route_idx = ? AND s.location_type = 0 ORDER BY s.stop_code IS NULL, s.stop_code, s.stop_id
                    """, arguments: [routeIndex])
            for stop in all where seen.insert(stop).inserted { order.append(stop) }
            return order
        }
        guard !ordered.isEmpty else { throw LabelSelectionError.routeWithoutStops(routeID: routeID) }
        return try labelRecords(ordered)
    }

    /// Every boarding stop (`location_type` 0), by stop code then stop ID: the order of a printed catalogue.
    public func allLabelStops(feed: String? = nil) throws -> [LabelStopRecord] {
        var keys = 0...Int.max
        if let feed {
            guard let record = feeds.first(where: { $0.id == feed }) else {
                throw LabelSelectionError.unknownFeed(feed: feed, known: feeds.map(\.id))
            }
            keys = record.stopKeys
        }
        let indexes = try read { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT stop_idx FROM stops WHERE location_type = 0 AND stop_idx BETWEEN ? AND ?
                    ORDER BY stop_code IS NULL, stop_code, stop_id
                    """, arguments: [keys.lowerBound, keys.upperBound])
        }
        guard !indexes.isEmpty else { throw LabelSelectionError.noStops }
        return try labelRecords(indexes)
    }

    /// Stops by internal index, in the given order, each with its departing routes and their agencies.
    func labelRecords(_ indexes: [Int]) throws -> [LabelStopRecord] {
        try read { db in
            var stops: [Int: StopInfo] = [:]
            var routesAt: [Int: Set<Int>] = [:]
            let wanted = Set(indexes)
            // One pass over each table beats a query per stop once more than a handful are asked for; for a
            // few stops the primary-key lookups below are cheaper than scanning.
            if indexes.count > 64 {
                for row in try Row.fetchAll(db, sql: "SELECT \(RouteDatabase.stopColumns)") {
                    let index: Int = row[0]
                    if wanted.contains(index) { stops[index] = stopInfo(row) }
                }
                for row in try Row.fetchAll(db, sql: "SELECT stop_idx, route_idx FROM stop_routes") {
                    let stop: Int = row[0]
                    if wanted.contains(stop) { routesAt[stop, default: []].insert(row[1]) }
                }
            } else {
                for index in wanted {
                    if let row = try Row.fetchOne(
                        db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
                    {
                        stops[index] = stopInfo(row)
                    }
                    routesAt[index] = Set(
                        try Int.fetchAll(
                            db, sql: "SELECT route_idx FROM stop_routes WHERE stop_idx = ?", arguments: [index]))
                }
            }
            // A stop no route departs from (a terminus, an arrivals platform) is still served by the routes that
            // end there: they name it on the label, and say whose stop it is.
            for index in wanted where (routesAt[index] ?? []).isEmpty {
                routesAt[index] = Set(
                    try Int.fetchAll(
                        db,
                        sql: """
                            SELECT DISTINCT t.route_idx FROM stop_times st JOIN trips t ON t.trip_idx = st.trip_idx WHERE st.stop_idx = ?
                            """, arguments: [index]))
            }
            let agencyNames = try String.fetchAll(db, sql: "SELECT agency_name FROM agency ORDER BY agency_idx")
            let soleAgency = agencyNames.count == 1 ? agencyNames : []
            return indexes.compactMap { index -> LabelStopRecord? in
                guard let stop = stops[index] else { return nil }
                let serving = (routesAt[index] ?? []).compactMap { routes[$0] }.sorted(by: RouteDatabase.routeOrder)
                var agencies: [String] = []
                for route in serving where !route.agency.isEmpty && !agencies.contains(route.agency) {
                    agencies.append(route.agency)
                }
                return LabelStopRecord(stop: stop, routes: serving, agencies: agencies.isEmpty ? soleAgency : agencies)
            }
        }
    }
}

extension RouteDatabase {
    /// A route by route_id, or by short name (any case) when exactly one route has it; its key and route_id.
    /// Unknown or ambiguous names throw `LabelSelectionError` naming what exists.
    func resolveRoute(_ query: String) throws -> (index: Int, id: String) {
        let text = query.trimmingCharacters(in: .whitespaces)
        return try read { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT route_idx, route_id FROM routes WHERE route_id = ?", arguments: [text])
            {
                return (row[0], row[1])
            }
            let candidates = namespaces.candidates(for: text)
            if !candidates.isEmpty {  // a bare route_id: the route of the one feed that has it
                let inFeeds = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT route_idx, route_id FROM routes WHERE route_id IN (\(databaseQuestionMarks(count: candidates.count))) ORDER BY route_id",
                    arguments: StatementArguments(candidates))
                if inFeeds.count == 1 { return (inFeeds[0][0], inFeeds[0][1]) }
                if inFeeds.count > 1 {
                    throw LabelSelectionError.ambiguousRoute(query: text, candidates: inFeeds.map { $0[1] })
                }
            }
            let named = try Row.fetchAll(
                db,
                sql:
                    "SELECT route_idx, route_id FROM routes WHERE route_short_name = ? COLLATE NOCASE ORDER BY route_id",
                arguments: [text])
            if named.count == 1 { return (named[0][0], named[0][1]) }
            if named.count > 1 {
                throw LabelSelectionError.ambiguousRoute(query: text, candidates: named.map { $0[1] })
            }
            let known = try String.fetchAll(
                db,
                sql:
                    "SELECT COALESCE(route_short_name, route_id) FROM routes ORDER BY route_sort_order, route_short_name LIMIT 12"
            )
            throw LabelSelectionError.unknownRoute(query: text, known: known)
        }
    }
}
