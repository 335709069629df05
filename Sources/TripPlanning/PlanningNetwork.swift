import Foundation
import JourneyPlanner
import Synchronization
import TransitModel
import TransitStore

/// The timetable of a few service days, compiled for the journey planner, with what it takes to turn the
/// planner's numbers back into trips, stops and clock times.
///
/// One timeline covers the window: second 0 is the origin ("noon minus 12 h") of the first service date, and
/// each service date's trips are shifted by that date's origin, so the previous day's after-midnight trips,
/// today's and tomorrow morning's all compare as plain numbers, DST days included.
///
/// A network answers queries starting on its `queryDays`: it holds the trips of every service date such a query
/// can touch (the days whose after-midnight trips still run, through the day after the last query day). The
/// network `kiosk import` writes beside the database (`PlanningImage`) covers several query days; one compiled
/// in memory for a single query covers that query's day.
public final class PlanningNetwork: Sendable {
    public let timetable: Timetable
    /// The instant of timeline second 0.
    public let reference: Date
    public let rules: PlanningRules
    public let serviceDates: [ServiceDate]
    /// The first and last service date (day numbers) whose queries this network answers.
    public let queryDays: ClosedRange<Int>
    /// The image file the timetable is mapped from, or nil when it was compiled in memory.
    public let imagePath: String?
    /// tripRef → (trip_idx, service date day number).
    let tripInstances: TripInstances
    /// Planners of this timetable that no query is using. Each holds a megabyte or more of scratch arrays, so a
    /// server reuses them rather than allocating one per plan; at most one per core is kept.
    private let idlePlanners = Mutex<[IdlePlanner]>([])
    private struct IdlePlanner: @unchecked Sendable { let planner: Planner }  // (only ever used by one query)

    init(
        timetable: Timetable, reference: Date, rules: PlanningRules, serviceDates: [ServiceDate],
        queryDays: ClosedRange<Int>, tripInstances: TripInstances, imagePath: String? = nil
    ) {
        self.timetable = timetable
        self.reference = reference
        self.rules = rules
        self.serviceDates = serviceDates
        self.queryDays = queryDays
        self.tripInstances = tripInstances
        self.imagePath = imagePath
    }

    public func timelineSeconds(_ date: Date) -> Int { Int(date.timeIntervalSince(reference).rounded(.up)) }
    public func instant(_ seconds: Int) -> Date { reference.addingTimeInterval(TimeInterval(seconds)) }

    /// Runs `body` with a planner of this network's timetable that no other query uses meanwhile.
    public func withPlanner<T>(_ body: (Planner) throws -> T) rethrows -> T {
        let planner = idlePlanners.withLock { $0.popLast() }?.planner ?? Planner(timetable: timetable)
        defer {
            let kept = IdlePlanner(planner: planner)
            idlePlanners.withLock { idle in
                if idle.count < ProcessInfo.processInfo.activeProcessorCount { idle.append(kept) }
            }
        }
        return try body(planner)
    }

    /// Whether a query on `day` is answered by this network.
    public func covers(_ day: ServiceDate) -> Bool { queryDays.contains(day.dayNumber) }

    /// The same trips with the walks and changes of `rules` (only those are recompiled; a mapped timetable stays
    /// mapped).
    func withRules(_ rules: PlanningRules, database: RouteDatabase) throws -> PlanningNetwork {
        var builder = TimetableBuilder(stopCount: timetable.stopCount, minTransferSeconds: rules.minTransferSeconds)
        try database.addTransfers(to: &builder, rules: rules)
        return PlanningNetwork(
            timetable: timetable.replacingTransfers(with: builder), reference: reference, rules: rules,
            serviceDates: serviceDates, queryDays: queryDays, tripInstances: tripInstances, imagePath: imagePath)
    }
}

/// The planner's trip references: for each, the GTFS trip (`trip_idx`) and its service date (day number). Over
/// arrays, or over the columns of a mapped image.
struct TripInstances: RandomAccessCollection, @unchecked Sendable {
    private let trips: UnsafeBufferPointer<Int32>
    private let days: UnsafeBufferPointer<Int32>
    /// Keeps the buffers alive.
    private let owner: AnyObject

    private final class Columns {
        let trips: UnsafeMutableBufferPointer<Int32>
        let days: UnsafeMutableBufferPointer<Int32>
        init(_ trips: [Int32], _ days: [Int32]) {
            self.trips = .allocate(capacity: Swift.max(trips.count, 1))
            self.days = .allocate(capacity: Swift.max(days.count, 1))
            _ = self.trips.initialize(from: trips)
            _ = self.days.initialize(from: days)
        }
        deinit {
            trips.deallocate()
            days.deallocate()
        }
    }

    init(trips: [Int32], days: [Int32]) {
        precondition(trips.count == days.count)
        let columns = Columns(trips, days)
        self.trips = UnsafeBufferPointer(rebasing: columns.trips[0..<trips.count])
        self.days = UnsafeBufferPointer(rebasing: columns.days[0..<days.count])
        owner = columns
    }

    init(_ instances: [(trip: Int32, day: Int32)]) {
        self.init(trips: instances.map(\.trip), days: instances.map(\.day))
    }

    /// Columns that `owner` keeps alive (a mapped image).
    init(trips: UnsafeBufferPointer<Int32>, days: UnsafeBufferPointer<Int32>, owner: AnyObject) {
        precondition(trips.count == days.count)
        self.trips = trips
        self.days = days
        self.owner = owner
    }

    var startIndex: Int { 0 }
    var endIndex: Int { trips.count }
    subscript(i: Int) -> (trip: Int32, day: Int32) { (trips[i], days[i]) }

    /// The columns, for writing an image.
    var columns: [[Int32]] { [Array(trips), Array(days)] }
}

extension RouteDatabase {
    /// The network that answers a journey starting at `at`: the one `PlanningTimetables.shared` keeps for this
    /// database — its timetable image, mapped, when the image covers `at`'s day, else one compiled in memory for
    /// that day (once, then kept). Stop indexes in the planner are `stop_idx - 1`.
    public func planningNetwork(around at: Date, rules: PlanningRules = PlanningRules()) throws -> PlanningNetwork {
        try PlanningTimetables.shared.network(for: self, at: at, rules: rules)
    }

    /// Compiles the service days that queries starting on any of `queryDays` can touch: the days whose
    /// after-midnight trips still run on the first (the previous day, or more for feeds running past 48:00)
    /// through the day after the last (late evening journeys end tomorrow).
    public func planningNetwork(
        queryDays: ClosedRange<ServiceDate>, rules: PlanningRules = PlanningRules()
    ) throws -> PlanningNetwork {
        let first = queryDays.lowerBound.adding(days: -(latestDepartureSeconds / 86_400 + 1))
        let last = queryDays.upperBound.adding(days: 1)
        let dates = (first.dayNumber...last.dayNumber).map(ServiceDate.init(dayNumber:))
        let reference = dates[0].serviceDayOrigin(in: timeZone)
        let offsets = dates.map { Int($0.serviceDayOrigin(in: timeZone).timeIntervalSince(reference)) }
        let active = dates.map { Set(activeServices(on: $0)) }

        var builder = TimetableBuilder(stopCount: try stopIndexCount(), minTransferSeconds: rules.minTransferSeconds)
        var instanceTrips: [Int32] = [], instanceDays: [Int32] = []
        let (tripRoute, tripService) = try tripRoutesAndServices()
        var instances: [(tripRef: Int, shift: Int)] = []
        try forEachTripSchedule { trip, stopTimes in
            let service = Int(tripService[trip])
            let periods = frequencyPeriods(ofTrip: trip)
            // The trip's instances on the shared timeline: one per service day it runs (a frequency template: one
            // per start time, shifted from its first departure), all from the same events.
            instances.removeAll(keepingCapacity: true)
            func add(shift: Int, day: ServiceDate) {
                instances.append((instanceTrips.count, shift))
                instanceTrips.append(Int32(trip))
                instanceDays.append(Int32(day.dayNumber))
            }
            for (i, date) in dates.enumerated() where active[i].contains(service) {
                if let periods {
                    let first = stopTimes[0].departure
                    for period in periods {
                        for start in stride(from: period.start, to: period.end, by: period.headway) {
                            add(shift: start - first + offsets[i], day: date)
                        }
                    }
                } else {
                    add(shift: offsets[i], day: date)
                }
            }
            guard !instances.isEmpty else { return }
            let events = stopTimes.lazy.map {
                StopEvent(
                    stop: $0.stopIndex - 1, arrival: $0.arrival, departure: $0.departure, canBoard: $0.canBoard,
                    canAlight: $0.canAlight)
            }
            try builder.addTrips(routeRef: Int(tripRoute[trip]), events: events, instances: instances)
        }
        try addTransfers(to: &builder, rules: rules)
        // Out of the variable the closure above captured (a shared box), so the compiler owns the trips alone and
        // frees them as soon as they are patterns.
        var compiling = TimetableBuilder(stopCount: 0)
        swap(&compiling, &builder)
        let built = compiling.build()
        return PlanningNetwork(
            timetable: built, reference: reference, rules: rules, serviceDates: dates,
            queryDays: queryDays.lowerBound.dayNumber...queryDays.upperBound.dayNumber,
            tripInstances: TripInstances(trips: instanceTrips, days: instanceDays))
    }

    /// Walks within the radius (both ways, straight line at walking speed), platforms of a station connected,
    /// and transfers.txt: type 2 sets a minimum time, type 3 forbids; a rule naming a station applies to all
    /// its platforms.
    func addTransfers(to builder: inout TimetableBuilder, rules: PlanningRules) throws {
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

        // Row by row: a transfers.txt of millions of rules keeps only the builder's table of distinct pairs.
        try forEachStopTransferRule { rule in
            // The importer refuses negative times; one longer than the builder's range (194 days) is a change no
            // plan can make, exactly as at the range's end.
            let seconds = rule.minSeconds.map { min($0, TimetableBuilder.durationRange.upperBound) }
            for a in children[rule.fromStopIndex] ?? [rule.fromStopIndex] {
                for b in children[rule.toStopIndex] ?? [rule.toStopIndex] {
                    if rule.type == 3 {
                        try builder.forbidTransfer(from: a - 1, to: b - 1)
                    } else if let seconds {
                        try builder.setMinimumTransfer(from: a - 1, to: b - 1, seconds: seconds)
                    }
                }
            }
        }
    }
}
