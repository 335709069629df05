import Foundation
import GRDB
import TransitModel

/// The same vehicle journey published by two feeds (a suburban train both the railway and the region's
/// authority list) would show twice on every board it calls at. Two trips of different feeds are one when their
/// routes have the same short name, they run on the same dates, and they call at the same interchanges
/// (`Interchanges`) at the same times — at least two of them. The first feed's trip is kept; the others are
/// dropped and listed in the import summary.
public enum DuplicateTrips {
    public struct Dropped: Sendable, Equatable {
        public var kept: String
        public var dropped: String
    }

    /// Finds and deletes the duplicates of a database of several feeds (`tripKeys`: each feed's trip keys).
    static func remove(_ db: Database, tripKeys: [ClosedRange<Int>]) throws -> [Dropped] {
        guard tripKeys.count > 1, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stop_groups") ?? 0 > 0 else {
            return []
        }
        func feed(of trip: Int) -> Int { tripKeys.firstIndex { $0.contains(trip) } ?? -1 }
        // Only trips of a short name that routes of several feeds share can be duplicates.
        var tripsByName: [String: [Int]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT lower(r.route_short_name), t.trip_idx FROM trips t JOIN routes r ON r.route_idx = t.route_idx
                WHERE r.route_short_name IS NOT NULL AND r.route_short_name != '' ORDER BY t.trip_idx
                """)
        {
            tripsByName[row[0], default: []].append(row[1])
        }
        let candidates = tripsByName.filter { Set($0.value.map(feed)).count > 1 }
        guard !candidates.isEmpty else { return [] }

        // The place (interchange) of every stop that is one: a grouped station's platforms, a grouped stop.
        var place: [Int: Int] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT s.stop_idx, g.group_idx FROM stops s JOIN stop_groups g ON g.stop_idx = s.stop_idx
                UNION ALL SELECT s.stop_idx, g.group_idx FROM stops s JOIN stop_groups g ON g.stop_idx = s.parent_idx
                """)
        {
            place[row[0]] = row[1]
        }
        struct Signature: Hashable {
            var name: String
            var calls: [Int]  // place, departure, place, departure, …
        }
        let calls = try db.makeStatement(
            sql: "SELECT stop_idx, departure_time FROM stop_times WHERE trip_idx = ? ORDER BY stop_sequence")
        var bySignature: [Signature: [Int]] = [:]
        for (name, trips) in candidates {
            for trip in trips {
                var signature = Signature(name: name, calls: [])
                let rows = try Row.fetchCursor(calls, arguments: [trip])
                while let row = try rows.next() {
                    guard let at = place[row[0]], let departure: Int = row[1] else { continue }
                    signature.calls += [at, departure]
                }
                if signature.calls.count >= 4 { bySignature[signature, default: []].append(trip) }
            }
        }
        var dropped: [Dropped] = []
        var dates: [Int: Set<Int>] = [:]  // by service
        for trips in bySignature.values where Set(trips.map(feed)).count > 1 {
            var kept: [Int] = []
            for trip in trips.sorted() {
                let service = try Int.fetchOne(db, sql: "SELECT service_idx FROM trips WHERE trip_idx = ?", arguments: [trip])!
                if dates[service] == nil { dates[service] = try serviceDates(db, service) }
                if let twin = try kept.first(where: { other in
                    let otherService = try Int.fetchOne(
                        db, sql: "SELECT service_idx FROM trips WHERE trip_idx = ?", arguments: [other])!
                    return feed(of: other) != feed(of: trip) && dates[otherService] == dates[service]
                }) {
                    dropped.append(
                        Dropped(
                            kept: try String.fetchOne(db, sql: "SELECT trip_id FROM trips WHERE trip_idx = ?", arguments: [twin])!,
                            dropped: try String.fetchOne(db, sql: "SELECT trip_id FROM trips WHERE trip_idx = ?", arguments: [trip])!))
                    for sql in [
                        "DELETE FROM stop_times WHERE trip_idx = ?", "DELETE FROM frequencies WHERE trip_idx = ?",
                        "DELETE FROM transfers WHERE from_trip_idx = ?1 OR to_trip_idx = ?1",
                        "DELETE FROM trips WHERE trip_idx = ?",
                    ] {
                        try db.execute(sql: sql, arguments: [trip])
                    }
                } else {
                    kept.append(trip)
                }
            }
        }
        return dropped.sorted { $0.dropped < $1.dropped }
    }

    /// The dates (day numbers) a service runs: calendar.txt's weekdays in its range, with calendar_dates.txt's
    /// additions and removals.
    static func serviceDates(_ db: Database, _ service: Int) throws -> Set<Int> {
        var days = Set<Int>()
        if let row = try Row.fetchOne(
            db, sql: "SELECT weekdays, start_date, end_date FROM calendar WHERE service_idx = ?", arguments: [service]),
            let start = ServiceDate(yyyymmdd: row[1]), let end = ServiceDate(yyyymmdd: row[2])
        {
            let weekdays: Int = row[0]
            for day in start.dayNumber...max(start.dayNumber, end.dayNumber)
            where weekdays & (1 << (ServiceDate(dayNumber: day).isoWeekday - 1)) != 0 {
                days.insert(day)
            }
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT date, exception_type FROM calendar_dates WHERE service_idx = ?", arguments: [service])
        {
            guard let date = ServiceDate(yyyymmdd: row[0]) else { continue }
            if (row[1] as Int) == 1 { days.insert(date.dayNumber) } else { days.remove(date.dayNumber) }
        }
        return days
    }
}
