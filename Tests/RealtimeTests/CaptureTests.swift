import Foundation
import KioskTesting
import Realtime
import Testing
import TransitModel
import TransitStore

/// The real Caltrain and BART captures against their own static feeds (../shared/data/gtfs-rt).
@Suite struct CaptureTests {
    typealias S = RealtimeSupport

    func view(_ db: RouteDatabase, _ stopID: String, at: Date, window: Int = 60) throws -> StopView {
        try db.stopView(for: try db.resolveStop(.id(stopID)), at: at, windowMinutes: window, nearbyRadiusMeters: 0)
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func caltrainEveryTripAndStopMatches() throws {
        let database = try #require(S.caltrain)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("caltrain/ct-trip-updates.pb")!.path)
        let live = try TripUpdateMatcher.match(feed, database: db)
        let stats = live.statistics
        #expect(stats.tripUpdates == 19 && stats.tripsMatched == 19 && stats.tripsUnknown == 0)
        #expect(stats.stopTimeUpdates == 220 && stats.stopsMatched == 220 && stats.stopsUnknown == 0)
        #expect(stats.sequenceStopIDDisagreements == 0 && stats.tripsNotRunningOnStartDate == 0)
        #expect(stats.absoluteTimes == 408 && stats.delaysOnly == 0)  // 208 arrivals + 200 departures, times only
        #expect(live.matchedTripCount == 19)
        #expect(live.liveTrips(id: "124").first?.serviceDate == ServiceDate(yyyymmdd: 20231107))
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func caltrainStopViewShowsPredictions() throws {
        let database = try #require(S.caltrain)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("caltrain/ct-trip-updates.pb")!.path)
        let timetable = try TripUpdateMatcher.match(feed, database: db)
        let now = try #require(feed.headerTimestamp)
        // Trip 124's next stop in the capture is 70242 (arrival 1699405801).
        let base = try view(db, "70242", at: now)
        var live = try LiveData(database: db)
        live.hasAlertsFeed = false
        live.tripUpdates = .init(value: timetable, headerTimestamp: feed.headerTimestamp, fetchedAt: now)
        let shown = live.apply(to: base, now: now, language: "en")
        let trip = try #require(shown.departures.first { $0.tripID == "124" })
        #expect(trip.realtime?.state == .updated)
        #expect(trip.realtime?.predictedTime == Date(timeIntervalSince1970: 1_699_405_801))
        #expect(trip.realtime?.delaySeconds == Int(1_699_405_801 - trip.time.timeIntervalSince1970))
        #expect(shown.realtimeAgeSeconds == 0)
        #expect(shown.departures.allSatisfy { $0.realtime != nil })
        #expect(zip(shown.departures, shown.departures.dropFirst()).allSatisfy { $0.expectedTime <= $1.expectedTime })

        // Ten minutes later, with no new fetch: mixed mode falls back to the timetable, online shows nothing.
        let later = now.addingTimeInterval(600)
        let stale = live.apply(to: try view(db, "70242", at: later), now: later, language: "en")
        #expect(stale.departures.allSatisfy { $0.realtime?.state == .scheduled } && stale.realtimeAgeSeconds == 600)
        live.mode = .online
        #expect(live.apply(to: try view(db, "70242", at: later), now: later, language: "en").departures.isEmpty)
        live.mode = .offline
        #expect(live.apply(to: base, now: later, language: "en") == base)
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func lateTrainScheduledBeforeTheWindowStaysOnTheBoard() throws {
        let database = try #require(S.caltrain)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("caltrain/ct-trip-updates.pb")!.path)
        let timetable = try TripUpdateMatcher.match(feed, database: db)
        let now = try #require(feed.headerTimestamp)
        // Train 310 runs about a quarter of an hour late; take its most delayed stop.
        let trip = try #require(timetable.liveTrips(id: "310").first)
        let index = try #require(
            trip.stops.indices.max { (trip.stops[$0].departureDelay ?? 0) < (trip.stops[$1].departureDelay ?? 0) })
        let delay = try #require(trip.stops[index].departureDelay)
        #expect(delay > 600)
        let stopTime = trip.schedule.stopTimes[index]
        let scheduled = trip.serviceDate.serviceDayOrigin(in: db.timeZone).addingTimeInterval(
            TimeInterval(stopTime.departure!))
        let at = scheduled.addingTimeInterval(TimeInterval(delay - 60))  // a minute before it now leaves
        var live = try LiveData(database: db)
        live.hasAlertsFeed = false
        live.tripUpdates = .init(value: timetable, headerTimestamp: now, fetchedAt: now)
        let stop = try db.resolveStop(.id(stopTime.stopID))
        #expect(try db.stopView(for: stop, at: at, windowMinutes: 30).departures.allSatisfy { $0.tripID != "310" })
        let shown = try db.liveStopView(for: stop, at: at, windowMinutes: 30, live: live, now: now, language: "en")
        let late = try #require(shown.departures.first { $0.tripID == "310" })
        #expect(late.realtime?.state == .updated && late.realtime?.delaySeconds == delay && late.minutesFromNow == 1)
        #expect(late.time == scheduled)
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func bartUnknownAddedAndDisagreeingStops() throws {
        let database = try #require(S.bart)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("bart/bart-trip-updates.pb")!.path)
        let live = try TripUpdateMatcher.match(feed, database: db)
        let stats = live.statistics
        #expect(stats.tripUpdates == 91)
        #expect(stats.tripsUnknown == 18 && stats.unknownTripIDs.count == 18)
        #expect(stats.tripsAdded == 8 && live.addedTrips.count == 8)
        #expect(stats.tripsMatched == 65)
        // Of the 979 stop updates of matched trips, 161 carry a stop_sequence that names another stop than their stop_id.
        #expect(stats.stopsMatched + stats.stopsUnknown == 979 + live.addedTrips.reduce(0) { $0 + $1.stops.count })
        #expect(stats.sequenceStopIDDisagreements == 161)
        #expect(stats.stopsUnknown == 0)
        // No start_date in the feed: every matched trip is placed on 2019-08-07, the capture's (Wednesday) service day.
        let dates = Set(live.addedTrips.compactMap(\.startDate))
        #expect(dates.isEmpty)
        let matched = try db.scheduledTrips(ids: feed.tripUpdates.compactMap(\.trip.tripID)).keys
        #expect(matched.count == 65)
        #expect(
            matched.allSatisfy { id in
                live.liveTrips(id: id).allSatisfy { $0.serviceDate == ServiceDate(yyyymmdd: 20190807) }
            })
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func bartAddedTripsJoinTheStopView() throws {
        let database = try #require(S.bart)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("bart/bart-trip-updates.pb")!.path)
        let timetable = try TripUpdateMatcher.match(feed, database: db)
        let now = try #require(feed.headerTimestamp)
        let trip = try #require(
            timetable.addedTrips.first { trip in
                trip.stops.dropLast().contains { ($0.departure ?? $0.arrival).map { $0 > now } ?? false }
            })
        let stop = try #require(trip.stops.dropLast().first { ($0.departure ?? $0.arrival).map { $0 > now } ?? false })
        var live = try LiveData(database: db)
        live.hasAlertsFeed = false
        live.tripUpdates = .init(value: timetable, headerTimestamp: now, fetchedAt: now)
        let shown = live.apply(to: try view(db, stop.stopID, at: now, window: 90), now: now, language: "en")
        let added = try #require(shown.departures.first { $0.tripID == trip.tripID })
        #expect(added.realtime?.state == .added && added.time == (stop.departure ?? stop.arrival))
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func bartAgencyWideAlertReachesEveryStop() throws {
        let database = try #require(S.bart)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("bart/bart-alerts.pb")!.path)
        let now = try #require(feed.headerTimestamp)
        var live = try LiveData(database: db)
        live.hasTripUpdatesFeed = false
        live.alerts = .init(value: AlertIndex(feed: feed), headerTimestamp: now, fetchedAt: now)
        for stopID in try db.boardingStopIDs().prefix(5) {
            let shown = live.apply(to: try view(db, stopID, at: now), now: now, language: "es")
            let alert = try #require(shown.alerts?.first, "\(stopID)")
            #expect(alert.id == "BSA_187874" && alert.scope == "agency")
            #expect(alert.cause == "medical_emergency" && alert.effect == "significant_delays")
            #expect(alert.header.hasPrefix("There is a major delay at Montgomery St.") && alert.language == "en-US")  // no Spanish: English
            #expect(alert.url == "http://www.bart.gov/schedules/advisories")
        }
        // Stale alerts are not shown.
        let later = now.addingTimeInterval(3600)
        let stale = live.apply(to: try view(db, try db.boardingStopIDs()[0], at: later), now: later, language: "en")
        #expect(stale.alerts == [])
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func caltrainFeedAgainstBartTimetableMatchesNothing() throws {
        let database = try #require(S.bart)
        let feed = try RealtimeFeed.read(path: S.capture("caltrain/ct-trip-updates.pb")!.path)
        let live = try TripUpdateMatcher.match(feed, database: try database.get())
        #expect(live.statistics.tripsUnknown == 19 && live.statistics.tripMatchRate == 0)
    }
}
