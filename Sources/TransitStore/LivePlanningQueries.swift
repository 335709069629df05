import Foundation
import GRDB
import TransitModel

/// What plans on live data and step-free plans read beside the planning timetable.
extension RouteDatabase {
    /// Dense keys (`trip_idx`) of the trips among `ids` the timetable has; unknown IDs are absent.
    public func tripIndexes<C: Collection>(ids tripIDs: C) throws -> [String: Int] where C.Element == String {
        let ids = Array(Set(tripIDs))
        var result: [String: Int] = [:]
        result.reserveCapacity(ids.count)
        try read { db in
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = Array(ids[start..<min(start + 500, ids.count)])
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT trip_id, trip_idx FROM trips WHERE trip_id IN (\(Self.placeholders(slice.count)))",
                    arguments: StatementArguments(slice))
                while let row = try rows.next() { result[row[0]] = row[1] }
            }
        }
        return result
    }

    /// Dense keys (`stop_idx`) of the stops among `ids`; unknown IDs are absent.
    public func stopIndexes<C: Collection>(ids stopIDs: C) throws -> [String: Int] where C.Element == String {
        let ids = Array(Set(stopIDs))
        var result: [String: Int] = [:]
        try read { db in
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = Array(ids[start..<min(start + 500, ids.count)])
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT stop_id, stop_idx FROM stops WHERE stop_id IN (\(Self.placeholders(slice.count)))",
                    arguments: StatementArguments(slice))
                while let row = try rows.next() { result[row[0]] = row[1] }
            }
        }
        return result
    }

    /// Dense keys (`route_idx`) by route_id.
    public func routeIndexes() throws -> [String: Int] {
        try read { db in
            var result: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT route_id, route_idx FROM routes") { result[row[0]] = row[1] }
            return result
        }
    }

    /// Step-free facts as GTFS states them. `tripAccessible[trip_idx]`: `wheelchair_accessible = 1`.
    /// `stopAccessible[stop_idx]`: `wheelchair_boarding = 1`, or, for a stop that says nothing (0) and belongs
    /// to a station, the station's 1 (GTFS: platforms inherit from their parent). Every other value — 0 with
    /// nothing to inherit, 2 — is not step-free. Index 0 is unused in both.
    public func stepFreeFacts() throws -> (tripAccessible: [Bool], stopAccessible: [Bool]) {
        try read { db in
            var trips = [false]
            for row in try Row.fetchAll(db, sql: "SELECT trip_idx, wheelchair_accessible FROM trips ORDER BY trip_idx") {
                let index: Int = row[0]
                while trips.count <= index { trips.append(false) }
                trips[index] = (row[1] as Int?) == 1
            }
            var stops = [false]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT s.stop_idx, s.wheelchair_boarding, p.wheelchair_boarding FROM stops s
                    LEFT JOIN stops p ON p.stop_idx = s.parent_idx ORDER BY s.stop_idx
                    """)
            {
                let index: Int = row[0]
                while stops.count <= index { stops.append(false) }
                let own: Int = row[1] ?? 0
                let parent: Int? = row[2]
                stops[index] = own == 1 || (own == 0 && parent == 1)
            }
            return (trips, stops)
        }
    }
}
