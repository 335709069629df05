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
/// and plans read: a dead metro feed leaves the buses' live times on the boards (`LiveSources`).
public typealias TripUpdateSources = LiveSources<LiveTimetable>

extension LiveTimetable: MergeableLiveData {}
