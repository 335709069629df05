import Foundation
import Realtime
import TransitModel
import TransitStore

/// TripUpdates feeds made from a route database for the realtime benchmarks: the day's trips in ID order
/// (frequency trips left out), those `include` accepts, every stop time of each until `limit` updates in all.
/// Each trip gets a delay from -60 to +539 s; `fill` writes one stop's update from it.
enum SyntheticTripUpdates {
    struct Feed {
        var data: Data
        var trips: Int
        var updates: Int
    }

    typealias Fill = (
        _ update: inout TransitRealtime_TripUpdate.StopTimeUpdate, _ stopTime: ScheduledTrip.StopTime,
        _ trip: Int, _ index: Int, _ delay: Int32
    ) -> Void

    static func make(
        routes: RouteDatabase, date: ServiceDate, headerTime: UInt64, stampTrips: Bool, limit: Int,
        include: (ScheduledTrip) -> Bool = { _ in true }, fill: Fill
    ) throws -> Feed {
        let ids = try routes.tripIDs(runningOn: date)
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = headerTime
        var count = 0, trips = 0
        var next = ids.startIndex
        while count < limit && next < ids.endIndex {
            let batch = ids[next..<min(next + 500, ids.endIndex)]
            next += batch.count
            let schedules = try routes.scheduledTrips(ids: batch)
            for id in batch {
                guard let trip = schedules[id], !trip.frequencyBased, count < limit, include(trip) else { continue }
                var entity = TransitRealtime_FeedEntity()
                entity.id = "e\(trips)"
                entity.tripUpdate.trip.tripID = id
                entity.tripUpdate.trip.startDate = String(date.yyyymmdd)
                if stampTrips { entity.tripUpdate.timestamp = headerTime }
                let delay = Int32((trips * 37) % 600) - 60
                for stopTime in trip.stopTimes.prefix(limit - count) {
                    var update = TransitRealtime_TripUpdate.StopTimeUpdate()
                    update.stopSequence = UInt32(stopTime.sequence)
                    update.stopID = stopTime.stopID
                    fill(&update, stopTime, trips, count, delay)
                    entity.tripUpdate.stopTimeUpdate.append(update)
                    count += 1
                }
                message.entity.append(entity)
                trips += 1
            }
        }
        return Feed(data: try message.serializedData(), trips: trips, updates: count)
    }
}
