import GRDB

/// Builds, while stop times stream past, the two per-stop summaries the stop view reads instead of scanning
/// every stop time of a busy stop on each lookup:
///
/// - `stop_routes`: which routes and directions board at each stop, with the headsigns served from there (a trip
///   without one by its last stop's name);
/// - `stop_service_spans`: per stop, route, direction and service, the first and last departure — the day's
///   "first and last service" is then the min/max over the services running that day.
///
/// A stop where a trip ends, or where boarding is not allowed (`pickup_type` 1), is not a departure and is
/// left out of both. Frequency-based template trips are left out of the spans (the stop view expands their
/// frequencies itself). Feeds list a trip's stop times together, so each trip is summarised when the next
/// begins; if a trip's rows are split across the file (legal, rare), the importer rebuilds the summary from
/// the database in trip order instead.
struct StopServiceSummary {
    struct TripInfo {
        var route: Int32 = 0
        var service: Int32 = 0
        var direction: Int8 = -1
        var headsign: Int32 = -1
        var frequencyBased = false
    }

    struct StopTime {
        var stop: Int32
        var sequence: Int32
        var departure: Int32  // -1 when the feed leaves it empty (interpolated later)
        var pickupAllowed: Bool
        var headsign: Int32  // stop_headsign, -1 when empty
    }

    struct RouteKey: Hashable { var stop: Int32, route: Int32, direction: Int8 }
    struct SpanKey: Hashable { var stop: Int32, service: Int32, route: Int32, direction: Int8 }

    private(set) var trips: [TripInfo] = [TripInfo()]  // trip_idx is 1-based
    private var headsignIDs: [String: Int32] = [:]
    private var headsignNames: [String] = []
    private var current: [StopTime] = []
    private var currentTrip = 0
    private var summarised: [Bool] = [false]
    /// Set when a trip's rows were not contiguous (or times were missing): the streamed summary is not
    /// trustworthy and `rebuild(from:)` must run.
    private(set) var needsRebuild = false
    private var headsignsAtStops: [RouteKey: Set<Int32>] = [:]
    private var spans: [SpanKey: (first: Int32, last: Int32)] = [:]

    mutating func internHeadsign(_ text: String?) -> Int32 {
        guard let text, !text.isEmpty else { return -1 }
        if let id = headsignIDs[text] { return id }
        let id = Int32(headsignNames.count)
        headsignIDs[text] = id
        headsignNames.append(text)
        return id
    }

    mutating func addTrip(route: Int, service: Int, direction: Int?, headsign: String?) {
        trips.append(
            TripInfo(
                route: Int32(route), service: Int32(service), direction: Int8(direction ?? -1),
                headsign: internHeadsign(headsign)))
        summarised.append(false)
    }

    mutating func markFrequencyBased(trip: Int) { trips[trip].frequencyBased = true }

    @inline(__always)
    mutating func add(trip: Int, _ stopTime: StopTime) {
        if trip != currentTrip {
            finishTrip()
            currentTrip = trip
        }
        if stopTime.departure < 0 { needsRebuild = true }
        current.append(stopTime)
    }

    mutating func finishTrip() {
        defer { current.removeAll(keepingCapacity: true) }
        guard currentTrip != 0, !current.isEmpty else { return }
        if summarised[currentTrip] { needsRebuild = true; return }
        summarised[currentTrip] = true
        let info = trips[currentTrip]
        var terminal = 0
        for i in current.indices where current[i].sequence > current[terminal].sequence { terminal = i }
        for (i, row) in current.enumerated() where i != terminal && row.pickupAllowed {
            let routeKey = RouteKey(stop: row.stop, route: info.route, direction: info.direction)
            // Without a headsign the trip is named by where it ends (`TripDestination`): that stop, encoded below -1.
            let headsign =
                row.headsign >= 0 ? row.headsign : info.headsign >= 0 ? info.headsign : -2 - current[terminal].stop
            headsignsAtStops[routeKey, default: []].insert(headsign)
            guard !info.frequencyBased, row.departure >= 0 else { continue }
            let key = SpanKey(stop: row.stop, service: info.service, route: info.route, direction: info.direction)
            if let span = spans[key] {
                spans[key] = (min(span.first, row.departure), max(span.last, row.departure))
            } else {
                spans[key] = (row.departure, row.departure)
            }
        }
    }

    /// Recomputes the summary from the stored stop times, read in trip order (the slow, always-correct path).
    mutating func rebuild(from db: Database) throws {
        headsignsAtStops.removeAll()
        spans.removeAll()
        summarised = Array(repeating: false, count: trips.count)
        needsRebuild = false
        currentTrip = 0
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT trip_idx, stop_idx, stop_sequence, departure_time, pickup_type, stop_headsign
                FROM stop_times ORDER BY trip_idx, stop_sequence
                """)
        while let row = try rows.next() {
            let headsign: String? = row[5]
            let departure: Int? = row[3]
            add(
                trip: row[0],
                StopTime(
                    stop: row[1], sequence: row[2], departure: Int32(departure ?? -1),
                    pickupAllowed: (row[4] as Int) != 1, headsign: internHeadsign(headsign)))
        }
        finishTrip()
        needsRebuild = false
    }

    func write(to db: Database) throws {
        let routes = try BulkInsert(db, "INSERT INTO stop_routes VALUES (?, ?, ?, ?)")
        let stopName = try db.makeStatement(sql: "SELECT stop_name FROM stops WHERE stop_idx = ?")
        var lastStopNames: [Int32: String] = [:]
        func name(_ headsign: Int32) throws -> String? {
            if headsign >= 0 { return headsignNames[Int(headsign)] }
            guard headsign <= -2 else { return nil }
            let stop = -2 - headsign
            if let known = lastStopNames[stop] { return known }
            let found = try String.fetchOne(stopName, arguments: [Int(stop)]) ?? ""
            lastStopNames[stop] = found
            return found
        }
        for (key, headsigns) in headsignsAtStops {
            routes.bind(1, Int(key.stop)); routes.bind(2, Int(key.route)); routes.bind(3, Int(key.direction))
            let names = Set(try headsigns.compactMap(name).filter { !$0.isEmpty }).sorted()
            routes.bind(4, names.joined(separator: StopServiceSummary.headsignSeparator))
            try routes.insert()
        }
        let insertSpan = try BulkInsert(db, "INSERT INTO stop_service_spans VALUES (?, ?, ?, ?, ?, ?)")
        for (key, span) in spans {
            insertSpan.bind(1, Int(key.stop)); insertSpan.bind(2, Int(key.service)); insertSpan.bind(3, Int(key.route))
            insertSpan.bind(4, Int(key.direction)); insertSpan.bind(5, Int(span.first));
            insertSpan.bind(6, Int(span.last))
            try insertSpan.insert()
        }
    }

    /// Joins headsigns in one column; the unit separator cannot occur in sanitised feed text.
    static let headsignSeparator = "\u{1F}"
}
