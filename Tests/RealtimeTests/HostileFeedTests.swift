import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing
import TransitModel
import TransitStore

/// Feeds that a broken or hostile producer sends: integers that cannot be instants (−1 written into an unsigned
/// field is 2^64−1), delays of years, thousands of alerts on one stop. Each is an oddity to count and show, never a
/// trap, and never a departure that silently vanishes. The crafted feeds are the realtime fuzzer's seed corpus.
@Suite struct HostileFeedTests {
    typealias S = RealtimeSupport
    static let corpus = Repository.root.appendingPathComponent("kiosk/fuzz/corpus/realtime")

    static func corpusFeed(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    static func lookupJSON(_ feed: String) throws -> [String: Any] {
        let result = try Programs.runKiosk([
            "lookup", "MQ09", "--at", "2026-11-25T08:00", "--window", "30", "--json", "--realtime", feed,
        ])
        #expect(result.status == 0 && result.signal == nil, "\(result)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    // MARK: Instants out of range

    @Test func aHeaderTimestampOfTwoToTheSixtyFourIsIgnoredNotATrap() throws {
        let feed = try RealtimeFeed.read(path: Self.corpusFeed("header-timestamp-max.pb"))
        #expect(feed.message.header.timestamp == UInt64.max)
        #expect(feed.headerTimestamp == nil)
        #expect(feed.oddities.keys.contains { $0.contains("header timestamp 18446744073709551615 is outside 2000–2100") })
        let now = Date(timeIntervalSince1970: 1_795_611_600)
        let freshness = Freshness.evaluate(
            headerTimestamp: feed.headerTimestamp, fetchedAt: now, now: now, pollSeconds: 30, mode: .mixed)
        #expect(freshness.isLive)

        _ = try Self.lookupJSON(Self.corpusFeed("header-timestamp-max.pb"))
        let page = try Programs.runKiosk(["lookup", "MQ09", "--at", "2026-11-25T08:00", "--realtime", Self.corpusFeed("header-timestamp-max.pb")])
        #expect(page.status == 0 && page.signal == nil, "\(page)")
        let inspect = try Programs.runKiosk([
            "rt", "inspect", Self.corpusFeed("header-timestamp-max.pb"), "--at", "2026-11-25T08:00",
        ])
        #expect(inspect.status == 0 && inspect.signal == nil, "\(inspect)")
        #expect(inspect.stdout.contains("header timestamp 18446744073709551615 is outside 2000–2100"), "\(inspect)")
    }

    @Test func everyOutOfRangeHeaderTimestampIsIgnored() throws {
        for value: UInt64 in [1 << 63, UInt64(Int64.max), 4_102_444_801, 1, 946_684_799] {
            let feed = try S.feed(timestamp: value, [])
            #expect(feed.headerTimestamp == nil, "\(value)")
            let inspection = try FeedInspection(
                feed: feed, source: "test", database: try Self.sample(), at: Date(timeIntervalSince1970: 1_795_611_600))
            #expect(inspection.ageSeconds == nil)
        }
        #expect(try S.feed(timestamp: 1_795_611_580, []).headerTimestamp == Date(timeIntervalSince1970: 1_795_611_580))
    }

    @Test func anAlertEndingAtTwoToTheSixtyFourIsOpenEnded() throws {
        let json = try Self.lookupJSON(Self.corpusFeed("alert-end-max.pb"))
        let alerts = try #require(json["alerts"] as? [[String: Any]])
        let alert = try #require(alerts.first { $0["id"] as? String == "a" }, "\(json)")
        #expect(alert["active_until"] == nil && alert["active_from"] == nil, "\(alert)")

        let feed = try RealtimeFeed.read(path: Self.corpusFeed("alert-end-max.pb"))
        #expect(feed.oddities["alert active_period bound outside 2000–2100 (read as open-ended)"] == 1)
        let inspect = try Programs.runKiosk([
            "rt", "inspect", Self.corpusFeed("alert-end-max.pb"), "--at", "2026-11-25T08:00",
        ])
        #expect(inspect.status == 0, "\(inspect)")
        #expect(inspect.stdout.contains("1 active now"), "\(inspect)")
    }

    @Test func delaysOfYearsAreIgnoredAndTheDepartureStays() throws {
        let json = try Self.lookupJSON(Self.corpusFeed("delays-ten-years.pb"))
        let departures = try #require(json["departures"] as? [[String: Any]])
        // TB-LAB-0-0740 leaves El Ejido at 08:03: its delay of ten years, and an absolute time of 2^63−1, say
        // nothing, so it stays on the board at its timetable time rather than vanishing into 2036.
        let trip = try #require(departures.first { $0["trip_id"] as? String == "TB-LAB-0-0740" }, "\(departures)")
        #expect((trip["time"] as? String)?.hasPrefix("2026-11-25T08:03") == true, "\(trip)")
        let realtime = trip["realtime"] as? [String: Any]
        #expect(realtime?["delay_seconds"] == nil, "\(trip)")

        let inspect = try Programs.runKiosk([
            "rt", "inspect", Self.corpusFeed("delays-ten-years.pb"), "--at", "2026-11-25T08:00",
        ])
        #expect(inspect.status == 0 && inspect.signal == nil, "\(inspect)")
        #expect(inspect.stdout.contains("times or delays are out of range"), "\(inspect)")
    }

    @Test func theMatcherCountsOutOfRangeTimesAndDelays() throws {
        let feed = try S.feed(
            timestamp: UInt64(S.epoch(8, 0)),
            [
                S.tripUpdate(
                    "T1",
                    [
                        S.stop(sequence: 10, departureDelay: 315_360_000),
                        S.stop(sequence: 20, departureTime: Int64.max),
                        S.stop(sequence: 30, departureTime: -1),
                        S.stop(sequence: 40, arrivalDelay: -86_401),
                    ])
            ])
        let live = S.matcher.match(feed, schedules: ["T1": S.trip("T1")], referenceTime: S.instant(8, 0))
        #expect(live.statistics.outOfRangeEvents == 4)
        let stops = try #require(live.liveTrips(id: "T1").first?.stops)
        #expect(stops.allSatisfy { $0.departureDelay == nil }, "\(stops)")

        let plausible = try S.feed(
            timestamp: UInt64(S.epoch(8, 0)), [S.tripUpdate("T1", [S.stop(sequence: 20, departureDelay: 86_400)])])
        let accepted = S.matcher.match(plausible, schedules: ["T1": S.trip("T1")], referenceTime: S.instant(8, 0))
        #expect(accepted.statistics.outOfRangeEvents == 0)
        #expect(accepted.liveTrips(id: "T1").first?.stops[1].departureDelay == 86_400)
    }

    @Test func aFeedKeepsAtMostFiftyThousandEntitiesWhicheverWayItIsDecoded() throws {
        // Empty entities (two bytes each: under the parallel decoder's threshold) and entities with an id and a
        // vehicle (over it): the same cap either way, counted.
        for withContent in [false, true] {
            var message = TransitRealtime_FeedMessage()
            message.header.gtfsRealtimeVersion = "2.0"
            message.header.timestamp = 1_795_611_580
            message.entity = (0..<(RealtimeFeed.maximumEntities + 7)).map { n in
                var entity = TransitRealtime_FeedEntity()
                if withContent {
                    entity.id = "vehicle-\(n)"
                    entity.vehicle.stopID = "S\(n)"
                }
                return entity
            }
            let bytes = try message.serializedData(partial: true)  // entity ids are required fields
            #expect((bytes.count >= 256 << 10) == withContent)
            let feed = try RealtimeFeed.decode(bytes)
            #expect(feed.contents.entities == RealtimeFeed.maximumEntities)
            #expect(feed.oddities["entities beyond the first 50000 left out"] == 7)
        }
    }

    @Test func aRepeatedTripUpdateReplacesTheEarlierOne() throws {
        let feed = try S.feed(
            timestamp: UInt64(S.epoch(8, 0)),
            (0..<1_000).map { n in S.tripUpdate("T1", [S.stop(sequence: 20, departureDelay: Int32(n))]) })
        let live = S.matcher.match(feed, schedules: ["T1": S.trip("T1")], referenceTime: S.instant(8, 0))
        #expect(live.liveTrips(id: "T1").count == 1)
        #expect(live.liveTrips(id: "T1").first?.stops[1].departureDelay == 999)
        #expect(live.statistics.duplicateTripUpdates == 999 && live.statistics.tripsMatched == 1_000)
    }

    // MARK: Many alerts

    @Test func aStopShowsAtMostFiveAlertsTheMostSevereAndSaysHowManyMore() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = 1_795_611_580
        message.entity = (0..<40).map { n in
            Self.alert("alert-\(n)", route: "EP-TB", text: "Notice \(n)", severity: n == 33 ? .severe : .info)
        }
        let path = S.temporaryDirectory("alerts").appendingPathComponent("forty.pb").path
        try message.serializedData().write(to: URL(fileURLWithPath: path))

        let json = try Self.lookupJSON(path)
        let alerts = try #require(json["alerts"] as? [[String: Any]])
        #expect(alerts.map { $0["id"] as? String } == ["alert-0", "alert-1", "alert-2", "alert-3", "alert-33"])
        #expect(json["alerts_not_shown"] as? Int == 35)

        let text = try Programs.runKiosk([
            "lookup", "MQ09", "--at", "2026-11-25T08:00", "--lang", "en", "--realtime", path,
        ])
        #expect(text.stdout.contains("  … and 35 more alerts"), "\(text)")
        let spanish = try Programs.runKiosk([
            "lookup", "MQ09", "--at", "2026-11-25T08:00", "--lang", "es", "--realtime", path,
        ])
        #expect(spanish.stdout.contains("  … y 35 avisos más"), "\(spanish)")
        let speech = try Programs.runKiosk([
            "lookup", "MQ09", "--at", "2026-11-25T08:00", "--lang", "en", "--realtime", path, "--print-speech",
        ])
        #expect(speech.stdout.contains("38 more alerts") || speech.stdout.contains("thirty-eight more alerts"), "\(speech)")
    }

    @Test func aFeedKeepsAtMostAThousandAlertsAndAThousandSelectorsEach() throws {
        var entities = (0..<1_005).map { n in
            var entity = TransitRealtime_FeedEntity()
            entity.id = "a\(n)"
            var selector = TransitRealtime_EntitySelector()
            selector.stopID = "C"
            entity.alert.informedEntity = [selector]
            return entity
        }
        var selector = TransitRealtime_EntitySelector()
        selector.stopID = "C"
        entities[0].alert.informedEntity = Array(repeating: selector, count: 1_200)
        let index = AlertIndex(feed: try S.feed(timestamp: UInt64(S.epoch(8, 0)), entities))
        #expect(index.entries.count == 1_000 && index.alertsLeftOut == 5)
        #expect(index.entries[0].alert.informedEntity.count == 1_000 && index.informedEntitiesLeftOut == 200)
        #expect(
            index.oddities == [
                "5 alerts beyond the first 1000 were left out",
                "200 informed entities beyond 1000 per alert were left out",
            ])
    }

    @Test func alertTextsAreCutToAParagraph() throws {
        let entity = Self.alert("long", stop: "C", text: String(repeating: "á", count: 100_000))
        let index = AlertIndex(feed: try S.feed(timestamp: UInt64(S.epoch(8, 0)), [entity]))
        var scope = AlertIndex.Scope(
            view: StopView(
                stop: S.stopInfo("C"), platforms: [S.stopInfo("C")], at: S.instant(8, 0), windowMinutes: 60,
                timeZone: "America/Guayaquil", serviceDate: "2026-03-02", routes: [], departures: [],
                serviceSpans: [], nextDeparture: nil, nearby: [], nearbyRadiusMeters: 0),
            routes: [:], agencyIDs: [])
        scope.stopIDs = ["C"]
        let shown = index.select(for: scope, routes: [:], at: S.instant(8, 0), language: "es").shown
        #expect(shown.first?.header.count == AlertIndex.maximumTextLength)
        #expect(shown.first?.header.hasSuffix("…") == true)
    }

    /// An alert entity on one route or stop, with an English header.
    static func alert(
        _ id: String, route: String? = nil, stop: String? = nil, text: String,
        severity: TransitRealtime_Alert.SeverityLevel = .unknownSeverity
    ) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        var selector = TransitRealtime_EntitySelector()
        if let route { selector.routeID = route }
        if let stop { selector.stopID = stop }
        entity.alert.informedEntity = [selector]
        var translation = TransitRealtime_TranslatedString.Translation()
        translation.text = text
        translation.language = "en"
        entity.alert.headerText.translation = [translation]
        entity.alert.severityLevel = severity
        return entity
    }

    static let sampleDatabase = Result { try S.importDatabase(Repository.sampleNetwork) }
    static func sample() throws -> RouteDatabase { try sampleDatabase.get() }
}
