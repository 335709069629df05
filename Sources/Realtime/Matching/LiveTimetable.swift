import Foundation
import TransitModel
import TransitStore

/// A TripUpdates feed applied to the timetable: for every trip it names, the live state of each of the trip's
/// scheduled stops, after stop matching and delay propagation. Built once per fetched feed
/// (`TripUpdateMatcher`); every stop view then reads it with a dictionary lookup.
public struct LiveTimetable: Sendable {
    public var statistics: MatchStatistics
    /// The feed's header timestamp.
    public var feedTimestamp: Date?
    public var timeZone: TimeZone
    /// Matched trips by trip_id (one entry per service date, or per start time of a frequency-based trip).
    var trips: [String: [LiveTrip]]
    /// Trips the timetable does not have (ADDED / NEW), with their own stop times.
    public var addedTrips: [AddedTrip]

    public init(
        statistics: MatchStatistics, feedTimestamp: Date?, timeZone: TimeZone, trips: [String: [LiveTrip]],
        addedTrips: [AddedTrip]
    ) {
        self.statistics = statistics
        self.feedTimestamp = feedTimestamp
        self.timeZone = timeZone
        self.trips = trips
        self.addedTrips = addedTrips
    }

    /// An empty timetable: no trip has live data.
    public static func empty(timeZone: TimeZone) -> LiveTimetable {
        LiveTimetable(statistics: MatchStatistics(), feedTimestamp: nil, timeZone: timeZone, trips: [:], addedTrips: [])
    }

    /// The live entries for a trip_id (for diagnostics and tests).
    public func liveTrips(id: String) -> [LiveTrip] { trips[id] ?? [] }

    /// How many scheduled trips have live entries.
    public var matchedTripCount: Int { trips.values.reduce(0) { $0 + $1.count } }
}

/// One scheduled trip on one service date with its live state.
public struct LiveTrip: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case running
        case canceled
        /// DELETED: removed from what passengers see, as if it never existed.
        case deleted
    }

    public var schedule: ScheduledTrip
    public var serviceDate: ServiceDate
    /// For a frequency-based trip: the start time (seconds from the service day's origin) of this instance.
    public var startTime: Int?
    public var state: State
    /// One per scheduled stop time, in the trip's order.
    public var stops: [StopPrediction]
}

/// The live state of one scheduled stop of a trip, after propagation.
public enum StopPrediction: Sendable, Equatable {
    /// Nothing known (before the first update): the timetable stands.
    case none
    /// NO_DATA, from this stop or propagated from an upstream one: the timetable stands.
    case noData
    /// The vehicle does not stop here.
    case skipped
    /// Predicted delays in seconds; `propagated` when inherited from an upstream update.
    case delay(arrival: Int, departure: Int, propagated: Bool)

    public var departureDelay: Int? {
        if case let .delay(_, departure, _) = self { return departure }
        return nil
    }
}

/// A trip the timetable does not have, as the feed describes it.
public struct AddedTrip: Sendable, Equatable {
    public struct Stop: Sendable, Equatable {
        public var stopID: String
        public var arrival: Date?
        public var departure: Date?
        public var skipped: Bool
    }

    public var tripID: String
    public var routeID: String?
    public var directionID: Int?
    public var headsign: String?
    public var startDate: ServiceDate?
    public var stops: [Stop]
}
