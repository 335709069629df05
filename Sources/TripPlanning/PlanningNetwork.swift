import Foundation
import JourneyPlanner
import TransitModel
import TransitStore

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

    init(
        timetable: Timetable, reference: Date, rules: PlanningRules, serviceDates: [ServiceDate],
        tripInstances: [(trip: Int32, day: Int32)]
    ) {
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
        let active = dates.map { Set(activeServices(on: $0)) }

        var builder = TimetableBuilder(stopCount: try stopIndexCount(), minTransferSeconds: rules.minTransferSeconds)
        var instances: [(trip: Int32, day: Int32)] = []
        let (tripRoute, tripService) = try tripRoutesAndServices()
        var shifted: [StopEvent] = []
        try forEachTripSchedule { trip, stopTimes in
            let service = Int(tripService[trip])
            let routeRef = Int(tripRoute[trip])
            let periods = frequencyPeriods(ofTrip: trip)
            // One trip instance starting `shift` seconds later on the shared timeline.
            func add(shift: Int, day: ServiceDate) throws {
                shifted.removeAll(keepingCapacity: true)
                for time in stopTimes {
                    shifted.append(
                        StopEvent(
                            stop: time.stopIndex - 1, arrival: time.arrival + shift, departure: time.departure + shift,
                            canBoard: time.canBoard, canAlight: time.canAlight))
                }
                try builder.addTrip(tripRef: instances.count, routeRef: routeRef, events: shifted)
                instances.append((Int32(trip), Int32(day.dayNumber)))
            }
            for (i, date) in dates.enumerated() where active[i].contains(service) {
                if let periods {
                    // A frequency template: one trip per start time, the events shifted from its first departure.
                    let first = stopTimes[0].departure
                    for period in periods {
                        for start in stride(from: period.start, to: period.end, by: period.headway) {
                            try add(shift: start - first + offsets[i], day: date)
                        }
                    }
                } else {
                    try add(shift: offsets[i], day: date)
                }
            }
        }
        try addTransfers(to: &builder, rules: rules)
        return PlanningNetwork(
            timetable: builder.build(), reference: reference, rules: rules, serviceDates: dates,
            tripInstances: instances)
    }

    /// Walks within the radius (both ways, straight line at walking speed), platforms of a station connected,
    /// and transfers.txt: type 2 sets a minimum time, type 3 forbids; a rule naming a station applies to all
    /// its platforms.
    private func addTransfers(to builder: inout TimetableBuilder, rules: PlanningRules) throws {
        struct Place { var index: Int; var coordinate: Coordinate }
        var places: [Place] = []
        var children: [Int: [Int]] = [:]
        for stop in try planningStops() where stop.locationType == 0 {
            if let parent = stop.parentIndex {
                children[parent, default: []].append(stop.stopIndex)
                try builder.setStationGroup(parent - 1, forStop: stop.stopIndex - 1)
            }
            if let coordinate = stop.coordinate {
                places.append(Place(index: stop.stopIndex, coordinate: coordinate))
            }
        }

        if rules.walkRadiusMeters > 0 {
            // Bucket stops in cells of the radius, so each stop is compared only with its 3×3 neighbourhood.
            let radius = Double(rules.walkRadiusMeters)
            let cellLat = radius / 111_000
            let cellLon = cellLat / max(0.05, cos((places.first?.coordinate.latitude ?? 0) * .pi / 180))
            struct Cell: Hashable { var x: Int, y: Int }
            func cell(_ c: Coordinate) -> Cell {
                Cell(x: Int((c.longitude / cellLon).rounded(.down)), y: Int((c.latitude / cellLat).rounded(.down)))
            }
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

        for rule in try stopTransferRules() {
            for a in children[rule.fromStopIndex] ?? [rule.fromStopIndex] {
                for b in children[rule.toStopIndex] ?? [rule.toStopIndex] {
                    if rule.type == 3 {
                        try builder.forbidTransfer(from: a - 1, to: b - 1)
                    } else if let seconds = rule.minSeconds {
                        try builder.setMinimumTransfer(from: a - 1, to: b - 1, seconds: seconds)
                    }
                }
            }
        }
    }
}
