import Foundation
import Realtime
import Testing
import TransitModel
import TransitStore

/// `LiveData.apply`: a timetable stop view becomes what the passenger sees.
@Suite struct LiveDataTests {
    typealias S = RealtimeSupport

    func view(at: Date, departures: [Departure]) -> StopView {
        StopView(
            stop: S.stopInfo("C"), platforms: [S.stopInfo("C")], at: at, windowMinutes: 30,
            timeZone: "America/Guayaquil",
            serviceDate: "2026-03-02", routes: [RouteAtStop(route: S.route, directions: [])], departures: departures,
            serviceSpans: [], nextDeparture: nil, nearby: [], nearbyRadiusMeters: 0)
    }

    func live(_ entities: [TransitRealtime_FeedEntity], fetchedAt: Date, schedules: [ScheduledTrip]) throws -> LiveData
    {
        let feed = try S.feed(timestamp: UInt64(fetchedAt.timeIntervalSince1970), entities)
        let timetable = S.matcher.match(
            feed, schedules: Dictionary(uniqueKeysWithValues: schedules.map { ($0.tripID, $0) }))
        return LiveData(
            tripUpdates: .init(value: timetable, headerTimestamp: feed.headerTimestamp, fetchedAt: fetchedAt),
            hasAlertsFeed: false,
            routes: ["R1": RouteRecord(info: S.route, agencyID: "A", routeType: 3)], agencyIDs: ["A"])
    }

    @Test func lateDepartureFromBeforeTheWindowComesBackAndOrderFollowsPredictions() throws {
        // At C: T1 at 08:20 (scheduled before the view's 08:22) is 5 min late; T3 at 08:25 is canceled; T2 at 08:30
        // has an update upstream only at A, on time.
        let now = S.instant(8, 22)
        let data = try live(
            [
                S.tripUpdate("T1", [S.stop(sequence: 30, departureDelay: 300)]),
                S.tripUpdate("T3", relationship: .canceled, []),
                S.tripUpdate("T2", [S.stop(sequence: 10, departureDelay: 0)]),
            ], fetchedAt: now, schedules: [S.trip("T1"), S.trip("T2", plusMinutes: 10), S.trip("T3", plusMinutes: 5)])
        let t2 = S.departure("T2", stopIndex: 2, plusMinutes: 10)
        let t3 = S.departure("T3", stopIndex: 2, plusMinutes: 5)
        let shown = data.apply(
            to: view(at: now, departures: [t3, t2]), earlier: [S.departure("T1", stopIndex: 2)], now: now,
            language: "es")
        #expect(shown.departures.map(\.tripID) == ["T1", "T3", "T2"])
        #expect(shown.departures.map { $0.realtime?.state } == [.updated, .canceled, .updated])
        #expect(shown.departures.map { $0.realtime?.delaySeconds } == [300, nil, 0])
        #expect(shown.departures[0].minutesFromNow == 3 && shown.departures[0].time == S.instant(8, 20))
        #expect(shown.realtimeAgeSeconds == 0 && shown.alerts == nil)
    }

    @Test func onlineModeShowsNothingWithoutFreshData() throws {
        var data = try live(
            [S.tripUpdate("T1", [S.stop(sequence: 30, departureDelay: 60)])], fetchedAt: S.instant(7, 0),
            schedules: [S.trip("T1")])
        data.mode = .online
        let shown = data.apply(
            to: view(at: S.instant(8, 15), departures: [S.departure("T1", stopIndex: 2)]), now: S.instant(8, 15),
            language: "es")
        #expect(shown.departures.isEmpty && shown.realtimeAgeSeconds == 4500)
        data.mode = .mixed
        let mixed = data.apply(
            to: view(at: S.instant(8, 15), departures: [S.departure("T1", stopIndex: 2)]), now: S.instant(8, 15),
            language: "es")
        #expect(mixed.departures.map { $0.realtime?.state } == [.scheduled])
        #expect(mixed.departures.first?.realtime?.predictedTime == nil)
    }

    @Test func jsonGainsRealtimeFieldsOnlyWhenLive() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let plain = String(decoding: try encoder.encode(S.departure("T1", stopIndex: 2)), as: UTF8.self)
        #expect(!plain.contains("realtime"))
        var departure = S.departure("T1", stopIndex: 2)
        departure.realtime = DepartureRealtime(state: .updated, delaySeconds: 120, predictedTime: S.instant(8, 22))
        let live = String(decoding: try encoder.encode(departure), as: UTF8.self)
        #expect(live.contains("\"realtime\":{\"delay_seconds\":120,\"predicted_time\":"))
        #expect(live.contains("\"state\":\"updated\""))
    }

    @Test func settingsProblemsAreNamed() {
        #expect(RealtimeSettings(tripUpdates: "https://rt.example/tu.pb").problems.isEmpty)
        let bad = RealtimeSettings(
            tripUpdates: "ftp://x/y", pollSeconds: 1, mode: .online, headers: ["X Key": "a", "Auth": "a\r\nb"])
        #expect(bad.problems.count == 4)
        #expect(RealtimeSettings(mode: .online).problems == ["[realtime] mode = \"online\" needs trip_updates"])
    }
}
