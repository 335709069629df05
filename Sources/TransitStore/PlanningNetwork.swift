import Foundation
import GRDB
import GRDBSQLite
import JourneyPlanner
import TransitModel

/// How journeys may be put together: the planner's knobs, as `kiosk plan` and the kiosk config expose them.
public struct PlanningRules: Sendable, Equatable {
    /// Generated walks between different stops within this straight-line distance (0: none).
    public var walkRadiusMeters: Int = 400
    public var walkSpeedMetersPerSecond: Double = 1.2
    /// Minimum time to change vehicles at the same stop.
    public var minTransferSeconds: Int = 60

    public init(walkRadiusMeters: Int = 400, walkSpeedMetersPerSecond: Double = 1.2, minTransferSeconds: Int = 60) {
        self.walkRadiusMeters = walkRadiusMeters
        self.walkSpeedMetersPerSecond = walkSpeedMetersPerSecond
        self.minTransferSeconds = minTransferSeconds
    }

    public static let walkRadiusLimit = 2000
}

/// The timetable of a few service days, compiled for the journey planner, with what it takes to turn the
/// planner's numbers back into trips, stops and clock times.
///
/// One timeline covers the window: second 0 is the origin ("noon minus 12 h") of the first service date, and
/// each service date's trips are shifted by that date's origin, so the previous day's after-midnight trips,
/// today's and tomorrow morning's all compare as plain numbers, DST days included.
public final class PlanningNetwork: Sendable {
    public let timetable: Timetable
    /// The instant of timeline second 0.
    public let reference: Date
    public let rules: PlanningRules
    public let serviceDates: [ServiceDate]
    /// tripRef → (trip_idx, service date day number).
    let tripInstances: [(trip: Int32, day: Int32)]

    init(timetable: Timetable, reference: Date, rules: PlanningRules, serviceDates: [ServiceDate], tripInstances: [(trip: Int32, day: Int32)]) {
        self.timetable = timetable
        self.reference = reference
        self.rules = rules
        self.serviceDates = serviceDates
        self.tripInstances = tripInstances
    }

    public func timelineSeconds(_ date: Date) -> Int { Int(date.timeIntervalSince(reference).rounded(.up)) }
    public func instant(_ seconds: Int) -> Date { reference.addingTimeInterval(TimeInterval(seconds)) }
}

extension RouteDatabase {
    /// Compiles the service days a journey starting at `at` can touch: the days whose after-midnight trips still
    /// run (the previous day, or more for feeds running past 48:00), the day itself and the next one (late
    /// evening journeys end tomorrow). Stop indexes in the planner are `stop_idx - 1`.
    public func planningNetwork(around at: Date, rules: PlanningRules = PlanningRules()) throws -> PlanningNetwork {
        let day = ServiceDate.containing(at, in: timeZone)
        let dates = (-(latestDepartureSeconds / 86_400 + 1)...1).map { day.adding(days: $0) }
        let reference = dates[0].serviceDayOrigin(in: timeZone)
        let offsets = dates.map { Int($0.serviceDayOrigin(in: timeZone).timeIntervalSince(reference)) }
        let active = dates.map { Set(calendar.activeServices(on: $0)) }

        return try read { db in
            let stopCount = try Int.fetchOne(db, sql: "SELECT MAX(stop_idx) FROM stops") ?? 0
            var builder = TimetableBuilder(stopCount: stopCount, minTransferSeconds: rules.minTransferSeconds)
            var instances: [(trip: Int32, day: Int32)] = []

            // Trip → (route, service), dense by trip_idx.
            var tripRoute: [Int32] = [0], tripService: [Int32] = [0]
            for row in try Row.fetchAll(db, sql: "SELECT route_idx, service_idx FROM trips ORDER BY trip_idx") {
                tripRoute.append(row[0]); tripService.append(row[1])
            }

            var events: [StopEvent] = []
            var shifted: [StopEvent] = []
            var currentTrip: Int32 = 0
            var complete = true
            func emit() throws {
                defer { events.removeAll(keepingCapacity: true); complete = true }
                guard currentTrip != 0, complete, events.count >= 2 else { return }
                let service = Int(tripService[Int(currentTrip)])
                let periods = frequencies[Int(currentTrip)]
                for (i, date) in dates.enumerated() where active[i].contains(service) {
                    let offset = offsets[i]
                    if let periods {
                        // A frequency template: one trip per start time, the events shifted from its first departure.
                        let first = events[0].departure
                        for period in periods {
                            for start in stride(from: period.start, to: period.end, by: period.headway) {
                                shifted = events.map { StopEvent(stop: $0.stop, arrival: $0.arrival - first + start + offset,
                                                                  departure: $0.departure - first + start + offset, canBoard: $0.canBoard, canAlight: $0.canAlight) }
                                try builder.addTrip(tripRef: instances.count, routeRef: Int(tripRoute[Int(currentTrip)]), events: shifted)
                                instances.append((currentTrip, Int32(date.dayNumber)))
                            }
                        }
                    } else {
                        shifted = events.map { StopEvent(stop: $0.stop, arrival: $0.arrival + offset, departure: $0.departure + offset,
                                                         canBoard: $0.canBoard, canAlight: $0.canAlight) }
                        try builder.addTrip(tripRef: instances.count, routeRef: Int(tripRoute[Int(currentTrip)]), events: shifted)
                        instances.append((currentTrip, Int32(date.dayNumber)))
                    }
                }
            }

            // The hot loop: every stop time in trip order, read through the C API (millions of rows).
            let statement = try db.makeStatement(sql: """
                SELECT trip_idx, stop_idx, arrival_time, departure_time, pickup_type, drop_off_type FROM stop_times ORDER BY trip_idx, stop_sequence
                """)
            let handle = statement.sqliteStatement
            sqlite3_reset(handle)
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw LookupError.notARouteDatabase(path: path, reason: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                let trip = sqlite3_column_int(handle, 0)
                if trip != currentTrip {
                    try emit()
                    currentTrip = trip
                }
                // A stop time without a time (an untimed trip end the importer could not fill) makes the trip unusable.
                if sqlite3_column_type(handle, 3) == SQLITE_NULL { complete = false; continue }
                events.append(StopEvent(stop: Int(sqlite3_column_int(handle, 1)) - 1, arrival: Int(sqlite3_column_int(handle, 2)),
                                        departure: Int(sqlite3_column_int(handle, 3)),
                                        canBoard: sqlite3_column_int(handle, 4) != 1, canAlight: sqlite3_column_int(handle, 5) != 1))
            }
            try emit()
            try addTransfers(to: &builder, rules: rules, db)
            return PlanningNetwork(timetable: builder.build(), reference: reference, rules: rules, serviceDates: dates, tripInstances: instances)
        }
    }

    /// Walks within the radius (both ways, straight line at walking speed), platforms of a station connected,
    /// and transfers.txt: type 2 sets a minimum time, type 3 forbids; a rule naming a station applies to all
    /// its platforms.
    private func addTransfers(to builder: inout TimetableBuilder, rules: PlanningRules, _ db: Database) throws {
        struct Place { var index: Int; var coordinate: Coordinate }
        var places: [Place] = []
        var children: [Int: [Int]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT stop_idx, stop_lat, stop_lon, parent_idx, location_type FROM stops") {
            let index: Int = row[0]
            if let parent: Int = row[3], (row[4] as Int) == 0 {
                children[parent, default: []].append(index)
                try builder.setStationGroup(parent - 1, forStop: index - 1)
            }
            if let lat: Double = row[1], let lon: Double = row[2], (row[4] as Int) == 0 {
                places.append(Place(index: index, coordinate: Coordinate(latitude: lat, longitude: lon)))
            }
        }

        if rules.walkRadiusMeters > 0 {
            // Bucket stops in cells of the radius, so each stop is compared only with its 3×3 neighbourhood.
            let radius = Double(rules.walkRadiusMeters)
            let cellLat = radius / 111_000
            let cellLon = cellLat / max(0.05, cos((places.first?.coordinate.latitude ?? 0) * .pi / 180))
            struct Cell: Hashable { var x: Int, y: Int }
            func cell(_ c: Coordinate) -> Cell { Cell(x: Int((c.longitude / cellLon).rounded(.down)), y: Int((c.latitude / cellLat).rounded(.down))) }
            var grid: [Cell: [Int]] = [:]
            for (i, place) in places.enumerated() { grid[cell(place.coordinate), default: []].append(i) }
            for (i, place) in places.enumerated() {
                let home = cell(place.coordinate)
                for dx in -1...1 {
                    for dy in -1...1 {
                        for j in grid[Cell(x: home.x + dx, y: home.y + dy)] ?? [] where j > i {
                            let distance = place.coordinate.distance(to: places[j].coordinate)
                            guard distance <= radius else { continue }
                            let seconds = Int((distance / rules.walkSpeedMetersPerSecond).rounded(.up))
                            try builder.addFootpath(from: place.index - 1, to: places[j].index - 1, seconds: seconds)
                            try builder.addFootpath(from: places[j].index - 1, to: place.index - 1, seconds: seconds)
                        }
                    }
                }
            }
        }

        for row in try Row.fetchAll(db, sql: """
            SELECT from_stop_idx, to_stop_idx, transfer_type, min_transfer_time FROM transfers
            WHERE from_stop_idx IS NOT NULL AND to_stop_idx IS NOT NULL AND transfer_type IN (2, 3)
              AND from_trip_idx IS NULL AND to_trip_idx IS NULL AND from_route_idx IS NULL AND to_route_idx IS NULL
            """) {
            let from: Int = row[0], to: Int = row[1], type: Int = row[2]
            for a in children[from] ?? [from] {
                for b in children[to] ?? [to] {
                    if type == 3 {
                        try builder.forbidTransfer(from: a - 1, to: b - 1)
                    } else if let seconds: Int = row[3] {
                        try builder.setMinimumTransfer(from: a - 1, to: b - 1, seconds: seconds)
                    }
                }
            }
        }
    }
}
