import Foundation
import GRDB
import TransitModel

/// Why a timetable cannot be made. Each case names what was asked for (exit 2 at the command line).
public enum TimetableError: Error, Equatable, CustomStringConvertible {
    /// The route was asked for at a stop it does not serve; `routesHere` are the routes that do.
    case routeNotAtStop(route: String, stop: String, routesHere: [String])
    /// Nothing departs from the stop (or from it on the chosen routes) on the dates asked for.
    case noDepartures(stop: String, dates: String)
    /// The route runs no trip in this direction on the date.
    case noTrips(route: String, direction: Int?, date: String)

    public var description: String {
        switch self {
        case let .routeNotAtStop(route, stop, here):
            return "route '\(TerminalText.sanitize(route, maxLength: 40))' does not depart from stop \(TerminalText.sanitize(stop, maxLength: 60))"
                + (here.isEmpty ? "" : "; routes here: " + here.map { TerminalText.sanitize($0, maxLength: 30) }.joined(separator: ", "))
        case let .noDepartures(stop, dates):
            return "nothing departs from stop \(TerminalText.sanitize(stop, maxLength: 60)) on \(dates): there is no timetable to print"
        case let .noTrips(route, direction, date):
            return "route '\(TerminalText.sanitize(route, maxLength: 40))' runs no trips"
                + (direction.map { " in direction \($0)" } ?? "") + " on \(date): there is no timetable to print"
        }
    }
}

/// The dates a stop timetable is made for.
public enum TimetableSpan: Sendable, Equatable {
    /// One service day.
    case day(ServiceDate)
    /// The day types of the week (Monday to Sunday) containing the date.
    case week(containing: ServiceDate)
}

extension RouteDatabase {
    // MARK: - Stop timetables

    /// One departure (or frequency band) of a stop timetable before it is grouped: what makes two days' service
    /// the same.
    struct TimetableItem: Hashable, Comparable {
        /// Seconds at this stop; for a band, its first departure.
        var seconds: Int
        /// The trip's last stop (its destination).
        var destination: Int
        /// Frequency band: its last departure and headway (0 for a single departure).
        var last: Int = 0
        var headway: Int = 0
        /// Two trips leaving at the same time for the same place are two departures: the second is occurrence 1.
        var occurrence: Int = 0

        static func < (a: Self, b: Self) -> Bool {
            (a.seconds, a.headway, a.last, a.destination, a.occurrence)
                < (b.seconds, b.headway, b.last, b.destination, b.occurrence)
        }
    }

    struct SectionKey: Hashable { var route: Int, direction: Int }

    /// A stop time at the stop with what grouping needs.
    struct TimetableRow {
        var seconds: Int, route: Int, direction: Int, headsign: String, trip: Int, service: Int, destination: Int
    }

    /// The stop's timetable for `span`: per route and direction (in the stop view's route order; only `routes`
    /// when given, as route_ids or names), the departures of each day type. Days of a week whose service is
    /// identical share a column ("Mondays to Fridays", "Daily"); a weekday running the Sunday service is a
    /// holiday and joins the Sunday column; a day that differs a little from the others of its type stays in
    /// their column with footnotes on the trips that do not run every day of it; one that differs a lot gets a
    /// column of its own. Throws `outsideServiceRange` for a date outside the feed and
    /// `TimetableError.noDepartures` when nothing departs.
    public func stopTimetable(
        for stop: ResolvedStop, span: TimetableSpan, routes routeQueries: [String] = []
    ) throws -> StopTimetable {
        let (date, single): (ServiceDate, Bool) = {
            switch span {
            case .day(let date): return (date, true)
            case .week(let date): return (date, false)
            }
        }()
        try checkServiceRange(date)
        var dates = [date]
        if !single {
            let monday = date.adding(days: 1 - date.isoWeekday)
            let (first, last) = (serviceStart, serviceEnd)
            dates = (0..<7).map { monday.adding(days: $0) }.filter { day in
                (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
            }
        }
        var wantedRoutes: Set<Int>?
        if !routeQueries.isEmpty {
            wantedRoutes = Set(try routeQueries.map { try findRouteIndex($0) })
        }
        let stopName = stop.stop.code.map { "\(stop.stop.name) [\($0)]" } ?? "\(stop.stop.name) (\(stop.stop.id))"

        let (rows, names, firstTimes, agencyRows) = try read { db in
            let sql = """
                SELECT st.departure_time, t.route_idx, COALESCE(t.direction_id, -1),
                       COALESCE(NULLIF(st.stop_headsign, ''), t.trip_headsign, ''),
                       t.trip_idx, t.service_idx,
                       (SELECT l.stop_idx FROM stop_times l WHERE l.trip_idx = st.trip_idx ORDER BY l.stop_sequence DESC LIMIT 1)
                FROM stop_times st JOIN trips t ON t.trip_idx = st.trip_idx
                WHERE st.stop_idx IN (\(Self.placeholders(stop.platformIndexes.count))) AND st.departure_time IS NOT NULL
                  AND \(Self.departureFilter)
                """
            var rows: [TimetableRow] = []
            let cursor = try Row.fetchCursor(
                db.cachedStatement(sql: sql), arguments: StatementArguments(stop.platformIndexes))
            while let row = try cursor.next() {
                rows.append(
                    TimetableRow(
                        seconds: row[0], route: row[1], direction: row[2], headsign: row[3], trip: row[4],
                        service: row[5], destination: row[6]))
            }
            let destinations = Array(Set(rows.map(\.destination)))
            var names: [Int: String] = [:]
            if !destinations.isEmpty {
                for row in try Row.fetchAll(
                    db,
                    sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx IN (\(Self.placeholders(destinations.count)))",
                    arguments: StatementArguments(destinations))
                {
                    names[row[0]] = stopInfo(row).name
                }
            }
            var firstTimes: [Int: Int] = [:]
            for trip in Set(rows.map(\.trip)) where frequencies[trip] != nil {
                firstTimes[trip] = try Int.fetchOne(
                    db,
                    sql:
                        "SELECT departure_time FROM stop_times WHERE trip_idx = ? AND departure_time IS NOT NULL ORDER BY stop_sequence LIMIT 1",
                    arguments: [trip])
            }
            let agencyRows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.route_idx, a.agency_id, a.agency_name, a.agency_url, a.agency_phone FROM routes r
                    JOIN agency a ON a.agency_idx = r.agency_idx
                    """
            ).map { (route: $0[0] as Int, info: Self.agencyInfo($0, from: 1, namespaces)) }
            return (rows, names, firstTimes, agencyRows)
        }

        if wantedRoutes != nil {
            let here = Set(rows.map(\.route))
            for query in routeQueries {
                let index = try findRouteIndex(query)
                if !here.contains(index) {
                    throw TimetableError.routeNotAtStop(
                        route: routes[index]?.label ?? query, stop: stopName,
                        routesHere: here.sorted { rank($0) < rank($1) }.compactMap { routes[$0]?.label })
                }
            }
        }
        let chosen = rows.filter { wantedRoutes?.contains($0.route) ?? true }

        // Each date's items per section.
        var perDate: [[SectionKey: [TimetableItem]]] = []
        var headsignCounts: [SectionKey: [Int: [String: Int]]] = [:]
        var activeSets: [Set<Int>] = []
        let usedServices = Set(chosen.map(\.service))
        for day in dates {
            let active = Set(calendar.activeServices(on: day))
            activeSets.append(active.intersection(usedServices))
            var items: [SectionKey: [TimetableItem]] = [:]
            for row in chosen where active.contains(row.service) {
                let key = SectionKey(route: row.route, direction: row.direction)
                headsignCounts[key, default: [:]][row.destination, default: [:]][row.headsign, default: 0] += 1
                if let periods = frequencies[row.trip] {
                    let offset = row.seconds - (firstTimes[row.trip] ?? row.seconds)
                    for period in periods where period.headway > 0 && period.end > period.start {
                        if period.exactTimes {
                            for start in Swift.stride(from: period.start, to: period.end, by: period.headway) {
                                items[key, default: []].append(
                                    TimetableItem(seconds: start + offset, destination: row.destination))
                            }
                        } else {
                            let lastStart = period.start + (period.end - 1 - period.start) / period.headway * period.headway
                            items[key, default: []].append(
                                TimetableItem(
                                    seconds: period.start + offset, destination: row.destination,
                                    last: lastStart + offset, headway: period.headway))
                        }
                    }
                } else {
                    items[key, default: []].append(TimetableItem(seconds: row.seconds, destination: row.destination))
                }
            }
            perDate.append(
                items.mapValues { list in
                    var numbered = list.sorted()
                    for index in numbered.indices.dropFirst() {
                        var previous = numbered[index - 1]
                        previous.occurrence = 0
                        if previous == numbered[index] { numbered[index].occurrence = numbered[index - 1].occurrence + 1 }
                    }
                    return numbered
                })
        }
        let keys = Set(perDate.flatMap(\.keys)).sorted { (rank($0.route), $0.direction) < (rank($1.route), $1.direction) }
        guard !keys.isEmpty else {
            let when =
                single
                ? date.description
                : "the week of \(dates.first?.description ?? date.description) to \(dates.last?.description ?? date.description)"
            throw TimetableError.noDepartures(stop: stopName, dates: when)
        }

        // Holidays: a day before Sunday whose services here are Sunday's, where its weekday type runs others.
        var holidayIndexes = Set<Int>()
        if !single, let sunday = dates.firstIndex(where: { $0.isoWeekday == 7 }) {
            for group in [Array(1...5), [6]] {
                let members = dates.indices.filter { group.contains(dates[$0].isoWeekday) }
                guard let majority = Self.majority(members.map { activeSets[$0] }) else { continue }
                for index in members where activeSets[index] == activeSets[sunday] && activeSets[index] != majority {
                    holidayIndexes.insert(index)
                }
            }
        }
        let (validFrom, validUntil, holidays) =
            single
            ? (date, date, [])
            : validity(dates: dates, activeSets: activeSets, holidayIndexes: holidayIndexes, services: usedServices)

        var sections: [TimetableSection] = []
        for key in keys {
            guard let route = routes[key.route] else { continue }
            sections.append(
                makeSection(
                    route: route, direction: key.direction, dates: dates, single: single,
                    days: perDate.map { $0[key] ?? [] }, holidayIndexes: holidayIndexes,
                    hasHolidays: !holidays.isEmpty || !holidayIndexes.isEmpty,
                    headsigns: headsignCounts[key] ?? [:], names: names))
        }
        var agencies: [AgencyInfo] = []
        let agencyByRoute = Dictionary(agencyRows.map { ($0.route, $0.info) }, uniquingKeysWith: { a, _ in a })
        for key in keys {
            if let agency = agencyByRoute[key.route], !agencies.contains(agency) { agencies.append(agency) }
        }
        return StopTimetable(
            stop: stop.stop, agencies: agencies, timeZone: timeZone.identifier, single: single,
            dates: dates.map(\.description), validFrom: validFrom.description, validUntil: validUntil.description,
            holidays: holidays.map(\.description), sections: sections)
    }

    /// The value most elements have (ties: the first such).
    static func majority<T: Hashable>(_ values: [T]) -> T? {
        var counts: [T: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return values.max { counts[$0]! < counts[$1]! }.flatMap { best in values.first { counts[$0] == counts[best] } }
    }

    /// How far the week's pattern holds: from the week outwards, while each date runs (of the services used at the
    /// stop) what its weekday ran in the week, or, for a holiday, what the Sunday ran. Also the holidays met.
    func validity(dates: [ServiceDate], activeSets: [Set<Int>], holidayIndexes: Set<Int>, services: Set<Int>) -> (
        ServiceDate, ServiceDate, [ServiceDate]
    ) {
        var byWeekday: [Int: Set<Int>] = [:]
        var sunday: Set<Int>?
        for (index, day) in dates.enumerated() {
            if day.isoWeekday == 7 { sunday = activeSets[index] }
            if !holidayIndexes.contains(index) { byWeekday[day.isoWeekday] = activeSets[index] }
        }
        for index in holidayIndexes {
            // The weekday's ordinary service: what the rest of its type runs.
            let weekday = dates[index].isoWeekday
            let group = weekday <= 5 ? Array(1...5) : [6]
            let others = dates.indices.filter { group.contains(dates[$0].isoWeekday) && !holidayIndexes.contains($0) }
            if let ordinary = Self.majority(others.map { activeSets[$0] }) { byWeekday[weekday] = ordinary }
        }
        var holidays = holidayIndexes.map { dates[$0] }
        func fits(_ day: ServiceDate) -> Bool? {
            let set = Set(calendar.activeServices(on: day)).intersection(services)
            if let expected = byWeekday[day.isoWeekday] {
                if set == expected { return true }
            } else {
                return nil  // the week did not show this weekday (the feed starts or ends in it)
            }
            if let sunday, set == sunday, day.isoWeekday != 7 {
                holidays.append(day)
                return true
            }
            return false
        }
        var from = dates.first!, until = dates.last!
        if let start = serviceStart {
            var day = from.adding(days: -1)
            while day >= start, fits(day) ?? false {
                from = day
                day = day.adding(days: -1)
            }
        }
        if let end = serviceEnd {
            var day = until.adding(days: 1)
            while day <= end, fits(day) ?? false {
                until = day
                day = day.adding(days: 1)
            }
        }
        return (from, until, holidays.sorted())
    }

    func makeSection(
        route: RouteInfo, direction: Int, dates: [ServiceDate], single: Bool, days: [[TimetableItem]],
        holidayIndexes: Set<Int>, hasHolidays: Bool, headsigns: [Int: [String: Int]], names: [Int: String]
    ) -> TimetableSection {
        // The main destination: where most departures go; the headsign most of them show.
        var destinationCounts: [Int: Int] = [:]
        for (destination, counts) in headsigns { destinationCounts[destination] = counts.values.reduce(0, +) }
        let mainDestination = destinationCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        // Named as its departures are (`TripDestination`): that headsign, else the main destination's name.
        let mainHeadsign = TripDestination.named(
            headsign: mainDestination.flatMap { headsigns[$0]?.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key }
                ?? "",
            lastStopName: mainDestination.flatMap { names[$0] }, route: route)

        // Columns: groups of date indexes.
        struct Group { var members: [Int], weekdays: Set<Int> }
        var groups: [Group] = []
        if single {
            groups = [Group(members: [0], weekdays: [dates[0].isoWeekday])]
        } else {
            for nominal in [Array(1...5), [6], [7]] {
                var members = dates.indices.filter {
                    nominal.contains(dates[$0].isoWeekday) && !holidayIndexes.contains($0)
                }
                if nominal == [7] { members += holidayIndexes.sorted() }
                guard !members.isEmpty else { continue }
                let weekdays = Set(nominal.filter { day in dates.contains { $0.isoWeekday == day } })
                guard let majority = Self.majority(members.map { days[$0] }) else { continue }
                let majoritySet = Set(majority)
                var main: [Int] = []
                var apart: [[TimetableItem]: [Int]] = [:]
                var apartOrder: [[TimetableItem]] = []
                for index in members {
                    let set = Set(days[index])
                    let differing = set.symmetricDifference(majoritySet).count
                    let union = set.union(majoritySet).count
                    // Holidays stay with the Sunday even when a footnote must say so; other days leave their
                    // type when more than a third of the service differs.
                    if days[index] == majority || holidayIndexes.contains(index) || differing * 3 <= union {
                        main.append(index)
                    } else {
                        if apart[days[index]] == nil { apartOrder.append(days[index]) }
                        apart[days[index], default: []].append(index)
                    }
                }
                let apartWeekdays = Set(apartOrder.flatMap { apart[$0]! }.map { dates[$0].isoWeekday })
                if !main.isEmpty { groups.append(Group(members: main, weekdays: weekdays.subtracting(apartWeekdays))) }
                for items in apartOrder {
                    let indexes = apart[items]!
                    groups.append(Group(members: indexes, weekdays: Set(indexes.map { dates[$0].isoWeekday })))
                }
            }
            // Columns whose every day runs the same merge: Saturday like Sunday → "Saturdays, Sundays and holidays".
            var merged: [Group] = []
            for group in groups {
                let uniform = Set(group.members.map { days[$0] }).count == 1
                if uniform, let at = merged.firstIndex(where: { other in
                    Set(other.members.map { days[$0] }).count == 1 && days[other.members[0]] == days[group.members[0]]
                }) {
                    merged[at].members += group.members
                    merged[at].weekdays.formUnion(group.weekdays)
                } else {
                    merged.append(group)
                }
            }
            groups = merged.filter { group in group.members.contains { !days[$0].isEmpty } }
                .sorted { ($0.weekdays.min() ?? 8) < ($1.weekdays.min() ?? 8) }
        }

        var footnotes: [TimetableFootnote] = []
        func mark(_ kind: TimetableFootnote.Kind) -> String {
            if let known = footnotes.first(where: { $0.kind == kind }) { return known.mark }
            let mark = Self.footnoteMark(footnotes.count)
            footnotes.append(TimetableFootnote(mark: mark, kind: kind))
            return mark
        }
        // Destination notes first, in order of first departure.
        let allItems = Set(days.flatMap { $0 }).sorted()
        for item in allItems where item.destination != mainDestination {
            _ = mark(.destination(names[item.destination] ?? "?"))
        }

        var columns: [TimetableColumn] = []
        for group in groups {
            let members = group.members.sorted()
            let union = Set(members.flatMap { days[$0] }).sorted()
            let includesSunday = members.contains { dates[$0].isoWeekday == 7 }
            var hours: [Int: [TimetableEntry]] = [:]
            var bands: [FrequencyBand] = []
            for item in union {
                var marks: [String] = []
                if item.destination != mainDestination { marks.append(mark(.destination(names[item.destination] ?? "?"))) }
                let runs = members.filter { days[$0].contains(item) }
                if runs.count < members.count {
                    func reference(_ index: Int) -> DayReference {
                        holidayIndexes.contains(index) ? .date(dates[index].description) : .weekday(dates[index].isoWeekday)
                    }
                    let missing = members.filter { !runs.contains($0) }
                    marks.append(
                        mark(runs.count * 2 <= members.count ? .onlyOn(runs.map(reference)) : .notOn(missing.map(reference))))
                }
                if item.headway > 0 {
                    bands.append(FrequencyBand(first: item.seconds, last: item.last, headwaySeconds: item.headway, marks: marks))
                } else {
                    hours[item.seconds / 3600, default: []].append(TimetableEntry(seconds: item.seconds, marks: marks))
                }
            }
            let type = DayType(
                weekdays: group.weekdays.sorted(), holidays: includesSunday && hasHolidays,
                date: single ? dates[0].description : nil, dates: members.map { dates[$0].description })
            columns.append(
                TimetableColumn(
                    dayType: type, hours: hours.keys.sorted().map { TimetableHour(hour: $0, entries: hours[$0]!) },
                    bands: bands))
        }
        return TimetableSection(
            route: route, directionID: direction < 0 ? nil : direction, headsign: mainHeadsign, columns: columns,
            footnotes: footnotes)
    }

    /// a, b, … z, aa, ab …
    static func footnoteMark(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return index < 26 ? String(letters[index]) : String(letters[index / 26 - 1]) + String(letters[index % 26])
    }

    // MARK: - Route timetables

    /// The route's timetable for one direction on `date`: the stops as rows (the patterns' stops merged in travel
    /// order; only the stops the feed marks as timepoints when it marks some stop times as not exact), the trips
    /// running that day as columns in order of departure. Frequency-based service without exact times is one
    /// column per period. Throws `noSuchRoute`, `outsideServiceRange`, `noSuchDirection` or
    /// `TimetableError.noTrips`.
    public func routeTimetable(_ query: String, direction: Int? = nil, date: ServiceDate) throws -> RouteTimetable {
        let routeIndex = try findRouteIndex(query)
        let route = routes[routeIndex]!
        try checkServiceRange(date)
        let active = Set(calendar.activeServices(on: date))
        return try read { db in
            struct Call { var stop: Int, time: Int?, timepoint: Bool }
            struct Trip { var index: Int, id: String, direction: Int, headsign: String, calls: [Call] = [] }
            var trips: [Trip] = []
            var known = Set<Int>()
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT t.trip_idx, t.trip_id, COALESCE(t.direction_id, -1), COALESCE(t.trip_headsign, ''), t.service_idx,
                           st.stop_idx, st.departure_time, st.timepoint
                    FROM trips t JOIN stop_times st ON st.trip_idx = t.trip_idx
                    WHERE t.route_idx = ? ORDER BY t.trip_idx, st.stop_sequence
                    """, arguments: [routeIndex])
            while let row = try cursor.next() {
                let directionKey: Int = row[2]
                known.insert(directionKey)
                guard active.contains(row[4]) else { continue }
                if let direction, directionKey != direction { continue }
                if trips.last?.index != (row[0] as Int) {
                    trips.append(Trip(index: row[0], id: row[1], direction: directionKey, headsign: row[3]))
                }
                trips[trips.count - 1].calls.append(Call(stop: row[5], time: row[6], timepoint: (row[7] as Int) == 1))
            }
            if let direction, !known.contains(direction), !known.isEmpty {
                throw RouteQueryError.noSuchDirection(
                    route: route.label, direction: direction, known: known.sorted().map { $0 < 0 ? nil : $0 })
            }
            // Without --direction: the direction with the most trips that day (direction 0 on a tie).
            let chosenDirection =
                direction
                ?? Dictionary(grouping: trips, by: \.direction).max {
                    ($0.value.count, -$0.key) < ($1.value.count, -$1.key)
                }?.key
            trips = trips.filter { $0.direction == chosenDirection }
            guard !trips.isEmpty else {
                throw TimetableError.noTrips(route: route.label, direction: direction, date: date.description)
            }
            let timepointsOnly = trips.contains { $0.calls.contains { !$0.timepoint } }

            // Rows: the longest pattern's stops, then every other pattern's stops inserted after the stop before
            // them.
            var order: [Int] = []
            for trip in trips.sorted(by: { $0.calls.count > $1.calls.count }) {
                var previous: Int?
                for call in trip.calls where !timepointsOnly || call.timepoint {
                    if let at = order.firstIndex(of: call.stop) {
                        previous = at
                    } else {
                        let at = previous.map { $0 + 1 } ?? 0
                        order.insert(call.stop, at: at)
                        previous = at
                    }
                }
            }
            var stops: [Int: StopInfo] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx IN (\(Self.placeholders(order.count)))",
                arguments: StatementArguments(order))
            {
                stops[row[0]] = stopInfo(row)
            }
            let rowOf = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })

            var columns: [(start: Int, trip: RouteTimetableTrip)] = []
            for trip in trips {
                var times = [Int?](repeating: nil, count: order.count)
                let first = trip.calls.first?.time ?? 0
                for call in trip.calls where !timepointsOnly || call.timepoint {
                    // The last call is an arrival: it still belongs in a pocket timetable's column.
                    if let row = rowOf[call.stop], times[row] == nil { times[row] = call.time }
                }
                let lastStop = trip.calls.last.flatMap { stops[$0.stop]?.name }
                let headsign = TripDestination.named(headsign: trip.headsign, lastStopName: lastStop, route: route)
                if let periods = frequencies[trip.index] {
                    for period in periods where period.headway > 0 && period.end > period.start {
                        if period.exactTimes {
                            for start in Swift.stride(from: period.start, to: period.end, by: period.headway) {
                                columns.append(
                                    (start, RouteTimetableTrip(
                                        tripID: trip.id, headsign: headsign,
                                        times: times.map { $0.map { $0 - first + start } })))
                            }
                        } else {
                            let lastStart = period.start + (period.end - 1 - period.start) / period.headway * period.headway
                            columns.append(
                                (period.start, RouteTimetableTrip(
                                    tripID: trip.id, headsign: headsign,
                                    times: times.map { $0.map { $0 - first + period.start } },
                                    headwaySeconds: period.headway,
                                    lastTimes: times.map { $0.map { $0 - first + lastStart } })))
                        }
                    }
                } else {
                    columns.append((first, RouteTimetableTrip(tripID: trip.id, headsign: headsign, times: times)))
                }
            }
            columns.sort { ($0.start, $0.trip.tripID) < ($1.start, $1.trip.tripID) }
            let agencyRow = try Row.fetchOne(
                db,
                sql: """
                    SELECT a.agency_id, a.agency_name, a.agency_url, a.agency_phone FROM routes r
                    JOIN agency a ON a.agency_idx = r.agency_idx WHERE r.route_idx = ?
                    """, arguments: [routeIndex])
            let agency =
                agencyRow.map { Self.agencyInfo($0, from: 0, namespaces) }
                ?? AgencyInfo(id: "", name: route.agency, url: nil, phone: nil, feedID: route.feedID)
            let headsigns = Dictionary(grouping: columns.map(\.trip.headsign), by: { $0 }).mapValues(\.count)
            let headsign = headsigns.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? route.label
            return RouteTimetable(
                route: route, agency: agency, directionID: (chosenDirection ?? -1) < 0 ? nil : chosenDirection,
                headsign: headsign, date: date.description, timeZone: timeZone.identifier,
                timepointsOnly: timepointsOnly,
                stops: order.map {
                    stops[$0]
                        ?? StopInfo(
                            id: "?", code: nil, name: "?", parentStationID: nil, parentStationName: nil,
                            platformCode: nil, wheelchairBoarding: .unknown, latitude: nil, longitude: nil,
                            locationType: 0)
                },
                trips: columns.map(\.trip))
        }
    }
}
