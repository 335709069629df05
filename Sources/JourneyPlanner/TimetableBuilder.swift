// Collects a day window of timetable data in the caller's numbering and compiles it into a `Timetable`.

/// One call of a trip at a stop, in the order the vehicle serves them.
public struct StopEvent: Sendable, Hashable {
    /// Dense stop index, `0..<stopCount`.
    public var stop: Int
    /// Seconds on the caller's timeline; `arrival <= departure`, and never earlier than the previous
    /// event's departure.
    public var arrival: Int
    public var departure: Int
    /// GTFS `pickup_type != 1`.
    public var canBoard: Bool
    /// GTFS `drop_off_type != 1`.
    public var canAlight: Bool

    public init(stop: Int, arrival: Int, departure: Int, canBoard: Bool = true, canAlight: Bool = true) {
        self.stop = stop
        self.arrival = arrival
        self.departure = departure
        self.canBoard = canBoard
        self.canAlight = canAlight
    }

    /// An event whose arrival and departure coincide, as most feeds publish them.
    public init(stop: Int, time: Int, canBoard: Bool = true, canAlight: Bool = true) {
        self.init(stop: stop, arrival: time, departure: time, canBoard: canBoard, canAlight: canAlight)
    }
}

/// Why the builder refused an input. Each case names the offending value so the caller can trace it back
/// to the feed row it came from.
public enum TimetableError: Error, Hashable, Sendable {
    /// A stop index outside `0..<stopCount`.
    case stopOutOfRange(stop: Int, stopCount: Int)
    /// A time outside `TimetableBuilder.timeRange` (e.g. a caller that forgot to rebase GTFS times).
    case timeOutOfRange(time: Int)
    /// A duration (walk, transfer, minimum change) outside `TimetableBuilder.durationRange`.
    case durationOutOfRange(seconds: Int)
    /// Event `eventIndex` of trip `tripRef` happens before the previous one, or departs before it arrives.
    case timeTravel(tripRef: Int, eventIndex: Int)
}

/// Accumulates stops, trips, footpaths and transfer rules in any order, then `build()`s the compact,
/// immutable `Timetable` the planner searches.
///
/// Semantics the planner (and its test oracle) implement:
/// - **Walks** are the explicit footpaths (several for the same pair keep the shortest; a footpath from a
///   stop to itself is ignored), plus, for two different stops of one station group that have no explicit
///   footpath, an implicit walk of `minTransferSeconds`. Walks are directed: add both directions if the
///   way is symmetric. Walks serve the start (origin → first boarding), the end (last alighting →
///   destination) and changes between rides; they are never chained.
/// - **Changes** between rides, alighting at `a` and boarding at `b`, need at least:
///   `a == b`: the pair-specific minimum (GTFS transfers.txt type 2 with `from == to`) or else
///   `minTransferSeconds`; `a != b`: the walk time, raised to the pair-specific minimum if one is set, else to
///   `minTransferSeconds` (a change is never quicker between two stops than at one); a pair-specific minimum
///   without a walk makes the change possible with exactly that time.
///   A forbidden pair (type 3; `a == b` allowed) removes the change entirely, whatever else says. Transfer
///   rules never affect the walks at the start or the end of a journey.
public struct TimetableBuilder: Sendable {
    /// Accepted timeline: wide enough for any multi-day window, small enough that adding durations to
    /// times can never overflow the `Int32` storage.
    public static let timeRange = -(1 << 30)...(1 << 30)
    /// Accepted durations (walks, minimum transfer times, query offsets): up to about 194 days.
    public static let durationRange = 0...(1 << 24)

    public let stopCount: Int
    public let minTransferSeconds: Int

    var stationGroup: [Int32]
    // Trips: trip i runs the events of template tripTemplate[i], each shifted by tripShift[i] seconds; the events
    // of template j are eventStart[j]..<eventStart[j+1]. A trip that runs on several days (or a frequency's
    // starts) is one template with a trip per day, so a city's events are stored once, not once per day.
    var eventStart: [Int32] = [0]
    var eventStop: [Int32] = []
    var eventArrival: [Int32] = []
    var eventDeparture: [Int32] = []
    var eventFlags: [UInt8] = []
    var tripTemplate: [Int32] = []
    var tripShift: [Int32] = []
    var tripRefs: [Int] = []
    var routeRefs: [Int] = []
    /// Stop events of all trips (a template's events count once per trip running it).
    var tripEventCount = 0
    // Footpaths and transfer rules as given.
    var footFrom: [Int32] = []
    var footTo: [Int32] = []
    var footSeconds: [Int32] = []
    var pairMinimum: [Int64: Int32] = [:]
    var forbidden: Set<Int64> = []

    /// - Parameters:
    ///   - stopCount: stops are the dense indices `0..<stopCount`; the caller keeps the GTFS id mapping.
    ///   - minTransferSeconds: default minimum time to change vehicles at the same stop (or between
    ///     platforms of one station group), used where no pair-specific rule exists.
    public init(stopCount: Int, minTransferSeconds: Int = 60) {
        precondition(stopCount >= 0 && stopCount < Int(Int32.max), "stopCount out of range")
        precondition(Self.durationRange.contains(minTransferSeconds), "minTransferSeconds out of range")
        self.stopCount = stopCount
        self.minTransferSeconds = minTransferSeconds
        self.stationGroup = Array(repeating: -1, count: stopCount)
    }

    /// Puts `stop` in station group `group` (any non-negative number the caller chooses, e.g. the
    /// index of the GTFS `parent_station`). Platforms of one group can change into each other; see the
    /// type's documentation. Passing `nil` removes the stop from its group.
    public mutating func setStationGroup(_ group: Int?, forStop stop: Int) throws(TimetableError) {
        try checkStop(stop)
        if let group {
            precondition(group >= 0 && group < Int(Int32.max), "station group must be a non-negative Int32")
            stationGroup[stop] = Int32(group)
        } else {
            stationGroup[stop] = -1
        }
    }

    /// Adds one vehicle run.
    ///
    /// - Parameters:
    ///   - tripRef: opaque to the planner and returned in `RideLeg.tripRef`; typically the caller's index
    ///     of (GTFS trip, service date), so the same GTFS trip on two days is two trips here.
    ///   - routeRef: opaque, returned in `RideLeg.routeRef`.
    ///   - events: the stop events in travel order. Trips with fewer than two events cannot be ridden and
    ///     are ignored.
    public mutating func addTrip(
        tripRef: Int, routeRef: Int,
        events: some Sequence<StopEvent>
    ) throws(TimetableError) {
        try addTrips(routeRef: routeRef, events: events, instances: [(tripRef, 0)])
    }

    /// Adds one trip per instance: the same events, each instance's times shifted by its `shift` seconds (a GTFS
    /// trip on each of its service days, or a frequency's start times). Same rules as `addTrip`; the events are
    /// stored once.
    public mutating func addTrips(
        routeRef: Int, events: some Sequence<StopEvent>, instances: [(tripRef: Int, shift: Int)]
    ) throws(TimetableError) {
        guard let firstRef = instances.first?.tripRef else { return }
        let mark = eventStop.count
        var previousDeparture = Int.min
        var firstArrival = 0, lastDeparture = 0
        var index = 0
        do throws(TimetableError) {
            for event in events {
                try checkStop(event.stop)
                if event.arrival < previousDeparture || event.departure < event.arrival {
                    throw TimetableError.timeTravel(tripRef: firstRef, eventIndex: index)
                }
                if index == 0 { firstArrival = event.arrival }
                lastDeparture = event.departure
                previousDeparture = event.departure
                eventStop.append(Int32(event.stop))
                eventArrival.append(Int32(truncatingIfNeeded: event.arrival))
                eventDeparture.append(Int32(truncatingIfNeeded: event.departure))
                eventFlags.append((event.canBoard ? PatternFlag.board : 0) | (event.canAlight ? PatternFlag.alight : 0))
                index += 1
            }
            // Times only grow along a trip, so its first arrival and last departure bound all of them.
            try checkTime(firstArrival)
            try checkTime(lastDeparture)
            for instance in instances {
                try checkTime(firstArrival + instance.shift)
                try checkTime(lastDeparture + instance.shift)
            }
        } catch {
            rollBack(to: mark)
            throw error
        }
        if index < 2 {
            rollBack(to: mark)
            return
        }
        let template = Int32(eventStart.count - 1)
        eventStart.append(Int32(eventStop.count))
        for instance in instances {
            tripTemplate.append(template)
            tripShift.append(Int32(instance.shift))
            tripRefs.append(instance.tripRef)
            routeRefs.append(routeRef)
        }
        tripEventCount += index * instances.count
    }

    /// Adds a directed walk of `seconds` from one stop to another (the caller's radius walks at its
    /// chosen speed, transfers.txt type-2 pairs, station platforms…). The shortest of duplicates wins.
    public mutating func addFootpath(from: Int, to: Int, seconds: Int) throws(TimetableError) {
        try checkStop(from)
        try checkStop(to)
        try checkDuration(seconds)
        if from == to { return }
        footFrom.append(Int32(from))
        footTo.append(Int32(to))
        footSeconds.append(Int32(seconds))
    }

    /// Sets the minimum change time when alighting at `from` and boarding at `to` (GTFS transfers.txt
    /// type 2; `from == to` overrides the default for that stop). The last call for a pair wins.
    public mutating func setMinimumTransfer(from: Int, to: Int, seconds: Int) throws(TimetableError) {
        try checkStop(from)
        try checkStop(to)
        try checkDuration(seconds)
        pairMinimum[Self.pairKey(from, to)] = Int32(seconds)
    }

    /// Forbids changing from a ride alighting at `from` to a ride boarding at `to` (GTFS transfers.txt
    /// type 3; `from == to` forbids changing vehicles at that stop).
    public mutating func forbidTransfer(from: Int, to: Int) throws(TimetableError) {
        try checkStop(from)
        try checkStop(to)
        forbidden.insert(Self.pairKey(from, to))
    }

    /// Compiles everything added so far. The builder stays usable (e.g. to add more and build again).
    public consuming func build() -> Timetable {
        Timetable(storage: TimetableCompiler(self).compile())
    }

    /// Forgets the trips (what the compiler does once it has made them patterns).
    mutating func dropTrips() {
        eventStart = [0]
        eventStop = []
        eventArrival = []
        eventDeparture = []
        eventFlags = []
        tripTemplate = []
        tripShift = []
        tripRefs = []
        routeRefs = []
        tripEventCount = 0
    }

    // MARK: - Validation

    static func pairKey(_ from: Int, _ to: Int) -> Int64 { Int64(from) << 32 | Int64(to) }

    private func checkStop(_ stop: Int) throws(TimetableError) {
        guard stop >= 0 && stop < stopCount else {
            throw TimetableError.stopOutOfRange(stop: stop, stopCount: stopCount)
        }
    }

    private func checkTime(_ time: Int) throws(TimetableError) {
        guard Self.timeRange.contains(time) else { throw TimetableError.timeOutOfRange(time: time) }
    }

    private func checkDuration(_ seconds: Int) throws(TimetableError) {
        guard Self.durationRange.contains(seconds) else {
            throw TimetableError.durationOutOfRange(seconds: seconds)
        }
    }

    private mutating func rollBack(to mark: Int) {
        eventStop.removeSubrange(mark...)
        eventArrival.removeSubrange(mark...)
        eventDeparture.removeSubrange(mark...)
        eventFlags.removeSubrange(mark...)
    }
}

enum PatternFlag {
    static let board: UInt8 = 1
    static let alight: UInt8 = 2
}
