import Foundation
import TransitModel

extension MatchStatistics {
    /// The statistics of several feeds added up (the unknown trip ids: the first 20, in feed order).
    public init(adding parts: [MatchStatistics]) {
        self.init()
        for part in parts {
            tripUpdates += part.tripUpdates
            tripsMatched += part.tripsMatched
            tripsUnknown += part.tripsUnknown
            unknownTripIDs += part.unknownTripIDs.prefix(max(0, 20 - unknownTripIDs.count))
            tripsAdded += part.tripsAdded
            tripsCanceled += part.tripsCanceled
            tripsDeleted += part.tripsDeleted
            tripsIgnored += part.tripsIgnored
            duplicateTripUpdates += part.duplicateTripUpdates
            tripsNotRunningOnStartDate += part.tripsNotRunningOnStartDate
            stopTimeUpdates += part.stopTimeUpdates
            stopsMatched += part.stopsMatched
            stopsUnknown += part.stopsUnknown
            sequenceStopIDDisagreements += part.sequenceStopIDDisagreements
            outOfOrder += part.outOfOrder
            skippedStops += part.skippedStops
            noDataStops += part.noDataStops
            absoluteTimes += part.absoluteTimes
            delaysOnly += part.delaysOnly
            timeDelayConflicts += part.timeDelayConflicts
            outOfRangeEvents += part.outOfRangeEvents
        }
    }
}

extension LiveTimetable {
    /// Several feeds' timetables as one (each read in its own namespace, so their trips do not collide): trips
    /// and added trips together, statistics added up, the oldest header time.
    public init(merging parts: [LiveTimetable]) {
        var trips: [String: [LiveTrip]] = [:]
        for part in parts {
            trips.merge(part.trips) { $0 + $1 }
        }
        self.init(
            statistics: MatchStatistics(adding: parts.map(\.statistics)),
            feedTimestamp: parts.compactMap(\.feedTimestamp).min(), timeZone: parts.first?.timeZone ?? .gmt,
            trips: trips, addedTrips: parts.flatMap(\.addedTrips))
    }
}

/// The last good TripUpdates of each publisher (`[[realtime.feeds]]`), merged into the one timetable stop views
/// and plans read.
///
/// Each publisher keeps its own clocks, as `AlertSources` does for alerts: one whose server stopped answering
/// keeps its last data until freshness retires it, and from then on only the publishers still live are merged —
/// a dead metro feed leaves the buses' live times on the boards (the metro's departures show the timetable).
public struct TripUpdateSources: Sendable {
    public private(set) var latest: [LiveData.Fetched<LiveTimetable>?]

    public init(count: Int) { latest = Array(repeating: nil, count: count) }

    public mutating func update(_ index: Int, _ fetched: LiveData.Fetched<LiveTimetable>) { latest[index] = fetched }

    /// A source answered "not modified": its data is confirmed as of `at`.
    public mutating func confirm(_ index: Int, at: Date) { latest[index]?.fetchedAt = at }

    /// What stop views read at `now`: with one publisher, its data as it is (its freshness judged at view time);
    /// with several, those live at `now` merged, aged like the oldest of them — or, when none is live, the most
    /// recently fetched one as it is, so that the board says live data is stale.
    public func merged(now: Date, pollSeconds: Int, mode: RealtimeMode) -> LiveData.Fetched<LiveTimetable>? {
        let present = latest.compactMap { $0 }
        guard latest.count > 1 else { return present.first }
        let live = present.filter {
            Freshness.evaluate(
                headerTimestamp: $0.headerTimestamp, fetchedAt: $0.fetchedAt, now: now, pollSeconds: pollSeconds,
                mode: mode
            ).isLive
        }
        guard let oldestFetch = live.map(\.fetchedAt).min() else {
            return present.max { $0.fetchedAt < $1.fetchedAt }
        }
        if live.count == 1 { return live[0] }
        return LiveData.Fetched(
            value: LiveTimetable(merging: live.map(\.value)), headerTimestamp: live.compactMap(\.headerTimestamp).min(),
            fetchedAt: oldestFetch)
    }
}
