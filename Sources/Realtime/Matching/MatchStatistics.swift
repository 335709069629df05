import Foundation

/// How well a TripUpdates feed fits the timetable. A feed for another agency, or for another timetable
/// version, shows up here as a trip match rate near zero; nothing in a feed is ever fatal.
public struct MatchStatistics: Sendable, Equatable, Codable {
    /// TripUpdate entities (deleted entities excluded).
    public var tripUpdates = 0
    /// Scheduled trips found in the timetable (including cancelled ones).
    public var tripsMatched = 0
    /// Trip IDs the timetable does not have (ADDED and NEW trips are not counted here).
    public var tripsUnknown = 0
    /// Up to 20 of those IDs, in feed order.
    public var unknownTripIDs: [String] = []
    public var tripsAdded = 0
    public var tripsCanceled = 0
    public var tripsDeleted = 0
    /// Trip updates that name no trip_id (route-only descriptors), or a relationship this kiosk ignores (DUPLICATED).
    public var tripsIgnored = 0
    /// Updates for a trip instance (trip, date, start time) an earlier update of the feed already gave: the
    /// later one is used.
    public var duplicateTripUpdates = 0
    /// A start_date on which the trip's service does not run (the update is applied all the same).
    public var tripsNotRunningOnStartDate = 0

    /// StopTimeUpdates of matched trips.
    public var stopTimeUpdates = 0
    public var stopsMatched = 0
    public var stopsUnknown = 0
    /// Updates whose stop_sequence and stop_id point at different stops of the trip (the one consistent with
    /// the trip's order was used).
    public var sequenceStopIDDisagreements = 0
    /// Updates not in stop_sequence order.
    public var outOfOrder = 0
    public var skippedStops = 0
    public var noDataStops = 0
    /// Events given as absolute times, and as delays only.
    public var absoluteTimes = 0
    public var delaysOnly = 0
    /// Events whose delay and absolute time disagree by more than a minute (the time was used).
    public var timeDelayConflicts = 0
    /// Event times outside 2000–2100 and delays beyond a day either way (`FeedTime`): ignored, as if absent.
    public var outOfRangeEvents = 0

    public init() {}

    /// Matched trips over matched plus unknown, 0…1 (1 when there is nothing to match).
    public var tripMatchRate: Double {
        tripsMatched + tripsUnknown == 0 ? 1 : Double(tripsMatched) / Double(tripsMatched + tripsUnknown)
    }

    /// Matched stop updates over all stop updates of matched trips, 0…1.
    public var stopMatchRate: Double {
        stopsMatched + stopsUnknown == 0 ? 1 : Double(stopsMatched) / Double(stopsMatched + stopsUnknown)
    }

    mutating func noteUnknown(_ tripID: String) {
        tripsUnknown += 1
        if unknownTripIDs.count < 20 { unknownTripIDs.append(tripID) }
    }
}
