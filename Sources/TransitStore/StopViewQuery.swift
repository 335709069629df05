import Foundation
import GRDB
import Synchronization
import TransitModel

extension RouteDatabase {
    /// Throws `outsideServiceRange` when `date` lies outside the feed's calendar (the kiosk says so instead of
    /// showing an empty board as if no bus ever came).
    public func checkServiceRange(_ date: ServiceDate) throws {
        guard let start = serviceStart, let end = serviceEnd else { return }
        guard start <= date && date <= end else {
            throw LookupError.outsideServiceRange(date: date, start: start, end: end)
        }
    }

    /// The stop view for a resolved stop at instant `at`: its routes, the departures in [at, at + window], the
    /// first and last departure of each route and direction on that service day, the next departure when the
    /// window is empty, and the stops within `nearbyRadiusMeters`.
    public func stopView(
        for stop: ResolvedStop, at: Date, windowMinutes: Int = 60, nearbyRadiusMeters: Int = 400
    ) throws -> StopView {
        let serviceDate = ServiceDate.containing(at, in: timeZone)
        try checkServiceRange(serviceDate)
        return try read { db in
            let end = at.addingTimeInterval(TimeInterval(windowMinutes * 60))
            let frequencyStops = try frequencyStopTimes(at: stop.platformIndexes, db)
            let departures = try scheduledDepartures(
                at: stop.platformIndexes, from: at, to: end, frequencyStops: frequencyStops, db)
            let routesHere = try routesAt(stop.platformIndexes, db)
            var next: RawDeparture?
            if departures.isEmpty && !routesHere.isEmpty {  // no route boards here: nothing to look ahead for
                next = try nextDeparture(at: stop.platformIndexes, after: end, frequencyStops: frequencyStops, db)
            }
            let platformsByIndex = stop.platformsByIndex
            return StopView(
                stop: stop.stop, platforms: stop.platforms, at: at, windowMinutes: windowMinutes,
                timeZone: timeZone.identifier,
                serviceDate: serviceDate.description,
                routes: routesHere.map { RouteAtStop(route: $0.route, directions: $0.directions) },
                departures: departures.map { $0.departure(at: at, routes: routes, platforms: platformsByIndex) },
                serviceSpans: try serviceSpans(
                    at: stop.platformIndexes, on: serviceDate, routesHere: routesHere, frequencyStops: frequencyStops,
                    db),
                nextDeparture: next?.departure(at: at, routes: routes, platforms: platformsByIndex),
                nearby: try nearbyStops(around: stop, radius: Double(nearbyRadiusMeters), db),
                nearbyRadiusMeters: nearbyRadiusMeters)
        }
    }

    /// Only the departures of the stop view in [from, from + minutes]: what live data needs from before the
    /// view's moment (a late bus scheduled earlier still leaves after it). Empty outside the feed's calendar.
    public func departures(for stop: ResolvedStop, from: Date, minutes: Int) throws -> [Departure] {
        guard (try? checkServiceRange(ServiceDate.containing(from, in: timeZone))) != nil else { return [] }
        return try read { db in
            let frequencyStops = try frequencyStopTimes(at: stop.platformIndexes, db)
            let platformsByIndex = stop.platformsByIndex
            return try scheduledDepartures(
                at: stop.platformIndexes, from: from, to: from.addingTimeInterval(TimeInterval(minutes * 60)),
                frequencyStops: frequencyStops, db
            ).map { $0.departure(at: from, routes: routes, platforms: platformsByIndex) }
        }
    }

    // MARK: - Departures

    /// A departure before it is dressed for display.
    struct RawDeparture {
        var seconds: Int
        var serviceDate: ServiceDate
        var origin: Date
        var tripID: String
        var route: Int
        var direction: Int?
        /// As the feed gives it at this stop (stop_headsign, else trip_headsign; may be empty).
        var headsign: String
        var wheelchair: Int
        var stop: Int
        var approximate: Bool
        var lastStopName: String?
        var tripShortName: String?

        var time: Date { origin.addingTimeInterval(TimeInterval(seconds)) }

        func departure(at: Date, routes: [Int: RouteInfo], platforms: [Int: StopInfo]) -> Departure {
            let route =
                routes[self.route]
                ?? RouteInfo(
                    id: "?", shortName: nil, longName: nil, mode: .other, color: nil, textColor: nil, agency: "")
            return Departure(
                route: route, headsign: headsign, directionID: direction,
                time: time, minutesFromNow: Int((time.timeIntervalSince(at) / 60).rounded(.down)), tripID: tripID,
                serviceDate: serviceDate.description, scheduledTime: GTFSTime(seconds: seconds).description,
                wheelchairAccessible: WheelchairAccess(gtfs: wheelchair), stopID: platforms[stop]?.id ?? "",
                platformCode: platforms[stop]?.platformCode, approximate: approximate,
                destination: TripDestination.named(headsign: headsign, lastStopName: lastStopName, route: route),
                tripShortName: tripShortName.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// The columns of a departure's headsign (GTFS: a stop time's stop_headsign overrides the trip's), its trip's
    /// short name and last stop's name, for a query joining `stop_times st` and `trips t`.
    var destinationColumns: String {
        "COALESCE(NULLIF(st.stop_headsign, ''), t.trip_headsign, ''), t.trip_short_name, \(lastStopNameSQL)"
    }

    /// A stop time of a frequency-based template trip at one of the view's platforms, with its offset from the
    /// trip's first departure (each frequency period repeats the trip at that offset).
    struct FrequencyStopTime {
        var trip: Int
        var service: Int
        var offset: Int
        var template: RawDeparture
    }

    /// The service dates whose trips can depart in [from, to]: those starting on the day of `to` and the days
    /// before, as far back as the feed's latest departure reaches (27:36:00 reaches back one day, 49:00 two).
    func serviceDates(from: Date, to: Date) -> [(date: ServiceDate, origin: Date)] {
        let last = ServiceDate.containing(to, in: timeZone)
        let first = ServiceDate.containing(from, in: timeZone).adding(days: -(latestDepartureSeconds / 86_400 + 1))
        return (first.dayNumber...last.dayNumber).map {
            let date = ServiceDate(dayNumber: $0)
            return (date, date.serviceDayOrigin(in: timeZone))
        }
    }

    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }

    /// Boarding is a departure only where the trip goes on (not its last stop) and pickup is allowed.
    static let departureFilter = """
        st.pickup_type != 1 AND EXISTS (SELECT 1 FROM stop_times nx WHERE nx.trip_idx = st.trip_idx AND nx.stop_sequence > st.stop_sequence)
        """

    func scheduledDepartures(
        at stops: [Int], from: Date, to: Date, frequencyStops: [FrequencyStopTime], _ db: Database
    ) throws -> [RawDeparture] {
        var result: [RawDeparture] = []
        for (date, origin) in serviceDates(from: from, to: to) {
            let low = Int(from.timeIntervalSince(origin).rounded(.up)),
                high = Int(to.timeIntervalSince(origin).rounded(.down))
            guard high >= 0, low <= latestDepartureSeconds else { continue }
            let active = calendar.activeServices(on: date)
            guard !active.isEmpty else { continue }
            result += try regularDepartures(
                stops: stops, services: active, low: low, high: high, limit: nil, date: date, origin: origin, db)
            result += expand(frequencyStops, services: Set(active), low: low, high: high, date: date, origin: origin)
        }
        return result.sorted { ($0.time, $0.tripID) < ($1.time, $1.tripID) }
    }

    func regularDepartures(
        stops: [Int], services: [Int], low: Int, high: Int, limit: Int?, date: ServiceDate, origin: Date, _ db: Database
    ) throws -> [RawDeparture] {
        if let limit, stops.count > 1 {
            // The index gives one stop's departures in time order, so a LIMIT stops early; over several stops
            // SQLite would read and sort every departure to the end of the day first (an interchange at night).
            return try stops.flatMap {
                try regularDepartures(
                    stops: [$0], services: services, low: low, high: high, limit: limit, date: date, origin: origin,
                    db)
            }.sorted { ($0.seconds, $0.tripID) < ($1.seconds, $1.tripID) }.prefix(limit).map { $0 }
        }
        let sql = """
            SELECT st.departure_time, st.stop_idx, \(destinationColumns), t.trip_id, t.route_idx, t.direction_id,
                   t.wheelchair_accessible, t.trip_idx
            FROM stop_times st JOIN trips t ON t.trip_idx = st.trip_idx
            WHERE st.stop_idx IN (\(Self.placeholders(stops.count))) AND st.departure_time BETWEEN ? AND ?
              AND t.service_idx IN (\(Self.placeholders(services.count))) AND \(Self.departureFilter)
            ORDER BY st.departure_time\(limit.map { " LIMIT \($0 + 8)" } ?? "")
            """
        let arguments = StatementArguments(stops + [low, high] + services)
        var found: [RawDeparture] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            if frequencies[row[9]] != nil { continue }  // templates: expanded from frequencies.txt instead
            found.append(
                RawDeparture(
                    seconds: row[0], serviceDate: date, origin: origin, tripID: row[5], route: row[6],
                    direction: row[7], headsign: row[2], wheelchair: row[8], stop: row[1], approximate: false,
                    lastStopName: row[4], tripShortName: row[3]))
            if let limit, found.count >= limit { break }
        }
        return found
    }

    func frequencyStopTimes(at stops: [Int], _ db: Database) throws -> [FrequencyStopTime] {
        guard !frequencies.isEmpty else { return [] }
        let sql = """
            SELECT st.departure_time - (SELECT f0.departure_time FROM stop_times f0 WHERE f0.trip_idx = st.trip_idx ORDER BY f0.stop_sequence LIMIT 1),
                   st.stop_idx, \(destinationColumns), t.trip_id, t.route_idx, t.direction_id, t.wheelchair_accessible,
                   t.trip_idx, t.service_idx
            FROM stop_times st JOIN trips t ON t.trip_idx = st.trip_idx
            WHERE st.stop_idx IN (\(Self.placeholders(stops.count))) AND st.trip_idx IN (SELECT trip_idx FROM frequencies)
              AND st.departure_time IS NOT NULL AND \(Self.departureFilter)
            """
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(stops)).map { row in
            FrequencyStopTime(
                trip: row[9], service: row[10], offset: row[0],
                template: RawDeparture(
                    seconds: 0, serviceDate: ServiceDate(dayNumber: 0), origin: Date(), tripID: row[5], route: row[6],
                    direction: row[7], headsign: row[2], wheelchair: row[8], stop: row[1], approximate: false,
                    lastStopName: row[4], tripShortName: row[3]))
        }
    }

    /// Individual departures of frequency-based trips in [low, high] seconds of `date`: the trip starts at
    /// start_time, start_time + headway, … while before end_time, and reaches this stop `offset` later.
    func expand(
        _ stopTimes: [FrequencyStopTime], services: Set<Int>, low: Int, high: Int, date: ServiceDate, origin: Date
    ) -> [RawDeparture] {
        var result: [RawDeparture] = []
        for stopTime in stopTimes where services.contains(stopTime.service) {
            for period in frequencies[stopTime.trip] ?? [] {
                let firstIndex = max(
                    0, Int((Double(low - stopTime.offset - period.start) / Double(period.headway)).rounded(.up)))
                var start = period.start + firstIndex * period.headway
                while start < period.end && start + stopTime.offset <= high {
                    var departure = stopTime.template
                    departure.seconds = start + stopTime.offset
                    departure.serviceDate = date
                    departure.origin = origin
                    departure.approximate = !period.exactTimes
                    result.append(departure)
                    start += period.headway
                }
            }
        }
        return result
    }

    /// The first departure after `after`, looking up to a week ahead.
    func nextDeparture(
        at stops: [Int], after: Date, frequencyStops: [FrequencyStopTime], _ db: Database
    ) throws -> RawDeparture? {
        var best: RawDeparture?
        for (date, origin) in serviceDates(from: after, to: after.addingTimeInterval(7 * 86_400)) {
            if let best, origin > best.time { break }
            let low = max(0, Int(after.timeIntervalSince(origin).rounded(.up)))
            guard low <= latestDepartureSeconds else { continue }
            let active = calendar.activeServices(on: date)
            guard !active.isEmpty else { continue }
            let candidates =
                try regularDepartures(
                    stops: stops, services: active, low: low, high: latestDepartureSeconds, limit: 1, date: date,
                    origin: origin, db)
                + expand(
                    frequencyStops, services: Set(active), low: low, high: latestDepartureSeconds, date: date,
                    origin: origin)
            if let earliest = candidates.min(by: { $0.time < $1.time }), best == nil || earliest.time < best!.time {
                best = earliest
            }
        }
        return best
    }

    // MARK: - Routes, spans, nearby

    struct RouteHere {
        var routeIndex: Int
        var route: RouteInfo
        var directions: [RouteAtStop.Direction]
    }

    func routesAt(_ stops: [Int], _ db: Database) throws -> [RouteHere] {
        var byRoute: [Int: [Int: Set<String>]] = [:]
        let sql =
            "SELECT route_idx, direction_id, headsigns FROM stop_routes WHERE stop_idx IN (\(Self.placeholders(stops.count)))"
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(stops)) {
            let headsigns = (row[2] as String).split(separator: Character(StopServiceSummary.headsignSeparator)).map(
                String.init)
            byRoute[row[0], default: [:]][row[1], default: []].formUnion(headsigns)
        }
        return byRoute.compactMap { index, directions -> RouteHere? in
            guard let route = routes[index] else { return nil }
            // Stored as the feed gives them (or the last stop's name): shown as destinations, without the route's
            // own short name in front.
            let list = directions.keys.sorted().map {
                RouteAtStop.Direction(
                    directionID: $0 < 0 ? nil : $0,
                    headsigns: Set(
                        directions[$0]!.map { TripDestination.named(headsign: $0, lastStopName: nil, route: route) }
                    ).sorted())
            }
            return RouteHere(routeIndex: index, route: route, directions: list)
        }.sorted { rank($0.routeIndex) < rank($1.routeIndex) }
    }

    /// A route's place in passenger order (`routeRank`).
    func rank(_ routeIndex: Int) -> Int { routeRank[routeIndex] ?? .max }

    /// Routes sort as people expect: by mode, then numbers numerically ("2" before "10"), then by name.
    static func routeOrder(_ a: RouteInfo, _ b: RouteInfo) -> Bool {
        if a.mode != b.mode {
            return RouteMode.allCases.firstIndex(of: a.mode)! < RouteMode.allCases.firstIndex(of: b.mode)!
        }
        return a.label.compare(b.label, options: [.numeric, .caseInsensitive]) == .orderedAscending
    }

    func serviceSpans(
        at stops: [Int], on date: ServiceDate, routesHere: [RouteHere], frequencyStops: [FrequencyStopTime],
        _ db: Database
    ) throws -> [ServiceSpan] {
        let active = calendar.activeServices(on: date)
        guard !active.isEmpty else { return [] }
        struct Key: Hashable { var route: Int, direction: Int }
        var spans: [Key: (first: Int, last: Int)] = [:]
        func merge(_ key: Key, _ first: Int, _ last: Int) {
            if let existing = spans[key] {
                spans[key] = (min(existing.first, first), max(existing.last, last))
            } else {
                spans[key] = (first, last)
            }
        }
        let sql = """
            SELECT route_idx, direction_id, MIN(first_departure), MAX(last_departure) FROM stop_service_spans
            WHERE stop_idx IN (\(Self.placeholders(stops.count))) AND service_idx IN (\(Self.placeholders(active.count)))
            GROUP BY route_idx, direction_id
            """
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(stops + active)) {
            merge(Key(route: row[0], direction: row[1]), row[2], row[3])
        }
        let activeSet = Set(active)
        for stopTime in frequencyStops where activeSet.contains(stopTime.service) {
            for period in frequencies[stopTime.trip] ?? [] {
                let lastStart = period.start + (period.end - 1 - period.start) / period.headway * period.headway
                merge(
                    Key(route: stopTime.template.route, direction: stopTime.template.direction ?? -1),
                    period.start + stopTime.offset, lastStart + stopTime.offset)
            }
        }
        let origin = date.serviceDayOrigin(in: timeZone)
        let headsigns = Dictionary(uniqueKeysWithValues: routesHere.map { ($0.routeIndex, $0.directions) })
        return spans.sorted { (rank($0.key.route), $0.key.direction) < (rank($1.key.route), $1.key.direction) }
            .compactMap { key, span -> ServiceSpan? in
                guard let route = routes[key.route] else { return nil }
                let direction = key.direction < 0 ? nil : key.direction
                return ServiceSpan(
                    route: route, directionID: direction,
                    headsigns: headsigns[key.route]?.first { $0.directionID == direction }?.headsigns ?? [],
                    first: origin.addingTimeInterval(TimeInterval(span.first)),
                    last: origin.addingTimeInterval(TimeInterval(span.last)))
            }
    }

    /// The stops near `stop`, nearest first: found once per stop, radius and limit, then kept (`nearbyCache`), as
    /// they do not change with the time asked for.
    func nearbyStops(around stop: ResolvedStop, radius: Double, _ db: Database, limit: Int = 12) throws -> [NearbyStop]
    {
        guard radius > 0, let center = stop.stop.coordinate ?? stop.platforms.lazy.compactMap(\.coordinate).first else {
            return []
        }
        let key = NearbyStopCache.Key(stop: stop.stopIndex, radius: radius, limit: limit)
        if let known = nearbyCache[key] { return known }
        // Other platforms of the same station count as nearby: they are where a passenger changes.
        let found = try nearbyStops(
            around: center, excluding: Set(stop.platformIndexes + [stop.stopIndex]), radius: radius, db, limit: limit)
        nearbyCache[key] = found
        return found
    }

    /// The boarding stops within `radiusMeters` of a point, nearest first, with the direction from the point and
    /// the routes that board there (`GET /api/v1/stops?near=`).
    public func stopsNear(_ center: Coordinate, radiusMeters: Int, limit: Int = 20) throws -> [NearbyStop] {
        guard radiusMeters > 0 else { return [] }
        return try read { db in
            try nearbyStops(around: center, excluding: [], radius: Double(radiusMeters), db, limit: limit)
        }
    }

    func nearbyStops(
        around center: Coordinate, excluding excluded: Set<Int>, radius: Double, _ db: Database, limit: Int
    ) throws -> [NearbyStop] {
        let box = center.boundingBox(radiusMeters: radius)
        let candidates = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(RouteDatabase.stopColumns)
                    WHERE s.stop_lat BETWEEN ? AND ? AND s.stop_lon BETWEEN ? AND ? AND s.location_type = 0
                    """), arguments: [box.minLat, box.maxLat, box.minLon, box.maxLon])
        var near: [(index: Int, info: StopInfo, distance: Double)] = []
        for row in candidates {
            let index: Int = row[0]
            if excluded.contains(index) { continue }
            guard let latitude: Double = row[8], let longitude: Double = row[9] else { continue }
            let distance = center.distance(to: Coordinate(latitude: latitude, longitude: longitude))
            if distance <= radius { near.append((index, stopInfo(row), distance)) }
        }
        near.sort { ($0.distance, $0.info.id) < ($1.distance, $1.info.id) }
        // Each feed's stop of one interchange is one stop to a passenger: listed once, the nearest.
        var places = Set<Int>()
        let nearest = Array(near.filter { places.insert(interchangeGroup(of: $0.index)).inserted }.prefix(limit))
        let labels = try routeLabels(at: nearest.map(\.index), db)
        return nearest.map { item in
            NearbyStop(
                stop: item.info, distanceMeters: Int(item.distance.rounded()),
                direction: CompassPoint(bearing: center.bearing(to: item.info.coordinate!)),
                routes: labels[item.index] ?? [])
        }
    }

    /// The labels of the routes boarding at each of `stops`, in passenger order: one query for all of them.
    func routeLabels(at stops: [Int], _ db: Database) throws -> [Int: [String]] {
        guard !stops.isEmpty else { return [:] }
        let sql =
            "SELECT DISTINCT stop_idx, route_idx FROM stop_routes WHERE stop_idx IN (\(Self.placeholders(stops.count)))"
        var byStop: [Int: [Int]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(stops)) {
            byStop[row[0], default: []].append(row[1])
        }
        return byStop.mapValues { indexes in
            indexes.sorted { rank($0) < rank($1) }.compactMap { routes[$0]?.label }
        }
    }
}

/// The nearby stops of the stops asked for lately, by stop, radius and limit: finding them was about a fifth of an
/// uncached stop view's cost, and they never change within one database. Bounded by `capacity` lists (about 1.3 KB
/// each: 13 MB for a 10,000-stop city); when full it starts again empty, which keeps it simple and its memory fixed.
final class NearbyStopCache: Sendable {
    struct Key: Hashable {
        var stop: Int
        var radius: Double
        var limit: Int
    }

    let capacity: Int
    private let lists = Mutex<[Key: [NearbyStop]]>([:])

    init(capacity: Int = 16384) { self.capacity = capacity }

    subscript(key: Key) -> [NearbyStop]? {
        get { lists.withLock { $0[key] } }
        set {
            lists.withLock { lists in
                if lists.count >= capacity && lists[key] == nil { lists.removeAll(keepingCapacity: true) }
                lists[key] = newValue
            }
        }
    }

    var count: Int { lists.withLock { $0.count } }
}
