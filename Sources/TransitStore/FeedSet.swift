import Foundation
import GRDB
import TransitModel

/// One GTFS feed of an import: where it is and the id that namespaces its GTFS ids in a database of several
/// feeds (`metro:1` is stop `1` of feed `metro`). A database of one feed keeps its ids as the feed has them.
public struct FeedInput: Sendable, Equatable {
    public var id: String
    public var path: String

    public init(id: String, path: String) {
        self.id = id
        self.path = path
    }

    /// `ID=PATH` names the id; a bare path takes the file or folder name without its extension
    /// (`feeds/mx-metro.zip` → `mx-metro`).
    public init(argument: String) {
        if let equals = argument.firstIndex(of: "="), FeedInput.isValidID(String(argument[..<equals])) {
            self.init(id: String(argument[..<equals]), path: String(argument[argument.index(after: equals)...]))
        } else {
            self.init(id: FeedInput.defaultID(for: argument), path: argument)
        }
    }

    public static func defaultID(for path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.lowercased().hasSuffix(".zip") ? String(name.dropLast(4)) : name
    }

    /// Feed ids are what URLs, labels and JSON carry before the `:`: short, stable and URL-safe.
    public static let idRule = "1 to 32 characters from a-z, A-Z, 0-9, '-' and '_', starting with a letter or digit"

    public static func isValidID(_ id: String) -> Bool {
        guard (1...32).contains(id.utf8.count), let first = id.utf8.first, isAlphanumeric(first) else { return false }
        return id.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Checks the ids of an import's feeds: each valid (for several feeds: one feed needs no id) and none twice.
    static func validate(_ feeds: [FeedInput]) throws {
        guard !feeds.isEmpty else { throw ImportError.inconsistentFeed("no feed to import") }
        guard feeds.count > 1 else { return }
        var seen: [String: String] = [:]
        for feed in feeds {
            guard isValidID(feed.id) else {
                throw ImportError.inconsistentFeed(
                    "the feed id '\(ImportError.quoted(feed.id))' (for \(feed.path)) is not usable: a feed id is \(idRule); name it with ID=PATH, e.g. metro=\(feed.path)"
                )
            }
            if let other = seen[feed.id] {
                throw ImportError.inconsistentFeed(
                    "two feeds have the id '\(feed.id)' (\(other) and \(feed.path)): name them apart with ID=PATH")
            }
            seen[feed.id] = feed.path
        }
    }
}

/// What one feed of a database brought, as `feeds` stores it and the summary lists it.
public struct ImportedFeed: Sendable, Equatable {
    public var id: String
    /// The file or folder it came from ("carta.zip").
    public var source: String
    public var feedHash: String
    public var timeZone: String
    public var serviceStart: ServiceDate?
    public var serviceEnd: ServiceDate?
    public var agencies = 0, stops = 0, routes = 0, trips = 0, stopTimes = 0
    public var warnings = 0

    public init(id: String, source: String, feedHash: String = "", timeZone: String = "") {
        self.id = id
        self.source = source
        self.feedHash = feedHash
        self.timeZone = timeZone
    }
}

/// Feeds of one region may name one zone differently ("America/Buenos_Aires" and "America/Argentina/Buenos_Aires",
/// "Europe/Kiev" and "Europe/Kyiv"). A database holds one time zone: feeds whose zones keep the same clock
/// (the same UTC offset at every moment of the service period) are accepted, any other is refused.
enum ZoneAgreement {
    /// The first moment in `start...end` when the two zones' clocks differ, or nil when they never do.
    static func firstDisagreement(_ a: TimeZone, _ b: TimeZone, from start: Date, to end: Date) -> Date? {
        var moment = start
        while moment <= end {
            if a.secondsFromGMT(for: moment) != b.secondsFromGMT(for: moment) { return moment }
            let next = [a.nextDaylightSavingTimeTransition(after: moment), b.nextDaylightSavingTimeTransition(after: moment)]
                .compactMap { $0 }.min()
            guard let next, next > moment else { break }
            moment = next
        }
        if a.secondsFromGMT(for: end) != b.secondsFromGMT(for: end) { return end }
        return nil
    }
}

/// The keys (`*_idx`) one feed's rows were given: each feed's rows are numbered in one run, so the feed of a
/// stop, route or trip is the range its key falls in.
struct FeedKeys: Sendable, Equatable {
    var agencies: ClosedRange<Int>
    var stops: ClosedRange<Int>
    var routes: ClosedRange<Int>
    var trips: ClosedRange<Int>
}

/// `feeds`: one row per feed of the database, in import order.
enum FeedTable {
    static let create = """
        CREATE TABLE feeds (
            feed_id TEXT PRIMARY KEY, id_prefix TEXT NOT NULL, -- 'metro:' with several feeds, '' with one
            source TEXT NOT NULL, feed_hash TEXT NOT NULL, timezone TEXT NOT NULL,
            service_start INTEGER, service_end INTEGER,
            agencies INTEGER NOT NULL, stops INTEGER NOT NULL, routes INTEGER NOT NULL, trips INTEGER NOT NULL,
            stop_times INTEGER NOT NULL, warnings INTEGER NOT NULL,
            first_agency_idx INTEGER NOT NULL, last_agency_idx INTEGER NOT NULL,
            first_stop_idx INTEGER NOT NULL, last_stop_idx INTEGER NOT NULL,
            first_route_idx INTEGER NOT NULL, last_route_idx INTEGER NOT NULL,
            first_trip_idx INTEGER NOT NULL, last_trip_idx INTEGER NOT NULL) WITHOUT ROWID;
        """

    static func insert(_ feed: ImportedFeed, keys: FeedKeys, namespaced: Bool, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO feeds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                feed.id, namespaced ? feed.id + ":" : "", feed.source, feed.feedHash, feed.timeZone,
                feed.serviceStart?.yyyymmdd, feed.serviceEnd?.yyyymmdd, feed.agencies, feed.stops, feed.routes,
                feed.trips, feed.stopTimes, feed.warnings, keys.agencies.lowerBound, keys.agencies.upperBound,
                keys.stops.lowerBound, keys.stops.upperBound, keys.routes.lowerBound, keys.routes.upperBound,
                keys.trips.lowerBound, keys.trips.upperBound,
            ])
    }
}

/// One feed of a route database, as `feeds` records it (`/api/v1/feed`, `kiosk doctor`).
public struct FeedRecord: Sendable, Equatable {
    public var id: String
    /// What its ids begin with in the database: "metro:" when there are several feeds, "" for one.
    public var idPrefix: String
    public var source: String
    public var feedHash: String
    public var timeZone: String
    public var serviceStart: ServiceDate?
    public var serviceEnd: ServiceDate?
    public var agencies: Int, stops: Int, routes: Int, trips: Int, stopTimes: Int, warnings: Int
    /// The database keys (`stop_idx`, …) of its rows.
    public var stopKeys: ClosedRange<Int>
    public var routeKeys: ClosedRange<Int>
    public var tripKeys: ClosedRange<Int>

    static func loadAll(_ db: Database) throws -> [FeedRecord] {
        guard try db.tableExists("feeds") else { return [] }  // written before feeds were recorded: one feed
        return try Row.fetchAll(
            db,
            sql: """
                SELECT feed_id, id_prefix, source, feed_hash, timezone, service_start, service_end, agencies, stops,
                routes, trips, stop_times, warnings, first_stop_idx, last_stop_idx, first_route_idx, last_route_idx,
                first_trip_idx, last_trip_idx FROM feeds ORDER BY first_stop_idx
                """
        ).map { row in
            FeedRecord(
                id: row[0], idPrefix: row[1], source: row[2], feedHash: row[3], timeZone: row[4],
                serviceStart: (row[5] as Int?).flatMap(ServiceDate.init(yyyymmdd:)),
                serviceEnd: (row[6] as Int?).flatMap(ServiceDate.init(yyyymmdd:)), agencies: row[7], stops: row[8],
                routes: row[9], trips: row[10], stopTimes: row[11], warnings: row[12],
                stopKeys: (row[13] as Int)...(row[14] as Int), routeKeys: (row[15] as Int)...(row[16] as Int),
                tripKeys: (row[17] as Int)...(row[18] as Int))
        }
    }
}

/// How the ids of a database of several feeds read: `FEEDID:ID`. A database of one feed has no prefixes, and
/// every method here leaves its ids as they are.
public struct FeedNamespaces: Sendable, Equatable {
    /// The feeds' prefixes ("metro:"), empty for a database of one feed.
    public let prefixes: [String]

    public init(_ feeds: [FeedRecord]) {
        prefixes = feeds.map(\.idPrefix).filter { !$0.isEmpty }
    }

    public var isEmpty: Bool { prefixes.isEmpty }

    /// The feed id an id of the database belongs to ("metro" for "metro:1"), nil with one feed.
    public func feedID(of id: String) -> String? {
        guard let prefix = prefix(of: id) else { return nil }
        return String(prefix.dropLast())
    }

    /// The id as its feed has it ("1" for "metro:1").
    public func bareID(_ id: String) -> String {
        guard let prefix = prefix(of: id) else { return id }
        return String(id.dropFirst(prefix.count))
    }

    /// The ids a bare id may stand for: one per feed; none when the database has one feed. Callers try the
    /// text as a whole id first. Text that starts like a feed's prefix may still be bare: feed `IDFM`'s own stop
    /// `IDFM:123` is stored `IDFM:IDFM:123`, and `metro:7` may be a stop id of feed `bus` (`bus:metro:7`).
    public func candidates(for text: String) -> [String] {
        prefixes.map { $0 + text }
    }

    private func prefix(of id: String) -> String? {
        prefixes.first { id.hasPrefix($0) }
    }
}
