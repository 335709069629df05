// Values that cross the library boundary: what a caller asks and what it gets back.
//
// Stop indices, trip and route references are the caller's own numbering (see `TimetableBuilder`);
// times are seconds on the caller's single timeline. The public surface uses `Int` for ergonomics;
// the timetable stores everything as `Int32` internally.

/// A stop together with a number of seconds spent between the stop and the passenger's real start or goal.
///
/// Used for both ends of a query: an origin "station" is several platforms, each with the walk from the
/// passenger's position (or 0); a destination is several platforms, each with the walk to the final goal.
public struct StopOffset: Sendable, Hashable {
    /// Dense stop index, `0..<timetable.stopCount`.
    public var stop: Int
    /// Seconds, `>= 0`. For an origin: time from the query's start to being ready at `stop`.
    /// For a destination: time from arriving at `stop` to reaching the goal.
    public var seconds: Int

    public init(stop: Int, seconds: Int = 0) {
        self.stop = stop
        self.seconds = seconds
    }
}

/// One journey-planning request.
public struct PlanQuery: Sendable, Hashable {
    /// Where the passenger can start. Duplicated stops keep the smallest offset.
    public var origins: [StopOffset]
    /// Where the passenger wants to be. Duplicated stops keep the smallest offset.
    public var destinations: [StopOffset]
    /// Earliest moment the passenger can set off, on the timetable's timeline.
    public var departure: Int
    /// Upper bound on changes between vehicles, `0...PlanQuery.maxTransfersLimit`.
    public var maxTransfers: Int
    /// Step-free travel only: trips and stops the planner's `TimetableOverlay` marks as not step-free are
    /// neither boarded nor left (needs an overlay with step-free data).
    public var stepFreeOnly: Bool = false

    /// Rounds are preallocated per planner; 8 transfers (9 rides) is far beyond any sensible kiosk answer.
    public static let maxTransfersLimit = 8

    public init(origins: [StopOffset], destinations: [StopOffset], departure: Int, maxTransfers: Int = 4) {
        self.origins = origins
        self.destinations = destinations
        self.departure = departure
        self.maxTransfers = maxTransfers
    }

    /// Convenience for the common stop-to-stop case.
    public init(from origin: Int, to destination: Int, departure: Int, maxTransfers: Int = 4) {
        self.init(
            origins: [StopOffset(stop: origin)], destinations: [StopOffset(stop: destination)],
            departure: departure, maxTransfers: maxTransfers)
    }
}

/// A movement on foot between two different stops.
public struct WalkLeg: Sendable, Hashable {
    public var fromStop: Int
    public var toStop: Int
    /// When the walk starts and ends. A walk that leads to a boarding ends exactly at the vehicle's
    /// departure when it is the first leg (the journey leaves as late as possible); between two rides
    /// the walk starts when the first vehicle arrives and any slack is spent waiting at `toStop`.
    public var departure: Int
    public var arrival: Int

    public init(fromStop: Int, toStop: Int, departure: Int, arrival: Int) {
        self.fromStop = fromStop
        self.toStop = toStop
        self.departure = departure
        self.arrival = arrival
    }
}

/// A stretch on board one vehicle.
public struct RideLeg: Sendable, Hashable {
    /// The caller's opaque references, exactly as passed to `TimetableBuilder.addTrip`.
    public var tripRef: Int
    public var routeRef: Int
    public var boardStop: Int
    /// Departure of the vehicle from `boardStop`.
    public var boardTime: Int
    public var alightStop: Int
    /// Arrival of the vehicle at `alightStop`.
    public var alightTime: Int
    /// Positions in the trip's stop-event list as it was given to the builder (0-based), so the caller
    /// can map back to GTFS `stop_sequence` and list intermediate stops.
    public var boardEventIndex: Int
    public var alightEventIndex: Int

    public init(
        tripRef: Int, routeRef: Int, boardStop: Int, boardTime: Int, alightStop: Int, alightTime: Int,
        boardEventIndex: Int, alightEventIndex: Int
    ) {
        self.tripRef = tripRef
        self.routeRef = routeRef
        self.boardStop = boardStop
        self.boardTime = boardTime
        self.alightStop = alightStop
        self.alightTime = alightTime
        self.boardEventIndex = boardEventIndex
        self.alightEventIndex = alightEventIndex
    }

    /// Number of stops travelled (hops), i.e. `alightEventIndex - boardEventIndex`.
    public var stopCount: Int { alightEventIndex - boardEventIndex }
}

/// A leg of a journey, in travel order.
public enum JourneyLeg: Sendable, Hashable {
    case walk(WalkLeg)
    case ride(RideLeg)
}

/// One Pareto-optimal way from the origins to the destinations.
public struct Journey: Sendable, Hashable {
    /// The origin entry used, and the latest moment the passenger can set off (before that entry's offset)
    /// and still make this journey: there is no pointless waiting at the start.
    public var originStop: Int
    public var departure: Int
    /// The destination entry used, and the arrival at the goal, *including* that entry's offset.
    public var destinationStop: Int
    public var arrival: Int
    /// Alternating walks and rides: an optional walk, a ride, then (optional walk, ride)*, then an
    /// optional walk. Two rides without a walk between them are a change at the same stop.
    public var legs: [JourneyLeg]

    public init(originStop: Int, departure: Int, destinationStop: Int, arrival: Int, legs: [JourneyLeg]) {
        self.originStop = originStop
        self.departure = departure
        self.destinationStop = destinationStop
        self.arrival = arrival
        self.legs = legs
    }

    /// Number of vehicles used (at least 1).
    public var rides: Int {
        legs.reduce(0) { count, leg in
            if case .ride = leg { return count + 1 }
            return count
        }
    }

    /// Changes between vehicles: `rides - 1`.
    public var transfers: Int { rides - 1 }

    /// Door-to-door time as seen by the passenger.
    public var duration: Int { arrival - departure }
}
