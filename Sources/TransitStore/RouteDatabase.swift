import Foundation
import GRDB
import TransitModel

/// Why a lookup could not be answered. Each case says what a person can do about it.
public enum LookupError: Error, Equatable, CustomStringConvertible {
    case databaseMissing(path: String)
    case notARouteDatabase(path: String, reason: String)
    case invalidQuery(String)
    case noSuchStop(query: String, suggestions: [StopInfo])
    case outsideServiceRange(date: ServiceDate, start: ServiceDate, end: ServiceDate)
    case invalidTime(String)
    /// A local time the zone's clocks skip (daylight saving starts).
    case nonexistentLocalTime(text: String, timeZone: String)

    public var description: String {
        switch self {
        case let .databaseMissing(path):
            return "the route database \(path) does not exist; create it with: kiosk import FEED.zip --db \(path)"
        case let .notARouteDatabase(path, reason):
            return
                "\(path) is not a usable route database (\(reason)); rebuild it with: kiosk import FEED.zip --db \(path)"
        case let .invalidQuery(reason):
            return reason
        case let .noSuchStop(query, suggestions):
            let list = suggestions.map { s in
                "\(TerminalText.sanitize(s.name, maxLength: 60))\(s.code.map { " [\(TerminalText.sanitize($0, maxLength: 20))]" } ?? "") (\(TerminalText.sanitize(s.id, maxLength: 40)))"
            }
            return "no such stop: '\(TerminalText.sanitize(query, maxLength: 60))'"
                + (list.isEmpty ? "" : "; did you mean: " + list.joined(separator: ", "))
        case let .outsideServiceRange(date, start, end):
            return "\(date) is outside the timetable: it covers \(start) to \(end)"
        case let .invalidTime(text):
            return
                "cannot read the time '\(TerminalText.sanitize(text, maxLength: 40))': use a local date-time such as 2026-11-25T08:00"
        case let .nonexistentLocalTime(text, zone):
            return
                "'\(TerminalText.sanitize(text, maxLength: 40))' does not exist in \(zone): the clocks skip it when daylight saving time starts; give a time before or after the jump"
        }
    }
}

/// A read-only connection to a route database and the lookups every command shares.
///
/// Small, hot tables (routes, the service calendar, frequencies) are loaded once when the database is opened;
/// stop times are only ever read through the indexes, so a lookup touches a few hundred rows whatever the feed's size.
public final class RouteDatabase: Sendable {
    public let path: String
    public let timeZone: TimeZone
    public let feedName: String
    public let serviceStart: ServiceDate?
    public let serviceEnd: ServiceDate?
    public let feedHash: String
    /// When `kiosk import` wrote the database (ISO 8601, UTC), as recorded in its metadata.
    public let importedAt: String?
    /// Names the network in signed stop labels: the publisher's (or first agency's) web host, which stays the
    /// same across timetable updates, so labels outlive imports; the feed's file name when neither has a URL.
    public let feedID: String
    /// The GTFS feeds the database holds, in import order (empty for a file written before they were recorded).
    public let feeds: [FeedRecord]
    /// How its ids name their feed (`FEEDID:ID`); empty for a database of one feed.
    public let namespaces: FeedNamespaces
    /// The other stops of each stop's interchange of several feeds (`Interchanges`), by stop key.
    let interchangeMembers: [Int: [Int]]
    let connections: ReadConnections
    /// Each stop's nearby stops, once found (they do not depend on the time asked for).
    let nearbyCache = NearbyStopCache()
    /// Reads of this database that SQLite failed (a file corrupted after it was opened): `/health`, `/metrics`.
    public let readHealth = DatabaseReadHealth()
    let calendar: ServiceCalendar
    let routes: [Int: RouteInfo]
    /// Each route's place in the order passengers expect (`routeOrder`, then route_id), computed once: sorting a
    /// busy stop's routes by it is an integer comparison rather than a numeric string comparison per pair.
    let routeRank: [Int: Int]
    let frequencies: [Int: [Frequency]]
    /// Departures can run this many seconds past their service date's origin (e.g. 27:36:00 → 99,360).
    public let latestDepartureSeconds: Int
    /// The name of the last stop of trip `t` as an SQL expression (a departure's destination when the feed gives no
    /// headsign): the stop recorded at import (`trips.last_stop_idx`), or in a file written before it was, the stop
    /// of the trip's highest stop_sequence.
    let lastStopNameSQL: String

    /// A frequencies.txt period of a trip: a departure every `headway` seconds from `start` to `end`
    /// (seconds from the service day's origin).
    public struct Frequency: Sendable {
        public var start: Int, end: Int, headway: Int, exactTimes: Bool
    }

    public static let maxQueryLength = 256

    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw LookupError.databaseMissing(path: path) }
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "routes"
        do {
            connections = try Self.openConnections(path: path, configuration: configuration)
            let loaded = try connections.read {
                db -> (
                    metadata: [String: String], calendar: ServiceCalendar, routes: [Int: RouteInfo],
                    frequencies: [Int: [Frequency]], feedURL: String?, feeds: [FeedRecord], interchanges: [Int: [Int]]
                ) in
                let metadata = Dictionary(
                    try Row.fetchAll(db, sql: "SELECT key, value FROM feed_metadata").map {
                        ($0[0] as String, $0[1] as String)
                    }
                ) { a, _ in a }
                guard metadata["schema_version"] == String(Schema.version) else {
                    throw LookupError.notARouteDatabase(
                        path: path,
                        reason: "schema version \(metadata["schema_version"] ?? "none"), expected \(Schema.version)")
                }
                let feedURL = try String.fetchOne(
                    db,
                    sql: """
                        SELECT url FROM (SELECT feed_publisher_url AS url, 0 AS o FROM feed_info UNION ALL SELECT agency_url, agency_idx FROM agency)
                        WHERE url IS NOT NULL ORDER BY o LIMIT 1
                        """)
                let feeds = try FeedRecord.loadAll(db)
                return (
                    metadata, try ServiceCalendar.load(db),
                    try RouteDatabase.loadRoutes(db, namespaces: FeedNamespaces(feeds)),
                    try RouteDatabase.loadFrequencies(db), feedURL, feeds, try Interchanges.load(db)
                )
            }
            guard let zone = TimeZone(identifier: loaded.metadata["timezone"] ?? "") else {
                throw LookupError.notARouteDatabase(path: path, reason: "no valid agency time zone")
            }
            timeZone = zone
            feedName = loaded.metadata["feed_name"] ?? ""
            feedHash = loaded.metadata["feed_hash"] ?? ""
            importedAt = loaded.metadata["imported_at"]
            serviceStart = Int(loaded.metadata["service_start"] ?? "").flatMap(ServiceDate.init(yyyymmdd:))
            serviceEnd = Int(loaded.metadata["service_end"] ?? "").flatMap(ServiceDate.init(yyyymmdd:))
            latestDepartureSeconds = Int(loaded.metadata["latest_departure_seconds"] ?? "") ?? 48 * 3600
            feedID = loaded.feedURL.flatMap { URL(string: $0)?.host?.lowercased() } ?? feedName
            feeds = loaded.feeds
            namespaces = FeedNamespaces(loaded.feeds)
            interchangeMembers = loaded.interchanges
            calendar = loaded.calendar
            routes = loaded.routes
            routeRank = Dictionary(
                uniqueKeysWithValues: loaded.routes.sorted {
                    RouteDatabase.routeOrder($0.value, $1.value)
                        || (!RouteDatabase.routeOrder($1.value, $0.value) && $0.value.id < $1.value.id)
                }.enumerated().map { ($0.element.key, $0.offset) })
            frequencies = loaded.frequencies
            let recorded = try connections.read { db in
                try db.columns(in: "trips").contains { $0.name == "last_stop_idx" }
            }
            lastStopNameSQL =
                recorded
                ? "(SELECT ls.stop_name FROM stops ls WHERE ls.stop_idx = t.last_stop_idx)"
                : """
                (SELECT ls.stop_name FROM stop_times lt JOIN stops ls ON ls.stop_idx = lt.stop_idx
                 WHERE lt.trip_idx = t.trip_idx ORDER BY lt.stop_sequence DESC LIMIT 1)
                """
        } catch let error as LookupError {
            throw error
        } catch let error as DatabaseError {
            throw LookupError.notARouteDatabase(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Every route by its key, its feed named from its id in a database of several feeds.
    static func loadRoutes(_ db: Database, namespaces: FeedNamespaces) throws -> [Int: RouteInfo] {
        var routes: [Int: RouteInfo] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT r.route_idx, r.route_id, r.route_short_name, r.route_long_name, r.route_type, r.route_color, r.route_text_color, a.agency_name
                FROM routes r LEFT JOIN agency a ON a.agency_idx = r.agency_idx
                """)
        {
            routes[row[0]] = RouteInfo(
                id: row[1], shortName: row[2], longName: row[3], mode: RouteMode(gtfsType: row[4]),
                color: row[5], textColor: row[6], agency: row[7] ?? "", feedID: namespaces.feedID(of: row[1]))
        }
        return routes
    }

    static func loadFrequencies(_ db: Database) throws -> [Int: [Frequency]] {
        var result: [Int: [Frequency]] = [:]
        for row in try Row.fetchAll(
            db,
            sql:
                "SELECT trip_idx, start_time, end_time, headway_secs, exact_times FROM frequencies ORDER BY trip_idx, start_time"
        ) {
            result[row[0], default: []].append(
                Frequency(start: row[1], end: row[2], headway: row[3], exactTimes: (row[4] as Int) == 1))
        }
        return result
    }

    /// Every route of the feed (loaded when the database was opened), in route_id order.
    public var allRoutes: [RouteInfo] { routes.values.sorted { $0.id < $1.id } }

    /// Opens the read connections, again if an import replaced the file while they were being opened.
    private static func openConnections(path: String, configuration: Configuration) throws -> ReadConnections {
        let attempts = 4
        for _ in 0..<attempts {
            do {
                return try ReadConnections(path: path, configuration: configuration)
            } catch is ReadConnections.ReplacedWhileOpening {
                continue
            }
        }
        throw LookupError.notARouteDatabase(
            path: path, reason: "the file was replaced by another import each of the \(attempts) times it was opened")
    }

    /// Runs `body` with read access, on one of the database's connections (`ReadConnections`).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try connections.read(body)
        } catch let error as DatabaseError {
            if Self.meansDamage(error.resultCode) { readHealth.record(error.message ?? "\(error.resultCode)") }
            throw LookupError.notARouteDatabase(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Errors that say the file itself cannot be read — damaged, not a database, its disk failing — and so count
    /// against `readHealth`. A busy, full or out-of-memory moment does not: one would otherwise mark a sound
    /// database failing until the next import.
    static func meansDamage(_ code: ResultCode) -> Bool {
        [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_IOERR, .SQLITE_FORMAT, .SQLITE_CANTOPEN].contains(
            code.primaryResultCode)
    }
}

/// Which services run on which date: `calendar.txt` weekdays within its date range, then `calendar_dates.txt`
/// additions and removals on top — exactly the GTFS rule.
struct ServiceCalendar: Sendable {
    struct Regular: Sendable { var weekdays: Int, start: Int, end: Int }
    var regular: [Int: Regular] = [:]
    /// date (YYYYMMDD) → service → exception type (1 added, 2 removed)
    var exceptions: [Int: [Int: Int]] = [:]

    static func load(_ db: Database) throws -> ServiceCalendar {
        var calendar = ServiceCalendar()
        for row in try Row.fetchAll(db, sql: "SELECT service_idx, weekdays, start_date, end_date FROM calendar") {
            calendar.regular[row[0]] = Regular(weekdays: row[1], start: row[2], end: row[3])
        }
        for row in try Row.fetchAll(db, sql: "SELECT service_idx, date, exception_type FROM calendar_dates") {
            calendar.exceptions[row[1], default: [:]][row[0]] = row[2]
        }
        return calendar
    }

    func activeServices(on date: ServiceDate) -> [Int] {
        let day = date.yyyymmdd
        let bit = 1 << (date.isoWeekday - 1)
        var active = Set<Int>()
        for (service, rule) in regular where rule.weekdays & bit != 0 && rule.start <= day && day <= rule.end {
            active.insert(service)
        }
        for (service, type) in exceptions[day] ?? [:] {
            if type == 1 { active.insert(service) } else { active.remove(service) }
        }
        return active.sorted()
    }
}
