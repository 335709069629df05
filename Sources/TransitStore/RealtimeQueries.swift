import Foundation
import GRDB
import TransitModel

/// One scheduled trip as live-data matching needs it: its stop times in stop_sequence order.
public struct ScheduledTrip: Sendable, Equatable {
    public struct StopTime: Sendable, Equatable {
        public var sequence: Int
        public var stopID: String
        /// Seconds from the service day's origin (see `GTFSTime`); nil where the feed gives none.
        public var arrival: Int?
        public var departure: Int?

        public init(sequence: Int, stopID: String, arrival: Int?, departure: Int?) {
            self.sequence = sequence
            self.stopID = stopID
            self.arrival = arrival
            self.departure = departure
        }
    }

    public var tripID: String
    public var routeID: String
    public var directionID: Int?
    public var serviceIndex: Int
    public var headsign: String
    /// A frequencies.txt template: its instances are told apart by start time.
    public var frequencyBased: Bool
    public var stopTimes: [StopTime]

    public init(
        tripID: String, routeID: String, directionID: Int?, serviceIndex: Int, headsign: String, frequencyBased: Bool,
        stopTimes: [StopTime]
    ) {
        self.tripID = tripID
        self.routeID = routeID
        self.directionID = directionID
        self.serviceIndex = serviceIndex
        self.headsign = headsign
        self.frequencyBased = frequencyBased
        self.stopTimes = stopTimes
    }
}

/// A route as alerts and added trips need it: the displayable route, its agency_id and GTFS route_type.
public struct RouteRecord: Sendable, Equatable {
    public var info: RouteInfo
    public var agencyID: String
    public var routeType: Int

    public init(info: RouteInfo, agencyID: String, routeType: Int) {
        self.info = info
        self.agencyID = agencyID
        self.routeType = routeType
    }
}

extension RouteDatabase {
    /// The trips among `tripIDs` the timetable has, keyed by trip_id; unknown IDs are simply absent.
    /// Reads through the trips' primary keys in batches, so a feed of thousands of trips costs one pass.
    public func scheduledTrips<C: Collection>(ids tripIDs: C) throws -> [String: ScheduledTrip]
    where C.Element == String {
        var result: [String: ScheduledTrip] = [:]
        result.reserveCapacity(tripIDs.count)
        let ids = Array(Set(tripIDs))
        try read { db in
            var stopIDs: [Int: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT stop_idx, stop_id FROM stops") { stopIDs[row[0]] = row[1] }
            let batch = 500
            for start in stride(from: 0, to: ids.count, by: batch) {
                let slice = Array(ids[start..<min(start + batch, ids.count)])
                var trips: [Int: ScheduledTrip] = [:]
                let tripRows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT t.trip_idx, t.trip_id, r.route_id, t.direction_id, t.service_idx, COALESCE(t.trip_headsign, '')
                        FROM trips t JOIN routes r ON r.route_idx = t.route_idx WHERE t.trip_id IN (\(Self.placeholders(slice.count)))
                        """, arguments: StatementArguments(slice))
                while let row = try tripRows.next() {
                    let index: Int = row[0]
                    trips[index] = ScheduledTrip(
                        tripID: row[1], routeID: row[2], directionID: row[3], serviceIndex: row[4], headsign: row[5],
                        frequencyBased: frequencies[index] != nil, stopTimes: [])
                }
                guard !trips.isEmpty else { continue }
                // Read through the stop_times primary key (trip_idx, stop_sequence): already in trip order.
                let keys = Array(trips.keys)
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT trip_idx, stop_sequence, stop_idx, arrival_time, departure_time FROM stop_times
                        WHERE trip_idx IN (\(Self.placeholders(keys.count))) ORDER BY trip_idx, stop_sequence
                        """, arguments: StatementArguments(keys))
                var currentIndex = -1
                var stopTimes: [ScheduledTrip.StopTime] = []
                func flush() {
                    guard currentIndex >= 0, var trip = trips[currentIndex] else { return }
                    trip.stopTimes = stopTimes
                    result[trip.tripID] = trip
                }
                while let row = try rows.next() {
                    let index: Int = row[0]
                    if index != currentIndex {
                        flush()
                        currentIndex = index
                        stopTimes = []
                        stopTimes.reserveCapacity(32)
                    }
                    stopTimes.append(
                        ScheduledTrip.StopTime(
                            sequence: row[1], stopID: stopIDs[row[2]] ?? "", arrival: row[3], departure: row[4]))
                }
                flush()
            }
        }
        return result
    }

    /// Every route by route_id, with its agency_id and route_type.
    public func routeRecords() throws -> [String: RouteRecord] {
        try read { db in
            var result: [String: RouteRecord] = [:]
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT r.route_idx, r.route_id, COALESCE(a.agency_id, ''), r.route_type FROM routes r LEFT JOIN agency a ON a.agency_idx = r.agency_idx"
            ) {
                guard let info = routes[row[0]] else { continue }
                result[row[1]] = RouteRecord(info: info, agencyID: row[2], routeType: row[3])
            }
            return result
        }
    }

    /// The agency_id of every agency in the feed.
    public func agencyIDs() throws -> [String] {
        try read { try String.fetchAll($0, sql: "SELECT agency_id FROM agency ORDER BY agency_idx") }
    }

    /// The stop_ids the timetable knows, out of `stopIDs`.
    public func knownStopIDs<C: Collection>(_ stopIDs: C) throws -> Set<String> where C.Element == String {
        let ids = Array(Set(stopIDs))
        return try read { db in
            var known = Set<String>()
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = Array(ids[start..<min(start + 500, ids.count)])
                known.formUnion(
                    try String.fetchAll(
                        db, sql: "SELECT stop_id FROM stops WHERE stop_id IN (\(Self.placeholders(slice.count)))",
                        arguments: StatementArguments(slice)))
            }
            return known
        }
    }
}

extension RouteDatabase {
    /// The trip_ids of the trips running on `date`, in timetable order (for feed generators and benchmarks).
    public func tripIDs(runningOn date: ServiceDate) throws -> [String] {
        let services = activeServiceIndexes(on: date)
        guard !services.isEmpty else { return [] }
        return try read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT trip_id FROM trips WHERE service_idx IN (\(Self.placeholders(services.count))) ORDER BY trip_idx",
                arguments: StatementArguments(services))
        }
    }
}
