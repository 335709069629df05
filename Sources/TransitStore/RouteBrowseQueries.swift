import Foundation
import GRDB
import TransitModel

/// What the browse surfaces (`/r/{route}`, `/api/v1/routes/{id}`, the route map) read besides `routeDetail`: a
/// route's stop patterns with their paths, and its day types over a week.
extension RouteDatabase {
    /// One stop pattern as read: its stop keys, trips, headsigns and shapes.
    struct PatternRow {
        var direction: Int
        var stops: [Int]
        var trips = 0
        var headsigns: [String: Int] = [:]
        var shapes: [String: Int] = [:]
        var firstTrip: Int
        var tripsWithoutShape = 0
    }

    /// A route by route_id (no query), else as `findRoute` finds it.
    func routeIndex(for query: String) throws -> Int {
        if let exact = routes.first(where: { $0.value.id == query }) { return exact.key }
        return try findRouteIndex(query)
    }

    /// The route's patterns per direction, ranked as `routeDetail` ranks them: most stops, then most trips, then
    /// the earliest trip; the first of each direction is its main pattern. Directions ascending, none last.
    func patternRows(_ routeIndex: Int, _ db: Database) throws -> [PatternRow] {
        struct Key: Hashable { var direction: Int, stops: [Int] }
        var patterns: [Key: PatternRow] = [:]
        var current: (trip: Int, direction: Int, headsign: String, shape: String?, stops: [Int])?
        func finish() {
            guard let done = current, !done.stops.isEmpty else { return }
            let key = Key(direction: done.direction, stops: done.stops)
            var row = patterns[key] ?? PatternRow(direction: done.direction, stops: done.stops, firstTrip: done.trip)
            row.trips += 1
            if !done.headsign.isEmpty { row.headsigns[done.headsign, default: 0] += 1 }
            if let shape = done.shape { row.shapes[shape, default: 0] += 1 } else { row.tripsWithoutShape += 1 }
            row.firstTrip = min(row.firstTrip, done.trip)
            patterns[key] = row
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT t.trip_idx, COALESCE(t.direction_id, -1), COALESCE(t.trip_headsign, ''), t.shape_id, st.stop_idx
                FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx
                WHERE t.route_idx = ? ORDER BY t.direction_id, t.trip_idx, st.stop_sequence
                """, arguments: [routeIndex])
        while let row = try rows.next() {
            let trip: Int = row[0]
            if current?.trip != trip {
                finish()
                current = (trip, row[1], row[2], row[3], [])
            }
            current!.stops.append(row[4])
        }
        finish()
        return patterns.values.sorted { a, b in
            let da = a.direction < 0 ? Int.max : a.direction, db = b.direction < 0 ? Int.max : b.direction
            if da != db { return da < db }
            return (a.stops.count, a.trips, -a.firstTrip) > (b.stops.count, b.trips, -b.firstTrip)
        }
    }

    /// Stops by key, read once each.
    func stopInfos(_ indexes: [Int], _ db: Database) throws -> [Int: StopInfo] {
        var result: [Int: StopInfo] = [:]
        let unique = Array(Set(indexes))
        for chunk in stride(from: 0, to: unique.count, by: 500).map({ Array(unique[$0..<min($0 + 500, unique.count)]) }) {
            for row in try Row.fetchAll(
                db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx IN (\(Self.placeholders(chunk.count)))",
                arguments: StatementArguments(chunk))
            {
                result[row[0]] = stopInfo(row)
            }
        }
        return result
    }

    static func patterns(_ rows: [PatternRow], stops: [Int: StopInfo], route: RouteInfo) -> [RoutePattern] {
        var seenDirections = Set<Int>()
        return rows.map { row in
            let main = seenDirections.insert(row.direction).inserted
            // Named as departures are (`TripDestination`): the most common headsign, else the last stop.
            let headsign = TripDestination.named(
                headsign: row.headsigns.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key ?? "",
                lastStopName: row.stops.last.flatMap { stops[$0]?.name }, route: route)
            // The most common shape of its trips (ties: the smallest id), unless most trips have none.
            let shape = row.shapes.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })
            return RoutePattern(
                directionID: row.direction < 0 ? nil : row.direction, headsign: headsign, trips: row.trips, main: main,
                stopIDs: row.stops.map { stops[$0]?.id ?? "?" },
                shapeID: shape.flatMap { $0.value >= row.tripsWithoutShape ? $0.key : nil })
        }
    }

    /// The route's stop patterns and the stops they serve. The route is a route_id, else found as `findRoute`
    /// finds it (errors as there).
    public func routePatterns(_ query: String) throws -> RoutePatterns {
        let index = try routeIndex(for: query)
        return try read { db in
            let rows = try patternRows(index, db)
            let infos = try stopInfos(rows.flatMap(\.stops), db)
            var seen = Set<Int>()
            var stops: [StopInfo] = []
            for row in rows {
                for stop in row.stops where seen.insert(stop).inserted {
                    if let info = infos[stop] { stops.append(info) }
                }
            }
            return RoutePatterns(
                route: routes[index]!, patterns: Self.patterns(rows, stops: infos, route: routes[index]!),
                stops: stops)
        }
    }

    /// The route's map: each pattern's path (its shape, else the line through its stops), its stops with
    /// coordinates, and the viewer's stop (and its platforms) to highlight.
    public func routeMap(_ query: String, viewer: ResolvedStop? = nil) throws -> RouteMap {
        let index = try routeIndex(for: query)
        return try read { db in
            let rows = try patternRows(index, db)
            let infos = try stopInfos(rows.flatMap(\.stops), db)
            let patterns = Self.patterns(rows, stops: infos, route: routes[index]!)
            var shapes: [String: [Coordinate]] = [:]
            var lines: [RouteMap.Line] = []
            for (row, pattern) in zip(rows, patterns) {
                if let shapeID = pattern.shapeID {
                    if shapes[shapeID] == nil {
                        let blob = try Data.fetchOne(
                            db, sql: "SELECT points FROM shapes WHERE shape_id = ?", arguments: [shapeID])
                        shapes[shapeID] = blob.flatMap { ShapeCoding.decode([UInt8]($0)) } ?? []
                    }
                    if let points = shapes[shapeID], points.count >= 2 {
                        lines.append(RouteMap.Line(pattern: pattern, points: points, fromShape: true))
                        continue
                    }
                }
                let points = row.stops.compactMap { infos[$0]?.coordinate }
                if points.count >= 2 { lines.append(RouteMap.Line(pattern: pattern, points: points, fromShape: false)) }
            }
            var stops: [RouteMap.Stop] = []
            var position: [Int: Int] = [:]
            for row in rows {
                let main = row.stops == rows.first(where: { $0.direction == row.direction })?.stops
                for (order, index) in row.stops.enumerated() {
                    guard let info = infos[index], let coordinate = info.coordinate else { continue }
                    let terminal = main && (order == 0 || order == row.stops.count - 1)
                    if let at = position[index] {
                        if main {
                            stops[at].terminal = stops[at].terminal || terminal
                            if !stops[at].onMain {
                                stops[at].onMain = true
                                stops[at].order = order
                            }
                        }
                        continue
                    }
                    position[index] = stops.count
                    stops.append(
                        RouteMap.Stop(
                            stop: info, coordinate: coordinate, terminal: terminal, onMain: main,
                            order: main ? order : 10_000 + stops.count))
                }
            }
            var highlighted = Set<String>()
            if let viewer {
                highlighted = Set(viewer.platforms.map(\.id) + [viewer.stop.id])
            }
            return RouteMap(
                route: routes[index]!, lines: lines, stops: stops, highlighted: highlighted, viewer: viewer?.stop)
        }
    }

    /// When the route runs in the week (Monday to Sunday) that holds `date`: days with exactly the same trips
    /// form one day type (a holiday that runs the Sunday service joins Sunday; one with its own service stands
    /// alone); days outside the feed's calendar form their own with `inFeed` false. Per direction, trips and the
    /// first and last departure from each trip's first stop (frequency-based trips: one per headway).
    public func routeWeek(_ query: String, around date: ServiceDate) throws -> RouteWeek {
        let index = try routeIndex(for: query)
        struct Trip { var index: Int, direction: Int, service: Int, start: Int? }
        let trips = try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.trip_idx, COALESCE(t.direction_id, -1), t.service_idx,
                      (SELECT st.departure_time FROM stop_times st WHERE st.trip_idx = t.trip_idx
                       AND st.departure_time IS NOT NULL ORDER BY st.stop_sequence LIMIT 1)
                    FROM trips t WHERE t.route_idx = ?
                    """, arguments: [index]
            ).map { Trip(index: $0[0], direction: $0[1], service: $0[2], start: $0[3]) }
        }
        let monday = date.adding(days: -(date.isoWeekday - 1))
        struct Key: Hashable { var inFeed: Bool, trips: [Int] }
        var order: [Key] = []
        var groups: [Key: (weekdays: [Int], dates: [String])] = [:]
        for offset in 0..<7 {
            let day = monday.adding(days: offset)
            let inFeed = (try? checkServiceRange(day)) != nil
            var running: [Int] = []
            if inFeed {
                let active = Set(calendar.activeServices(on: day))
                running = trips.filter { active.contains($0.service) }.map(\.index).sorted()
            }
            let key = Key(inFeed: inFeed, trips: running)
            if groups[key] == nil { order.append(key) }
            groups[key, default: ([], [])].weekdays.append(day.isoWeekday)
            groups[key, default: ([], [])].dates.append(day.description)
        }
        let byIndex = Dictionary(uniqueKeysWithValues: trips.map { ($0.index, $0) })
        let dayTypes = order.map { key -> RouteDayType in
            var starts: [Int: [Int]] = [:]
            for tripIndex in key.trips {
                guard let trip = byIndex[tripIndex] else { continue }
                if let periods = frequencies[tripIndex] {
                    for period in periods where period.headway > 0 {
                        starts[trip.direction, default: []] += Swift.stride(
                            from: period.start, to: period.end, by: period.headway)
                    }
                } else if let start = trip.start {
                    starts[trip.direction, default: []].append(start)
                }
            }
            let directions = starts.keys.sorted { ($0 < 0 ? Int.max : $0) < ($1 < 0 ? Int.max : $1) }.compactMap {
                direction -> RouteDayService? in
                guard let list = starts[direction], let first = list.min(), let last = list.max() else { return nil }
                return RouteDayService(
                    directionID: direction < 0 ? nil : direction, trips: list.count,
                    firstDeparture: GTFSTime(seconds: first).description,
                    lastDeparture: GTFSTime(seconds: last).description)
            }
            let group = groups[key]!
            return RouteDayType(
                weekdays: group.weekdays, dates: group.dates, inFeed: key.inFeed, directions: directions)
        }
        return RouteWeek(weekStart: monday.description, dayTypes: dayTypes)
    }
}
