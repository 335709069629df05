import Foundation
import TransitModel
import TransitStore

extension LiveTimetable {
    /// The live state of one scheduled departure, and whether it is hidden (its trip was DELETED).
    public func realtime(for departure: Departure) -> (realtime: DepartureRealtime, hidden: Bool) {
        let scheduled = (DepartureRealtime(state: .scheduled), false)
        guard let candidates = trips[departure.tripID], let date = ServiceDate(parsing: departure.serviceDate),
            let seconds = GTFSTime(parsing: departure.scheduledTime)?.seconds
        else { return scheduled }
        for live in candidates where live.serviceDate == date {
            guard let index = Self.stopIndex(of: departure, seconds: seconds, in: live) else { continue }
            switch live.state {
            case .canceled: return (DepartureRealtime(state: .canceled), false)
            case .deleted: return (DepartureRealtime(state: .canceled), true)
            case .running: break
            }
            switch live.stops[index] {
            case .skipped:
                return (DepartureRealtime(state: .skipped), false)
            case .none, .noData:
                return scheduled
            case let .delay(_, delay, _):
                return (
                    DepartureRealtime(
                        state: .updated, delaySeconds: delay,
                        predictedTime: departure.time.addingTimeInterval(TimeInterval(delay))), false
                )
            }
        }
        return scheduled
    }

    /// Which of the trip's stop times a departure is: same stop, same scheduled time (for a frequency-based
    /// trip, the instance whose start time the feed named).
    static func stopIndex(of departure: Departure, seconds: Int, in live: LiveTrip) -> Int? {
        let stopTimes = live.schedule.stopTimes
        if !live.schedule.frequencyBased {
            return stopTimes.indices.first {
                stopTimes[$0].stopID == departure.stopID
                    && (stopTimes[$0].departure ?? stopTimes[$0].arrival) == seconds
            }
        }
        let first = stopTimes.first?.departure ?? 0
        return stopTimes.indices.first { index in
            guard stopTimes[index].stopID == departure.stopID,
                let time = stopTimes[index].departure ?? stopTimes[index].arrival
            else { return false }
            let instanceStart = seconds - (time - first)
            return live.startTime == nil || live.startTime == instanceStart
        }
    }

    /// Departures of added trips from the given platforms in [from, to] (never from a trip's last stop).
    public func addedDepartures(
        at platforms: [StopInfo], from: Date, to: Date, routes: [String: RouteRecord]
    ) -> [Departure] {
        let byID = Dictionary(platforms.map { ($0.id, $0) }) { a, _ in a }
        var result: [Departure] = []
        for trip in addedTrips {
            for (position, stop) in trip.stops.enumerated() where position < trip.stops.count - 1 && !stop.skipped {
                guard let platform = byID[stop.stopID], let time = stop.departure ?? stop.arrival, from <= time,
                    time <= to
                else { continue }
                let route =
                    trip.routeID.flatMap { routes[$0]?.info }
                    ?? RouteInfo(
                        id: trip.routeID ?? "", shortName: nil, longName: nil, mode: .other, color: nil, textColor: nil,
                        agency: "")
                let serviceDate = trip.startDate ?? ServiceDate.containing(time, in: timeZone)
                let seconds = Int(wholeSecondsOf: time.timeIntervalSince(serviceDate.serviceDayOrigin(in: timeZone)))
                result.append(
                    Departure(
                        // The headsign as the live feed gives it; the destination by `TripDestination`.
                        route: route, headsign: trip.headsign ?? "",
                        directionID: trip.directionID,
                        time: time, minutesFromNow: 0, tripID: trip.tripID, serviceDate: serviceDate.description,
                        scheduledTime: GTFSTime(seconds: seconds).description, wheelchairAccessible: .unknown,
                        stopID: platform.id,
                        platformCode: platform.platformCode, approximate: false,
                        realtime: DepartureRealtime(state: .added, predictedTime: time)))
            }
        }
        return result
    }
}
