import Foundation
import GRDB
import TransitModel

/// The geometry the pictures draw, as plain values (`StopMap`, `RouteDiagram`, `JourneyMap`): shapes decoded
/// from the database, or the straight stop-to-stop line of a trip the feed gives no shape.
extension RouteDatabase {
    /// A stop map's content: the stop at the centre, the boarding stops within `radiusMeters`, and for each route
    /// and direction serving the stop the path of its most common pattern there.
    public func stopMap(for stop: ResolvedStop, radiusMeters: Int = 400) throws -> StopMap {
        guard let center = stop.stop.coordinate ?? stop.platforms.lazy.compactMap(\.coordinate).first else {
            throw LookupError.invalidQuery(
                "the stop '\(TerminalText.sanitize(stop.stop.id, maxLength: 40))' has no coordinates: there is nothing to draw"
            )
        }
        return try read { db in
            let nearby = try nearbyStops(around: stop, radius: Double(radiusMeters), db, limit: 60)
            let here = try routesAt(stop.platformIndexes, db)
            // The most frequent (route, direction, shape) at this stop: one representative trip each.
            let sql = """
                SELECT t.route_idx, COALESCE(t.direction_id, -1), COUNT(*), MIN(t.trip_idx)
                FROM stop_times st JOIN trips t ON t.trip_idx = st.trip_idx
                WHERE st.stop_idx IN (\(Self.placeholders(stop.platformIndexes.count)))
                GROUP BY t.route_idx, COALESCE(t.direction_id, -1), t.shape_id
                """
            var best: [Pair: (count: Int, trip: Int)] = [:]
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(stop.platformIndexes)) {
                let key = Pair(route: row[0], direction: row[1])
                let count: Int = row[2], trip: Int = row[3]
                if let known = best[key], known.count >= count { continue }
                best[key] = (count, trip)
            }
            var lines: [RouteLine] = []
            for route in here {
                for direction in route.directions {
                    guard let pick = best[Pair(route: route.routeIndex, direction: direction.directionID ?? -1)]
                    else { continue }
                    let path = try tripPath(pick.trip, db)
                    guard path.points.count >= 2 else { continue }
                    // Where the path drawn goes: its trip's destination (`TripDestination`).
                    let destination = try destination(ofTrip: pick.trip, db) ?? direction.headsigns.first
                    lines.append(
                        RouteLine(
                            route: route.route, directionID: direction.directionID,
                            headsign: destination, points: path.points, fromShape: path.fromShape))
                }
            }
            return StopMap(stop: stop.stop, center: center, radiusMeters: radiusMeters, nearby: nearby, lines: lines)
        }
    }

    /// One direction of a route as a strip map: the stops of its longest trip in that direction (a trip that
    /// calls at `viewer` when one is given), each with the other routes that board there or at another platform
    /// of the same station. Without `direction`, the one serving `viewer` (else the lowest).
    public func routeDiagram(
        route query: String, direction: Int? = nil, viewer: ResolvedStop? = nil
    ) throws
        -> RouteDiagram
    {
        let (routeIndex, routeID) = try resolveRoute(query)
        guard let route = routes[routeIndex] else { throw LabelSelectionError.routeWithoutStops(routeID: routeID) }
        return try read { db in
            var sql = """
                SELECT t.trip_idx, COALESCE(t.direction_id, -1), COUNT(*) FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx
                WHERE t.route_idx = ?
                """
            var arguments: [(any DatabaseValueConvertible)?] = [routeIndex]
            if let viewer {
                sql += """
                     AND t.trip_idx IN (SELECT trip_idx FROM stop_times WHERE stop_idx IN (\(Self.placeholders(viewer.platformIndexes.count))))
                    """
                arguments += viewer.platformIndexes.map { $0 as (any DatabaseValueConvertible)? }
            }
            sql += " GROUP BY t.trip_idx"
            var longest: [Int: (trip: Int, stops: Int)] = [:]
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) {
                let trip: Int = row[0], dir: Int = row[1], stops: Int = row[2]
                if let known = longest[dir], known.stops > stops || (known.stops == stops && known.trip < trip) {
                    continue
                }
                longest[dir] = (trip, stops)
            }
            let wanted = direction ?? -1
            let chosenDirection: Int
            if direction != nil {
                guard longest[wanted] != nil else {
                    let known = longest.keys.sorted().map { $0 < 0 ? "none" : String($0) }.joined(separator: ", ")
                    throw LookupError.invalidQuery(
                        "route '\(TerminalText.sanitize(route.label, maxLength: 30))' has no trips in direction \(wanted)"
                            + (viewer != nil ? " that call at the stop" : "")
                            + (known.isEmpty ? "" : " (directions: \(known))"))
                }
                chosenDirection = wanted
            } else {
                guard let first = longest.keys.sorted().first else {
                    if viewer != nil {
                        throw LookupError.invalidQuery(
                            "route '\(TerminalText.sanitize(route.label, maxLength: 30))' does not call at the stop '\(TerminalText.sanitize(viewer!.stop.name, maxLength: 40))'"
                        )
                    }
                    throw LabelSelectionError.routeWithoutStops(routeID: routeID)
                }
                chosenDirection = first
            }
            let trip = longest[chosenDirection]!.trip
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(RouteDatabase.stopColumns) JOIN stop_times st ON st.stop_idx = s.stop_idx
                    WHERE st.trip_idx = ? ORDER BY st.stop_sequence
                    """, arguments: [trip])
            let viewerIndexes = Set(viewer?.platformIndexes ?? []).union(viewer.map { [$0.stopIndex] } ?? [])
            var stops: [RouteDiagram.Stop] = []
            var highlighted: Int?
            for row in rows {
                let index: Int = row[0]
                let parent: Int? = row[12]
                var platforms = [index]
                if let parent {
                    platforms = try Int.fetchAll(
                        db, sql: "SELECT stop_idx FROM stops WHERE parent_idx = ? AND location_type = 0",
                        arguments: [parent])
                    if !platforms.contains(index) { platforms.append(index) }
                }
                platforms += try interchangePlatforms(of: parent ?? index, db)  // other feeds' stops of this place
                let others = try routesAt(platforms, db).filter { $0.routeIndex != routeIndex }.map(\.route)
                if highlighted == nil, viewerIndexes.contains(index) { highlighted = stops.count }
                stops.append(RouteDiagram.Stop(stop: stopInfo(row), transfers: others))
            }
            let headsign = try destination(ofTrip: trip, db) ?? stops.last?.stop.name ?? ""
            return RouteDiagram(
                route: route, directionID: chosenDirection < 0 ? nil : chosenDirection, headsign: headsign,
                stops: stops, highlighted: highlighted)
        }
    }

    /// Where a trip goes, as a departure of it says (`TripDestination`; its trip_headsign, no stop_headsign).
    func destination(ofTrip trip: Int, _ db: Database) throws -> String? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT t.route_idx, COALESCE(t.trip_headsign, ''), \(lastStopNameSQL) FROM trips t WHERE t.trip_idx = ?"
                ), arguments: [trip]),
            let route = routes[row[0]]
        else { return nil }
        return TripDestination.named(headsign: row[1], lastStopName: row[2], route: route)
    }

    /// The geometry of a plan option (0-based): rides along their trip's shape from the boarding to the alighting
    /// stop (stop to stop when the trip has no shape), walks as straight lines.
    public func journeyMap(_ plan: JourneyPlan, option: Int) throws -> JourneyMap {
        guard plan.options.indices.contains(option) else {
            throw LookupError.invalidQuery("the plan has no option \(option + 1)")
        }
        return try read { db in
            var legs: [JourneyMap.Leg] = []
            for step in plan.options[option].legs {
                let ends = [step.from.coordinate, step.to.coordinate].compactMap { $0 }
                guard step.kind == .ride, let tripID = step.tripID,
                    let trip = try Int.fetchOne(
                        db, sql: "SELECT trip_idx FROM trips WHERE trip_id = ?", arguments: [tripID])
                else {
                    legs.append(JourneyMap.Leg(step: step, points: ends, fromShape: false))
                    continue
                }
                let stopsOnTrip = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.stop_id, COALESCE(s.stop_lat, p.stop_lat), COALESCE(s.stop_lon, p.stop_lon)
                        FROM stop_times st JOIN stops s ON s.stop_idx = st.stop_idx LEFT JOIN stops p ON p.stop_idx = s.parent_idx
                        WHERE st.trip_idx = ? ORDER BY st.stop_sequence
                        """, arguments: [trip])
                let ids: [String] = stopsOnTrip.map { $0[0] }
                guard let board = ids.firstIndex(of: step.from.id),
                    let alight = ids[(board + 1)...].firstIndex(of: step.to.id)
                else {
                    legs.append(JourneyMap.Leg(step: step, points: ends, fromShape: false))
                    continue
                }
                let between = stopsOnTrip[board...alight].compactMap { row -> Coordinate? in
                    guard let lat: Double = row[1], let lon: Double = row[2] else { return nil }
                    return Coordinate(latitude: lat, longitude: lon)
                }
                if let shape = try shapePoints(ofTrip: trip, db), let from = between.first, let to = between.last {
                    legs.append(
                        JourneyMap.Leg(
                            step: step, points: Self.slice(shape, from: from, to: to, via: between), fromShape: true))
                } else {
                    legs.append(JourneyMap.Leg(step: step, points: between, fromShape: false))
                }
            }
            return JourneyMap(plan: plan, optionNumber: option + 1, legs: legs)
        }
    }

    /// Points kept after simplification and points read from shapes.txt, over all stored shapes.
    public func shapePointCounts() throws -> (kept: Int, read: Int) {
        try read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT COALESCE(SUM(point_count), 0), COALESCE(SUM(source_point_count), 0) FROM shapes")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    // MARK: - Paths

    struct Pair: Hashable { var route: Int, direction: Int }

    /// A trip's path: its shape, or the line through its stops.
    func tripPath(_ trip: Int, _ db: Database) throws -> (points: [Coordinate], fromShape: Bool) {
        if let shape = try shapePoints(ofTrip: trip, db) { return (shape, true) }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT COALESCE(s.stop_lat, p.stop_lat), COALESCE(s.stop_lon, p.stop_lon)
                FROM stop_times st JOIN stops s ON s.stop_idx = st.stop_idx LEFT JOIN stops p ON p.stop_idx = s.parent_idx
                WHERE st.trip_idx = ? ORDER BY st.stop_sequence
                """, arguments: [trip])
        let points = rows.compactMap { row -> Coordinate? in
            guard let lat: Double = row[0], let lon: Double = row[1] else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        return (points, false)
    }

    func shapePoints(ofTrip trip: Int, _ db: Database) throws -> [Coordinate]? {
        guard
            let blob = try Data.fetchOne(
                db.cachedStatement(
                    sql: "SELECT sh.points FROM trips t JOIN shapes sh ON sh.shape_id = t.shape_id WHERE t.trip_idx = ?"
                ),
                arguments: [trip]),
            let points = ShapeCoding.decode([UInt8](blob)), points.count >= 2
        else { return nil }
        return points
    }

    /// The part of `shape` between the vertices nearest `from` and `to`, found in travel order (each stop in
    /// `via` is matched after the previous one, so a loop is not cut short). The stops themselves are the ends.
    static func slice(_ shape: [Coordinate], from: Coordinate, to: Coordinate, via: [Coordinate]) -> [Coordinate] {
        func nearest(_ point: Coordinate, after start: Int) -> Int {
            var best = start, bestDistance = Double.infinity
            let cosLat = cos(point.latitude * .pi / 180)
            for i in start..<shape.count {
                let dy = shape[i].latitude - point.latitude
                let dx = (shape[i].longitude - point.longitude) * cosLat
                let d = dx * dx + dy * dy
                if d < bestDistance {
                    bestDistance = d
                    best = i
                }
            }
            return best
        }
        var index = nearest(from, after: 0)
        let first = index
        for stop in via.dropFirst() { index = nearest(stop, after: index) }
        let last = max(first, index)
        return [from] + shape[first...last] + [to]
    }
}
