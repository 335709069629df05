import Foundation
import GRDB
import Synchronization
import TransitModel

/// translations.txt (GTFS): the feed's own names in other languages. Stop names, trip and stop headsigns and
/// route names are shown in the passenger's language where the feed translates them; everything else as the feed
/// writes it. Kept as the feed gives it (one row per translation, its language's primary tag: "en-US" → "en"),
/// in the feed's namespace with several feeds.
public struct FeedTranslations: Sendable, Equatable {
    /// stops.stop_name by stop_id, and by the name itself (`field_value` rows, and record rows' original name).
    var stopNames: [String: String] = [:]
    var stopNamesByValue: [String: String] = [:]
    /// routes.route_short_name / route_long_name by route_id and by value.
    var routeShortNames: [String: String] = [:]
    var routeLongNames: [String: String] = [:]
    var routeShortByValue: [String: String] = [:]
    var routeLongByValue: [String: String] = [:]
    /// trips.trip_headsign and stop_times.stop_headsign, by the headsign (record rows by their trip's headsign).
    var headsigns: [String: String] = [:]

    public static let none = FeedTranslations()

    public var isEmpty: Bool { self == .none }

    static let table = """
        CREATE TABLE translations (
            table_name TEXT NOT NULL, field_name TEXT NOT NULL, language TEXT NOT NULL, translation TEXT NOT NULL,
            record_id TEXT, record_sub_id TEXT, field_value TEXT);
        CREATE INDEX translations_by_language ON translations(language);
        """

    /// The fields the kiosk shows; translations of other fields are kept but not used.
    static let shownFields: Set<String> = [
        "stops.stop_name", "trips.trip_headsign", "stop_times.stop_headsign", "routes.route_short_name",
        "routes.route_long_name",
    ]

    /// A stop's name in this language, else as the feed names it.
    public func stopName(id: String, name: String) -> String { stopNames[id] ?? stopNamesByValue[name] ?? name }

    public func headsign(_ text: String) -> String { headsigns[text] ?? text }

    /// A destination is a headsign, or a stop's name where the trip has none.
    func destination(_ text: String) -> String { headsigns[text] ?? stopNamesByValue[text] ?? text }

    public func route(_ route: RouteInfo) -> RouteInfo {
        var route = route
        if let short = route.shortName {
            route.shortName = routeShortNames[route.id] ?? routeShortByValue[short] ?? short
        }
        if let long = route.longName { route.longName = routeLongNames[route.id] ?? routeLongByValue[long] ?? long }
        return route
    }

    func stop(_ stop: StopInfo) -> StopInfo {
        var stop = stop
        stop.name = stopName(id: stop.id, name: stop.name)
        if let parent = stop.parentStationName {
            stop.parentStationName = stopName(id: stop.parentStationID ?? "", name: parent)
        }
        return stop
    }

    func departure(_ departure: Departure) -> Departure {
        var departure = departure
        departure.route = route(departure.route)
        departure.headsign = headsign(departure.headsign)
        departure.destination = destination(departure.destination)
        return departure
    }

    /// The view with every name the feed translates in this language.
    public func apply(to view: StopView) -> StopView {
        guard !isEmpty else { return view }
        var view = view
        view.stop = stop(view.stop)
        view.platforms = view.platforms.map(stop)
        view.routes = view.routes.map { entry in
            var entry = entry
            entry.route = route(entry.route)
            entry.directions = entry.directions.map { direction in
                var direction = direction
                direction.headsigns = direction.headsigns.map(headsign)
                return direction
            }
            return entry
        }
        view.departures = view.departures.map(departure)
        view.nextDeparture = view.nextDeparture.map(departure)
        view.serviceSpans = view.serviceSpans.map { span in
            var span = span
            span.route = route(span.route)
            span.headsigns = span.headsigns.map(headsign)
            return span
        }
        view.nearby = view.nearby.map { near in
            var near = near
            near.stop = stop(near.stop)
            near.routes = near.routes.map { routeShortByValue[$0] ?? $0 }
            return near
        }
        return view
    }

    /// Reads one language's translations (nothing from a database written before translations were imported).
    static func load(_ db: Database, language: Language) throws -> FeedTranslations {
        var translations = FeedTranslations()
        guard try db.tableExists("translations") else { return translations }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT tr.table_name, tr.field_name, tr.translation, tr.record_id, tr.field_value,
                       CASE tr.table_name
                         WHEN 'trips' THEN (SELECT t.trip_headsign FROM trips t WHERE t.trip_id = tr.record_id)
                         WHEN 'stops' THEN (SELECT s.stop_name FROM stops s WHERE s.stop_id = tr.record_id)
                         WHEN 'stop_times' THEN (SELECT st.stop_headsign FROM stop_times st JOIN trips t
                           ON t.trip_idx = st.trip_idx WHERE t.trip_id = tr.record_id
                           AND st.stop_sequence = CAST(tr.record_sub_id AS INTEGER))
                       END
                FROM translations tr WHERE tr.language = ?
                ORDER BY tr.record_id IS NOT NULL
                """, arguments: [language.rawValue])
        // Record rows come last: for the same text they win over field_value rows, as GTFS ranks them.
        for row in rows {
            let table: String = row[0], field: String = row[1], text: String = row[2]
            let record: String? = row[3], value: String? = row[4] ?? row[5]
            switch "\(table).\(field)" {
            case "stops.stop_name":
                if let record { translations.stopNames[record] = text }
                if let value { translations.stopNamesByValue[value] = text }
            case "routes.route_short_name":
                if let record { translations.routeShortNames[record] = text }
                if let value { translations.routeShortByValue[value] = text }
            case "routes.route_long_name":
                if let record { translations.routeLongNames[record] = text }
                if let value { translations.routeLongByValue[value] = text }
            case "trips.trip_headsign", "stop_times.stop_headsign":
                if let value { translations.headsigns[value] = text }
            default: break
            }
        }
        return translations
    }
}

/// Each open database's translations, read once per language.
final class FeedTranslationsCache: Sendable {
    static let shared = FeedTranslationsCache()
    private let loaded = Mutex<[String: FeedTranslations]>([:])

    func translations(_ database: RouteDatabase, _ language: Language) throws -> FeedTranslations {
        let key = "\(database.path)\u{1F}\(database.feedHash)\u{1F}\(language.rawValue)"
        if let known = loaded.withLock({ $0[key] }) { return known }
        let read = try database.connections.read { db in try FeedTranslations.load(db, language: language) }
        loaded.withLock { $0[key] = read }
        return read
    }
}

extension RouteDatabase {
    /// The names the feed translates into `language` (translations.txt); none when it has none.
    public func translations(for language: Language) -> FeedTranslations {
        (try? FeedTranslationsCache.shared.translations(self, language)) ?? .none
    }

    /// The view's names in `language` where the feed translates them.
    public func translated(_ view: StopView, into language: Language) -> StopView {
        translations(for: language).apply(to: view)
    }

    /// What the feed says about its language and place, for `PassengerLocale.decide`: feed_info's feed_lang and
    /// default_lang (the first row), each agency's agency_lang in order, and the database's time zone.
    public func feedLocaleFacts() -> PassengerLocale.FeedFacts {
        let read = try? connections.read { db -> (String?, String?, [String]) in
            let info = try Row.fetchOne(db, sql: "SELECT feed_lang, default_lang FROM feed_info LIMIT 1")
            let agencies = try String.fetchAll(
                db, sql: "SELECT agency_lang FROM agency WHERE agency_lang <> '' ORDER BY agency_idx")
            return (info?[0], info?[1], agencies)
        }
        return PassengerLocale.FeedFacts(
            feedLang: read?.0, defaultLang: read?.1, agencyLangs: read?.2 ?? [], timeZone: timeZone.identifier)
    }
}

extension ImportSession {
    /// translations.txt: every row kept, its language as the primary tag; record ids in the feed's namespace.
    /// Rows of fields the kiosk does not show are kept too (a later release may show them).
    mutating func importTranslations(_ db: Database) throws {
        let insert = try BulkInsert(db, "INSERT INTO translations VALUES (?, ?, ?, ?, ?, ?, ?)")
        var c = (table: -1, field: -1, language: -1, translation: -1, record: -1, sub: -1, value: -1)
        try forEachRow(
            "translations.txt",
            { h in
                c = (
                    try h.required("table_name"), try h.required("field_name"), try h.required("language"),
                    try h.required("translation"), h.optional("record_id"), h.optional("record_sub_id"),
                    h.optional("field_value")
                )
            }
        ) { row in
            let table = try row.requiredString(c.table), field = try row.requiredString(c.field)
            let language = PassengerLocale.primaryTag(try row.requiredString(c.language))
            let record = row.string(c.record), value = row.string(c.value)
            if record == nil && value == nil {
                throw row.invalid(c.value, "a record_id or a field_value (which of the feed's texts it translates)")
            }
            insert.bind(1, table); insert.bind(2, field); insert.bind(3, language)
            insert.bind(4, try row.requiredString(c.translation))
            insert.bind(5, record.map(namespaced)); insert.bind(6, row.string(c.sub)); insert.bind(7, value)
            try insert.insert()
        }
    }
}
