import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing
import TransitModel
import TransitStore

enum RealtimeSupport {
    /// A real capture in `../shared/data/gtfs-rt` (nil on a clone without it: those tests are disabled).
    static func capture(_ path: String) -> URL? { SharedData.folder?.appendingPathComponent("gtfs-rt/\(path)") }

    static func temporaryDirectory(_ name: String) -> URL { TemporaryFolder.make(name) }

    static func importDatabase(_ feed: URL) throws -> RouteDatabase {
        let path = temporaryDirectory("db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    /// The static feeds of the captures, imported once per test process (nil without ../shared/data).
    static let caltrain: Result<RouteDatabase, any Error>? = capture("caltrain/ct.zip").map { url in
        Result { try importDatabase(url) }
    }
    static let bart: Result<RouteDatabase, any Error>? = capture("bart/bart-rt.zip").map { url in
        Result { try importDatabase(url) }
    }

    // MARK: Hand-made feeds

    static func message(timestamp: UInt64?, _ entities: [TransitRealtime_FeedEntity]) -> TransitRealtime_FeedMessage {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        if let timestamp { message.header.timestamp = timestamp }
        message.entity = entities
        return message
    }

    static func feed(timestamp: UInt64?, _ entities: [TransitRealtime_FeedEntity]) throws -> RealtimeFeed {
        try RealtimeFeed.decode(try message(timestamp: timestamp, entities).serializedData())
    }

    static func tripUpdate(
        _ tripID: String, startDate: String? = "20260302", startTime: String? = nil,
        relationship: TransitRealtime_TripDescriptor.ScheduleRelationship = .scheduled,
        routeID: String? = nil, delay: Int32? = nil,
        _ stops: [TransitRealtime_TripUpdate.StopTimeUpdate]
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = "tu-\(tripID)"
        entity.tripUpdate.trip.tripID = tripID
        if let startDate { entity.tripUpdate.trip.startDate = startDate }
        if let startTime { entity.tripUpdate.trip.startTime = startTime }
        if let routeID { entity.tripUpdate.trip.routeID = routeID }
        entity.tripUpdate.trip.scheduleRelationship = relationship
        if let delay { entity.tripUpdate.delay = delay }
        entity.tripUpdate.stopTimeUpdate = stops
        return entity
    }

    static func stop(
        sequence: UInt32? = nil, id: String? = nil, arrivalDelay: Int32? = nil, departureDelay: Int32? = nil,
        arrivalTime: Int64? = nil, departureTime: Int64? = nil,
        relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship = .scheduled
    ) -> TransitRealtime_TripUpdate.StopTimeUpdate {
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        if let sequence { update.stopSequence = sequence }
        if let id { update.stopID = id }
        if let arrivalDelay { update.arrival.delay = arrivalDelay }
        if let arrivalTime { update.arrival.time = arrivalTime }
        if let departureDelay { update.departure.delay = departureDelay }
        if let departureTime { update.departure.time = departureTime }
        update.scheduleRelationship = relationship
        return update
    }

    // MARK: A hand-made timetable: trip T1 over stops A–E, every 10 minutes from 08:00, on 2026-03-02 in Quito

    static let zone = TimeZone(identifier: "America/Guayaquil")!
    static let date = ServiceDate(yyyymmdd: 20260302)!
    static let origin = date.serviceDayOrigin(in: zone)

    static func instant(_ hours: Int, _ minutes: Int, _ seconds: Int = 0) -> Date {
        origin.addingTimeInterval(TimeInterval(hours * 3600 + minutes * 60 + seconds))
    }

    static func epoch(_ hours: Int, _ minutes: Int, _ seconds: Int = 0) -> Int64 {
        Int64(instant(hours, minutes, seconds).timeIntervalSince1970)
    }

    static let stopIDs = ["A", "B", "C", "D", "E"]

    static func trip(
        _ id: String, startingAt hours: Int = 8, plusMinutes: Int = 0, frequency: Bool = false
    ) -> ScheduledTrip {
        ScheduledTrip(
            tripID: id, routeID: "R1", directionID: 0, serviceIndex: 1, headsign: "E", frequencyBased: frequency,
            stopTimes: stopIDs.enumerated().map { index, stop in
                let t = hours * 3600 + plusMinutes * 60 + index * 600
                return ScheduledTrip.StopTime(sequence: (index + 1) * 10, stopID: stop, arrival: t, departure: t)
            })
    }

    static let matcher = TripUpdateMatcher(timeZone: zone, activeServices: { _ in [1] })

    static let route = RouteInfo(
        id: "R1", shortName: "1", longName: "Uno", mode: .bus, color: nil, textColor: nil, agency: "Agencia")

    /// The timetable departure of trip `tripID` at stop index `index` (as the stop view query would build it).
    static func departure(
        _ tripID: String, stopIndex index: Int, startingAt hours: Int = 8, plusMinutes: Int = 0
    ) -> Departure {
        let seconds = hours * 3600 + plusMinutes * 60 + index * 600
        let time = origin.addingTimeInterval(TimeInterval(seconds))
        return Departure(
            route: route, headsign: "E", directionID: 0, time: time, minutesFromNow: 0, tripID: tripID,
            serviceDate: date.description, scheduledTime: GTFSTime(seconds: seconds).description,
            wheelchairAccessible: .unknown, stopID: stopIDs[index], platformCode: nil, approximate: false)
    }

    static func stopInfo(_ id: String) -> StopInfo {
        StopInfo(
            id: id, code: nil, name: "Parada \(id)", parentStationID: nil, parentStationName: nil, platformCode: nil,
            wheelchairBoarding: .unknown, latitude: nil, longitude: nil, locationType: 0)
    }
}
