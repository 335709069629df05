import Foundation
import TransitModel
import TransitStore

/// Applies a TripUpdates feed to the timetable, as the GTFS-Realtime reference describes:
///
/// - a trip is found by trip_id and start_date (and start_time for frequency-based trips); without a
///   start_date, the service date is the one (of the days around the feed's time) on which the trip runs and
///   whose schedule lies closest to the update's times;
/// - a stop by stop_sequence, else stop_id; when the two point at different stops, the one consistent with
///   the trip's order wins (real feeds get stop_sequence wrong while the stop_id is right);
/// - absolute times become delays against the schedule; a delay propagates downstream until the next update;
///   SKIPPED stops pass the delay on, NO_DATA stops stop it (and mark downstream stops NO_DATA too);
/// - CANCELED and DELETED trips, and ADDED / NEW trips with their own stop times.
///
/// Unknown trips and stops are counted in `MatchStatistics`, never fatal.
public struct TripUpdateMatcher: Sendable {
    public var timeZone: TimeZone
    /// Service indexes running on a date (the timetable's calendar).
    public var activeServices: @Sendable (ServiceDate) -> Set<Int>

    public init(timeZone: TimeZone, activeServices: @escaping @Sendable (ServiceDate) -> Set<Int>) {
        self.timeZone = timeZone
        self.activeServices = activeServices
    }

    public init(database: RouteDatabase) {
        self.init(timeZone: database.timeZone, activeServices: { Set(database.activeServiceIndexes(on: $0)) })
    }

    /// Reads the trips the feed names from `database` and matches the feed against them.
    /// `referenceTime` places updates without a start_date; default: the feed's header time, else now.
    public static func match(
        _ feed: RealtimeFeed, database: RouteDatabase, referenceTime: Date? = nil
    ) throws -> LiveTimetable {
        var ids: [String] = []
        ids.reserveCapacity(feed.contents.tripUpdates)
        for update in feed.tripUpdates {
            if let id = update.trip.tripID { ids.append(id) }
        }
        let schedules = try database.scheduledTrips(ids: ids)
        return TripUpdateMatcher(database: database).match(feed, schedules: schedules, referenceTime: referenceTime)
    }

    /// Matches the feed against the given scheduled trips (those it names; others count as unknown).
    public func match(
        _ feed: RealtimeFeed, schedules: [String: ScheduledTrip], referenceTime: Date? = nil
    ) -> LiveTimetable {
        var context = Context(matcher: self, reference: referenceTime ?? feed.headerTimestamp ?? Date())
        var trips: [String: [LiveTrip]] = [:]
        var added: [AddedTrip] = []
        for update in feed.tripUpdates where !update.isDeleted {
            context.stats.tripUpdates += 1
            let descriptor = update.trip
            switch descriptor.scheduleRelationship {
            case .added, .new:
                context.stats.tripsAdded += 1
                added.append(context.addedTrip(update))
                continue
            case .duplicated:
                context.stats.tripsIgnored += 1
                continue
            default:
                break
            }
            guard let tripID = descriptor.tripID, !tripID.isEmpty else {
                context.stats.tripsIgnored += 1
                continue
            }
            guard let schedule = schedules[tripID] else {
                context.stats.noteUnknown(tripID)
                continue
            }
            context.stats.tripsMatched += 1
            let live = context.liveTrip(update, schedule: schedule)
            // One update per trip instance (date and start time): a repeated one replaces the earlier, so what is
            // kept is bounded by the timetable, whatever the feed repeats.
            if let earlier = trips[tripID]?.firstIndex(where: {
                $0.serviceDate == live.serviceDate && $0.startTime == live.startTime
            }) {
                context.stats.duplicateTripUpdates += 1
                trips[tripID]![earlier] = live
            } else {
                trips[tripID, default: []].append(live)
            }
        }
        return LiveTimetable(
            statistics: context.stats, feedTimestamp: feed.headerTimestamp, timeZone: timeZone, trips: trips,
            addedTrips: added)
    }

    /// Per-feed working state: statistics and cached calendar answers.
    struct Context {
        let matcher: TripUpdateMatcher
        let reference: Date
        var stats = MatchStatistics()
        var origins: [ServiceDate: Double] = [:]
        var running: [ServiceDate: Set<Int>] = [:]

        init(matcher: TripUpdateMatcher, reference: Date) {
            self.matcher = matcher
            self.reference = reference
        }

        mutating func origin(_ date: ServiceDate) -> Double {
            if let known = origins[date] { return known }
            let value = date.serviceDayOrigin(in: matcher.timeZone).timeIntervalSince1970
            origins[date] = value
            return value
        }

        mutating func runs(_ serviceIndex: Int, on date: ServiceDate) -> Bool {
            if let known = running[date] { return known.contains(serviceIndex) }
            let set = matcher.activeServices(date)
            running[date] = set
            return set.contains(serviceIndex)
        }

        // MARK: Scheduled trips

        mutating func liveTrip(_ update: TripUpdateRecord, schedule: ScheduledTrip) -> LiveTrip {
            let descriptor = update.trip
            let stopTimes = schedule.stopTimes
            let startTime = descriptor.startTime.flatMap { GTFSTime(parsing: $0)?.seconds }
            // A frequency-based instance runs `shift` seconds after its template's times.
            let firstDeparture = stopTimes.first?.departure ?? stopTimes.first?.arrival ?? 0
            let shift = schedule.frequencyBased ? (startTime ?? firstDeparture) - firstDeparture : 0

            // Resolve every update to an index in the trip's stop times (positions into `updates`, so that the
            // large update structs are read in place, never copied).
            let updates = update.stopTimeUpdate
            var resolved: [(index: Int, position: Int)] = []
            resolved.reserveCapacity(updates.count)
            var last = -1, inOrder = true
            for position in updates.indices {
                stats.stopTimeUpdates += 1
                guard let index = resolve(updates[position], in: stopTimes, after: last) else {
                    stats.stopsUnknown += 1
                    continue
                }
                stats.stopsMatched += 1
                if index <= last { stats.outOfOrder += 1; inOrder = false }
                last = max(last, index)
                resolved.append((index, position))
            }
            if !inOrder { resolved.sort { ($0.index, $0.position) < ($1.index, $1.position) } }

            let date = serviceDate(descriptor, update: update, schedule: schedule, resolved: resolved, shift: shift)
            if descriptor.startDate != nil, !runs(schedule.serviceIndex, on: date) { stats.tripsNotRunningOnStartDate += 1 }
            let state: LiveTrip.State
            switch descriptor.scheduleRelationship {
            case .canceled: state = .canceled; stats.tripsCanceled += 1
            case .deleted: state = .deleted; stats.tripsDeleted += 1
            default: state = .running
            }
            guard state == .running else {
                return LiveTrip(
                    schedule: schedule, serviceDate: date, startTime: startTime, state: state,
                    stops: Array(repeating: .none, count: stopTimes.count))
            }

            let origin = origin(date) + Double(shift)
            var stops = [StopPrediction](repeating: .none, count: stopTimes.count)
            let tripDelay: Int? = update.delay.flatMap { plausibleDelay(Int($0)) }
            // Before the first update, the trip-level delay (if any) holds.
            var carry: StopPrediction = tripDelay.map { .delay(arrival: $0, departure: $0, propagated: true) } ?? .none
            var next = 0
            for index in stopTimes.indices {
                guard next < resolved.count, resolved[next].index == index else {
                    stops[index] = carry
                    continue
                }
                var position = resolved[next].position
                next += 1
                // Duplicates for one stop: the last one wins.
                while next < resolved.count, resolved[next].index == index {
                    position = resolved[next].position; next += 1
                }
                switch updates[position].scheduleRelationship {
                case .skipped:
                    stats.skippedStops += 1
                    stops[index] = .skipped
                // The delay carries on past a skipped stop.
                case .noData:
                    stats.noDataStops += 1
                    stops[index] = .noData
                    carry = .noData
                default:
                    let scheduled = stopTimes[index]
                    let arrival =
                        updates[position].hasArrival
                        ? delay(
                            updates[position].arrival, scheduled: scheduled.arrival ?? scheduled.departure,
                            origin: origin) : nil
                    let departure =
                        updates[position].hasDeparture
                        ? delay(
                            updates[position].departure, scheduled: scheduled.departure ?? scheduled.arrival,
                            origin: origin) : nil
                    if arrival == nil && departure == nil {
                        stops[index] = carry  // an update with no times says nothing new
                    } else {
                        let prediction = StopPrediction.delay(
                            arrival: arrival ?? departure!, departure: departure ?? arrival!, propagated: false)
                        stops[index] = prediction
                        carry = .delay(
                            arrival: departure ?? arrival!, departure: departure ?? arrival!, propagated: true)
                    }
                }
            }
            return LiveTrip(schedule: schedule, serviceDate: date, startTime: startTime, state: state, stops: stops)
        }

        /// The stop a StopTimeUpdate means: stop_sequence when it agrees with stop_id, else the stop_id's next
        /// occurrence after the previous update (the reading consistent with the trip's order).
        mutating func resolve(
            _ stopUpdate: TripUpdateRecord.StopTimeUpdate, in stopTimes: [ScheduledTrip.StopTime],
            after last: Int
        ) -> Int? {
            var bySequence: Int?
            if stopUpdate.hasStopSequence {
                let wanted = Int(stopUpdate.stopSequence)
                var low = 0, high = stopTimes.count - 1
                while low <= high {
                    let mid = (low + high) / 2
                    if stopTimes[mid].sequence == wanted { bySequence = mid; break }
                    if stopTimes[mid].sequence < wanted { low = mid + 1 } else { high = mid - 1 }
                }
            }
            guard stopUpdate.hasStopID, !stopUpdate.stopID.isEmpty else { return bySequence }
            let stopID = stopUpdate.stopID
            if let bySequence, stopTimes[bySequence].stopID == stopID { return bySequence }
            let byID =
                stopTimes.indices.first { $0 > last && stopTimes[$0].stopID == stopID }
                ?? stopTimes.indices.first { stopTimes[$0].stopID == stopID }
            if let byID {
                if stopUpdate.hasStopSequence { stats.sequenceStopIDDisagreements += 1 }
                return byID
            }
            // The stop_id is not on the trip at all (another platform, a typo): trust the sequence if any.
            if bySequence != nil { stats.sequenceStopIDDisagreements += 1 }
            return bySequence
        }

        /// An event as a delay in seconds against its scheduled time; absolute times win over delays.
        /// Times outside `FeedTime.plausibleSeconds` and delays outside `FeedTime.plausibleDelaySeconds` say
        /// nothing (counted in `outOfRangeEvents`).
        mutating func delay(_ event: TripUpdateRecord.Event, scheduled: Int?, origin: Double) -> Int?
        {
            if event.hasTime, event.time != 0, let scheduled {
                guard let time = FeedTime.instant(event.time) else {
                    stats.outOfRangeEvents += 1
                    return nil
                }
                stats.absoluteTimes += 1
                let value = Int(wholeSecondsOf: time.timeIntervalSince1970 - (origin + Double(scheduled)))
                if event.hasDelay, abs(value - Int(event.delay)) > 60 { stats.timeDelayConflicts += 1 }
                return plausibleDelay(value)
            }
            if event.hasDelay {
                stats.delaysOnly += 1
                return plausibleDelay(Int(event.delay))
            }
            return nil
        }

        mutating func plausibleDelay(_ seconds: Int) -> Int? {
            guard FeedTime.plausibleDelaySeconds.contains(seconds) else {
                stats.outOfRangeEvents += 1
                return nil
            }
            return seconds
        }

        /// The trip's service date: its start_date, else the nearby date on which it runs and whose schedule
        /// best fits the update (absolute times against scheduled times, else the reference time against the
        /// trip's span).
        mutating func serviceDate(
            _ descriptor: TripUpdateRecord.Trip, update: TripUpdateRecord, schedule: ScheduledTrip,
            resolved: [(index: Int, position: Int)], shift: Int
        ) -> ServiceDate {
            if let startDate = descriptor.startDate, let date = ServiceDate(parsing: startDate) { return date }
            let today = ServiceDate.containing(reference, in: matcher.timeZone)
            var candidates = [today.adding(days: -1), today, today.adding(days: 1)]
            let runningDates = candidates.filter { runs(schedule.serviceIndex, on: $0) }
            if !runningDates.isEmpty { candidates = runningDates }
            if candidates.count == 1 { return candidates[0] }
            // An absolute event time pins the date.
            for (index, position) in resolved {
                let stopUpdate = update.stopTimeUpdate[position]
                let event =
                    stopUpdate.hasDeparture && stopUpdate.departure.hasTime ? stopUpdate.departure : stopUpdate.arrival
                let stopTime = schedule.stopTimes[index]
                guard event.hasTime, let time = FeedTime.instant(event.time)?.timeIntervalSince1970,
                    let scheduled = stopTime.departure ?? stopTime.arrival
                else {
                    continue
                }
                return candidates.min { a, b in
                    abs(time - origin(a) - Double(scheduled + shift)) < abs(time - origin(b) - Double(scheduled + shift))
                }!
            }
            let first = Double((schedule.stopTimes.first?.departure ?? 0) + shift)
            let last = Double((schedule.stopTimes.last?.arrival ?? schedule.stopTimes.last?.departure ?? 0) + shift)
            let time = (update.timestamp.flatMap(FeedTime.instant) ?? reference).timeIntervalSince1970
            func distance(_ date: ServiceDate) -> Double {
                let start = origin(date) + first, end = origin(date) + last
                return time < start ? start - time : (time > end ? time - end : 0)
            }
            return candidates.min { distance($0) < distance($1) }!
        }

        // MARK: Added trips

        mutating func addedTrip(_ update: TripUpdateRecord) -> AddedTrip {
            let descriptor = update.trip
            let startDate = descriptor.startDate.flatMap { ServiceDate(parsing: $0) }
            var stops: [AddedTrip.Stop] = []
            for stopUpdate in update.stopTimeUpdate {
                stats.stopTimeUpdates += 1
                func time(_ event: TripUpdateRecord.Event) -> Date? {
                    guard event.hasTime, event.time != 0 else { return nil }
                    guard let instant = FeedTime.instant(event.time) else {
                        stats.outOfRangeEvents += 1
                        return nil
                    }
                    return instant
                }
                let arrival = stopUpdate.hasArrival ? time(stopUpdate.arrival) : nil
                let departure = stopUpdate.hasDeparture ? time(stopUpdate.departure) : nil
                guard stopUpdate.hasStopID,
                    arrival != nil || departure != nil || stopUpdate.scheduleRelationship == .skipped
                else {
                    stats.stopsUnknown += 1  // an added trip's stop needs a stop_id and an absolute time
                    continue
                }
                stats.stopsMatched += 1
                if stopUpdate.scheduleRelationship == .skipped { stats.skippedStops += 1 }
                stops.append(
                    AddedTrip.Stop(
                        stopID: stopUpdate.stopID, arrival: arrival, departure: departure,
                        skipped: stopUpdate.scheduleRelationship == .skipped))
            }
            return AddedTrip(
                tripID: descriptor.tripID ?? "", routeID: descriptor.routeID,
                directionID: descriptor.directionID.map { Int($0) }, headsign: update.tripHeadsign,
                startDate: startDate, stops: stops)
        }
    }
}
