import Foundation
import GRDB
import GRDBSQLite
import TransitModel

/// One stop time of a trip as the timetable stores it: times in seconds from the service day's origin.
public struct ScheduledStopTime: Sendable, Equatable {
    /// The stop's dense key (`stop_idx`, from 1).
    public var stopIndex: Int
    public var arrival: Int
    public var departure: Int
    public var canBoard: Bool
    public var canAlight: Bool
}

/// A boarding stop or station as a journey planner sees it: where it is and which station it belongs to.
public struct PlanningStop: Sendable, Equatable {
    public var stopIndex: Int
    public var coordinate: Coordinate?
    public var parentIndex: Int?
    public var locationType: Int
}

/// A transfers.txt rule between two stops (or stations): type 2 sets `minSeconds`, type 3 forbids the change.
public struct StopTransferRule: Sendable, Equatable {
    public var fromStopIndex: Int
    public var toStopIndex: Int
    public var type: Int
    public var minSeconds: Int?
}

/// The data provider a journey planner adapter reads: the schedule in database keys, nothing planner-specific.
/// The store knows nothing of the planner; `TripPlanning` compiles these rows into its timetable.
extension RouteDatabase {
    /// The largest `stop_idx` (stops are numbered densely from 1).
    public func stopIndexCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT MAX(stop_idx) FROM stops") ?? 0 }
    }

    /// Each trip's route and service keys, indexed by `trip_idx` (index 0 is unused).
    public func tripRoutesAndServices() throws -> (route: [Int32], service: [Int32]) {
        try read { db in
            var route: [Int32] = [0], service: [Int32] = [0]
            for row in try Row.fetchAll(db, sql: "SELECT route_idx, service_idx FROM trips ORDER BY trip_idx") {
                route.append(row[0]); service.append(row[1])
            }
            return (route, service)
        }
    }

    /// The services running on `date` (calendar.txt, then calendar_dates.txt on top).
    public func activeServices(on date: ServiceDate) -> [Int] { calendar.activeServices(on: date) }

    /// The frequencies.txt periods of a trip, if it is a frequency template.
    public func frequencyPeriods(ofTrip tripIndex: Int) -> [Frequency]? { frequencies[tripIndex] }

    /// Calls `body` with every usable trip's stop times in trip and sequence order: trips with at least two stop
    /// times, every one of them timed (a trip end the importer could not fill makes the trip unusable).
    ///
    /// This is the hot loop of building a planning timetable (millions of rows), read through SQLite's C API;
    /// the array passed to `body` is reused between calls.
    public func forEachTripSchedule(_ body: (_ tripIndex: Int, _ stopTimes: [ScheduledStopTime]) throws -> Void) throws
    {
        try read { db in
            var stopTimes: [ScheduledStopTime] = []
            var currentTrip: Int32 = 0
            var complete = true
            func emit() throws {
                defer { stopTimes.removeAll(keepingCapacity: true); complete = true }
                guard currentTrip != 0, complete, stopTimes.count >= 2 else { return }
                try body(Int(currentTrip), stopTimes)
            }
            try stepRows(
                db,
                sql: """
                    SELECT trip_idx, stop_idx, arrival_time, departure_time, pickup_type, drop_off_type FROM stop_times ORDER BY trip_idx, stop_sequence
                    """
            ) { handle in
                let trip = sqlite3_column_int(handle, 0)
                if trip != currentTrip {
                    try emit()
                    currentTrip = trip
                }
                if sqlite3_column_type(handle, 3) == SQLITE_NULL { complete = false; return }
                stopTimes.append(
                    ScheduledStopTime(
                        stopIndex: Int(sqlite3_column_int(handle, 1)), arrival: Int(sqlite3_column_int(handle, 2)),
                        departure: Int(sqlite3_column_int(handle, 3)),
                        canBoard: sqlite3_column_int(handle, 4) != 1, canAlight: sqlite3_column_int(handle, 5) != 1))
            }
            try emit()
        }
    }

    /// Every stop, station and entrance with its position (stations' coordinates are their own).
    public func planningStops() throws -> [PlanningStop] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT stop_idx, stop_lat, stop_lon, parent_idx, location_type FROM stops").map {
                row in
                let lat: Double? = row[1], lon: Double? = row[2]
                return PlanningStop(
                    stopIndex: row[0],
                    coordinate: lat.flatMap { lat in lon.map { Coordinate(latitude: lat, longitude: $0) } },
                    parentIndex: row[3], locationType: row[4])
            }
        }
    }

    /// transfers.txt rules of type 2 and 3 between two stops (rules naming trips or routes are not included).
    public func stopTransferRules() throws -> [StopTransferRule] {
        var rules: [StopTransferRule] = []
        try forEachStopTransferRule { rules.append($0) }
        return rules
    }

    /// Calls `body` with each of `stopTransferRules()` in file order, one row at a time through SQLite's C API:
    /// a transfers.txt of millions of rows costs no more memory than one (as a whole array of rows, 2 million
    /// cost hundreds of megabytes while the planning timetable was built).
    public func forEachStopTransferRule(_ body: (StopTransferRule) throws -> Void) throws {
        try read { db in
            try stepRows(
                db,
                sql: """
                    SELECT from_stop_idx, to_stop_idx, transfer_type, min_transfer_time FROM transfers
                    WHERE from_stop_idx IS NOT NULL AND to_stop_idx IS NOT NULL AND transfer_type IN (2, 3)
                      AND from_trip_idx IS NULL AND to_trip_idx IS NULL AND from_route_idx IS NULL AND to_route_idx IS NULL
                    ORDER BY rowid
                    """
            ) { handle in
                try body(
                    StopTransferRule(
                        fromStopIndex: Int(sqlite3_column_int64(handle, 0)),
                        toStopIndex: Int(sqlite3_column_int64(handle, 1)), type: Int(sqlite3_column_int64(handle, 2)),
                        minSeconds: sqlite3_column_type(handle, 3) == SQLITE_NULL
                            ? nil : Int(sqlite3_column_int64(handle, 3))))
            }
        }
    }

    /// Steps through `sql`'s rows with SQLite's C API, `body` reading the columns of each row from the statement:
    /// the planning timetable's bulk reads, millions of rows without a row value each.
    private func stepRows(_ db: Database, sql: String, _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw LookupError.notARouteDatabase(
                    path: path, reason: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            try body(handle)
        }
    }

    /// The stop with dense key `stopIndex`.
    public func stop(atIndex stopIndex: Int) throws -> StopInfo {
        try stops(atIndexes: [stopIndex])[stopIndex]!
    }

    /// The stops with these dense keys, in one read (a plan's legs name a handful: one read each, with its
    /// transaction, was a fifth of a plan's cost on the server).
    public func stops(atIndexes stopIndexes: some Sequence<Int>) throws -> [Int: StopInfo] {
        try read { db in
            let statement = try db.cachedStatement(sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?")
            var found: [Int: StopInfo] = [:]
            for stopIndex in stopIndexes where found[stopIndex] == nil {
                guard let row = try Row.fetchOne(statement, arguments: [stopIndex]) else {
                    throw LookupError.notARouteDatabase(path: path, reason: "stop \(stopIndex) vanished")
                }
                found[stopIndex] = stopInfo(row)
            }
            return found
        }
    }

    /// What a plan says of a trip: its `trip_id`, headsign (nil or empty when the feed gives none), short name (a
    /// train number) and last stop's name (its destination without a headsign).
    public struct TripNames: Sendable {
        public var id: String
        public var headsign: String?
        public var shortName: String?
        public var lastStopName: String?
    }

    /// A trip's names by its dense key.
    public func trip(atIndex tripIndex: Int) throws -> TripNames? {
        try trips(atIndexes: [tripIndex])[tripIndex]
    }

    /// The names of the trips with these dense keys (those that exist), in one read.
    public func trips(atIndexes tripIndexes: some Sequence<Int>) throws -> [Int: TripNames] {
        try read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT t.trip_id, t.trip_headsign, t.trip_short_name, \(lastStopNameSQL) FROM trips t WHERE t.trip_idx = ?")
            var found: [Int: TripNames] = [:]
            for tripIndex in tripIndexes where found[tripIndex] == nil {
                if let row = try Row.fetchOne(statement, arguments: [tripIndex]) {
                    found[tripIndex] = TripNames(id: row[0], headsign: row[1], shortName: row[2], lastStopName: row[3])
                }
            }
            return found
        }
    }

    /// A route by its dense key.
    public func route(atIndex routeIndex: Int) -> RouteInfo? { routes[routeIndex] }

    /// The routes calling at any of these stops (dense keys), as the stop view lists them.
    public func routesServing(stopIndexes: [Int]) throws -> [RouteInfo] {
        try read { try routesAt(stopIndexes, $0).map(\.route) }
    }
}
