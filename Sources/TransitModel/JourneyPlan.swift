import Foundation

/// The answer to "how do I get from here to there", rendered on the kiosk, as `kiosk plan` text and as JSON.
/// Field names are part of the JSON contract documented in the README.
public struct JourneyPlan: Sendable, Codable, Equatable {
    public var from: StopInfo
    public var to: StopInfo
    public var at: Date
    public var timeZone: String
    public var maxTransfers: Int
    public var walkRadiusMeters: Int
    /// Best first: the Pareto-optimal options on (arrival, transfers), at most three, each leaving as late as
    /// it can for its arrival.
    public var options: [JourneyOption]
    /// When nothing connects the two stops: what serves each end, so the passenger is not left with nothing.
    public var routesAtOrigin: [RouteInfo]
    public var routesAtDestination: [RouteInfo]
    /// With live data configured: whether the options use live times (false: the planner uses the timetable).
    /// Absent when there is no live data, so plans without it read as they always did.
    public var liveTimesUsed: Bool?
    /// With live data configured: `live`, or `stale`/`withheld` when the options are on the timetable because
    /// the live data is not fresh (as the stop view says it); and since when it has been unavailable.
    public var realtimeStatus: LiveDataStatus?
    public var realtimeUnavailableSince: Date?
    /// Arrive-by plans: the moment to arrive by (`at` is then the earliest departure considered). Absent for
    /// leave-at plans.
    public var arriveBy: Date?
    /// Step-free plans (`--wheelchair`): true. Absent otherwise.
    public var stepFree: Bool?
    /// A step-free plan that found no option: the ordinary plan, offered separately.
    public var withoutStepFree: [JourneyOption]?

    public init(
        from: StopInfo, to: StopInfo, at: Date, timeZone: String, maxTransfers: Int, walkRadiusMeters: Int,
        options: [JourneyOption], routesAtOrigin: [RouteInfo], routesAtDestination: [RouteInfo]
    ) {
        self.from = from
        self.to = to
        self.at = at
        self.timeZone = timeZone
        self.maxTransfers = maxTransfers
        self.walkRadiusMeters = walkRadiusMeters
        self.options = options
        self.routesAtOrigin = routesAtOrigin
        self.routesAtDestination = routesAtDestination
    }
}

public struct JourneyOption: Sendable, Codable, Equatable {
    public var departure: Date
    public var arrival: Date
    public var durationMinutes: Int
    public var transfers: Int
    public var legs: [JourneyStep]

    public init(departure: Date, arrival: Date, durationMinutes: Int, transfers: Int, legs: [JourneyStep]) {
        self.departure = departure
        self.arrival = arrival
        self.durationMinutes = durationMinutes
        self.transfers = transfers
        self.legs = legs
    }
}

/// One leg: a walk between two stops, or a ride on one trip.
public struct JourneyStep: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case walk, ride }

    public var kind: Kind
    public var from: StopInfo
    public var to: StopInfo
    public var departure: Date
    public var arrival: Date
    public var minutes: Int
    /// Rides only.
    public var route: RouteInfo?
    /// Rides: the trip's headsign as the feed gives it (may be nil or empty).
    public var headsign: String?
    /// Rides: where the trip goes, as every surface names it (`TripDestination`): never empty.
    public var destination: String?
    /// Rides: the trip's own number where the feed gives one (`trip_short_name`, a train number).
    public var tripShortName: String?
    public var tripID: String?
    public var serviceDate: String?
    /// Rides only: stops travelled (1 = the next stop).
    public var stops: Int?
    /// Rides of a plan on live data: the live state at boarding (`departure`/`arrival` stay the timetable's).
    public var realtime: RideRealtime?
    /// Rides in a database of several feeds: the feed of `trip_id` (its route's feed); nil, and absent from the
    /// JSON, for walks and with one feed. `from` and `to` name their own feeds.
    public var feedID: String?

    public init(
        kind: Kind, from: StopInfo, to: StopInfo, departure: Date, arrival: Date, minutes: Int, route: RouteInfo? = nil,
        headsign: String? = nil, tripID: String? = nil, serviceDate: String? = nil, stops: Int? = nil,
        realtime: RideRealtime? = nil, lastStopName: String? = nil, tripShortName: String? = nil
    ) {
        self.kind = kind
        self.from = from
        self.to = to
        self.departure = departure
        self.arrival = arrival
        self.minutes = minutes
        self.route = route
        self.headsign = headsign
        self.destination = route.map {
            TripDestination.named(headsign: headsign ?? "", lastStopName: lastStopName, route: $0)
        }
        self.tripShortName = tripShortName.flatMap { $0.isEmpty ? nil : $0 }
        self.tripID = tripID
        self.serviceDate = serviceDate
        self.stops = stops
        self.realtime = realtime
        self.feedID = route?.feedID
    }
}

/// The live state of a ride, as a departure's `realtime` on the board: `scheduled` (no prediction: the
/// timetable's times), `updated` (predicted times), `added` (a trip the timetable does not have).
public struct RideRealtime: Sendable, Codable, Equatable {
    public var state: DepartureRealtime.State
    /// Predicted minus scheduled departure at boarding (absent for added trips).
    public var delaySeconds: Int?
    public var predictedDeparture: Date?
    public var predictedArrival: Date?

    public init(
        state: DepartureRealtime.State, delaySeconds: Int? = nil, predictedDeparture: Date? = nil,
        predictedArrival: Date? = nil
    ) {
        self.state = state
        self.delaySeconds = delaySeconds
        self.predictedDeparture = predictedDeparture
        self.predictedArrival = predictedArrival
    }
}
