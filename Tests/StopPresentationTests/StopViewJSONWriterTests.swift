import Foundation
import KioskTesting
import SampleData
import Testing
import TransitModel
import TransitStore

@testable import StopPresentation

/// The stop view's direct JSON writer against the reference, Foundation's encoder (`KioskJSON.encode`): the same
/// bytes for every stop of the sample network through a day, for views with every optional field set and unset,
/// and for random views whose texts carry what needs escaping.
@Suite struct StopViewJSONWriterTests {
    static func reference(_ view: StopView) throws -> String {
        try KioskJSON.encode(
            view, timeZone: TimeZone(identifier: view.timeZone) ?? .current, keysDeclaredInSnakeCase: true)
    }

    static func expectSameBytes(_ view: StopView, _ context: String) throws {
        let direct = StopViewJSONWriter.render(view)
        let expected = try reference(view)
        guard direct != expected else { return }
        let prefix = zip(direct, expected).prefix { $0 == $1 }.count
        Issue.record(
            "\(context): the direct JSON differs from the encoder's after \(prefix) characters:\nencoder: …\(expected.dropFirst(max(0, prefix - 80)).prefix(200))\ndirect:  …\(direct.dropFirst(max(0, prefix - 80)).prefix(200))"
        )
    }

    @Test func everyStopOfTheSampleNetworkThroughADay() throws {
        let path = TemporaryFolder.make("json-writer").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: SampleData.sampleNetworkFeed.path, databasePath: path).run()
        let db = try RouteDatabase(path: path)
        var views = 0
        for stopID in try db.boardingStopIDs() {
            let stop = try db.resolveStop(.id(stopID))
            for clock in ["2026-11-25T05:10", "2026-11-25T08:00", "2026-11-25T23:50", "2026-11-29T13:00"] {
                let view = try db.stopView(
                    for: stop, at: try #require(LocalTime.parse(clock, in: db.timeZone)), windowMinutes: 60,
                    nearbyRadiusMeters: 400)
                try Self.expectSameBytes(view, "stop \(stop) at \(clock)")
                views += 1
            }
        }
        #expect(views > 100)
    }

    /// A database of two feeds (the sample network twice, `a` and `b`, every id colliding): each view names the
    /// feed of its stops, routes and trips (`feed_id`), the same bytes as the encoder's.
    @Test func everyStopOfATwoFeedDatabase() throws {
        let path = TemporaryFolder.make("json-writer-feeds").appendingPathComponent("routes.sqlite").path
        let feeds = ["a", "b"].map { FeedInput(id: $0, path: SampleData.sampleNetworkFeed.path) }
        _ = try GTFSImporter(feeds: feeds, databasePath: path).run()
        let db = try RouteDatabase(path: path)
        let at = try #require(LocalTime.parse("2026-11-25T08:00", in: db.timeZone))
        var views = 0
        for stopID in try db.boardingStopIDs() {
            let view = try db.stopView(
                for: try db.resolveStop(.id(stopID)), at: at, windowMinutes: 60, nearbyRadiusMeters: 400)
            try Self.expectSameBytes(view, "stop \(stopID)")
            // Each id beside the feed it names (a view may cover platforms of several feeds at one place).
            let feed = { (id: String) in db.namespaces.feedID(of: id) }
            #expect(view.stop.feedID != nil && view.stop.feedID == feed(stopID))
            #expect(view.platforms.allSatisfy { $0.feedID != nil && $0.feedID == feed($0.id) })
            #expect(
                view.departures.allSatisfy {
                    $0.feedID != nil && $0.feedID == feed($0.tripID) && $0.feedID == feed($0.stopID)
                        && $0.route.feedID == feed($0.route.id)
                })
            #expect(view.serviceSpans.allSatisfy { $0.route.feedID != nil && $0.route.feedID == feed($0.route.id) })
            #expect(view.nearby.allSatisfy { $0.stop.feedID != nil && $0.stop.feedID == feed($0.stop.id) })
            views += 1
        }
        #expect(views > 100)
        // Where stops of the two feeds are the same place, each is the other's nearby stop, named with its feed.
        let station = try db.stopView(
            for: try db.resolveStop(.id("a:MQ09A")), at: at, windowMinutes: 60, nearbyRadiusMeters: 400)
        let here = station.platforms.map(\.id) + station.nearby.map(\.stop.id)
        #expect(here.contains("a:MQ09A") && here.contains("b:MQ09A"), "\(here)")
        #expect(!station.departures.isEmpty && !station.serviceSpans.isEmpty)
        let json = StopViewJSONWriter.render(station)
        #expect(json.contains(#""feed_id" : "a""#) && json.contains(#""feed_id" : "b""#))
    }

    /// A database of one feed names no feed: not a `feed_id` key anywhere.
    @Test func oneFeedNamesNoFeed() throws {
        let db = try RouteDatabase(path: try SampleNetwork.databasePath())
        let at = try #require(LocalTime.parse("2026-11-25T08:00", in: db.timeZone))
        for stopID in try db.boardingStopIDs().prefix(20) {
            let view = try db.stopView(
                for: try db.resolveStop(.id(stopID)), at: at, windowMinutes: 60, nearbyRadiusMeters: 400)
            #expect(!StopViewJSONWriter.render(view).contains("feed_id"), "stop \(stopID)")
        }
    }

    @Test(arguments: [false, true]) func everyOptionalFieldSetOrUnset(set: Bool) throws {
        var random = SplitMix64(seed: set ? 1 : 2)
        let view = Self.randomView(&random, everyOptional: set)
        try Self.expectSameBytes(view, "every optional field \(set ? "set" : "unset")")
    }

    @Test func randomViewsWithTextsThatNeedEscaping() throws {
        let seed: UInt64 = 20_261_125
        var random = SplitMix64(seed: seed)
        for iteration in 0..<300 {
            try Self.expectSameBytes(Self.randomView(&random, everyOptional: nil), "seed \(seed), view \(iteration)")
        }
    }

    // MARK: Random views

    /// Scalars a feed's texts may hold: plain letters, JSON's escapes, C0 and C1 controls, bidirectional
    /// overrides, accents, emoji, a slash.
    static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}",
        "\u{85}", "\u{9B}", "\u{200E}", "\u{2028}", "\u{202E}", "\u{2066}", "é", "ñ", "ü", "中", "😀", "\u{FEFF}",
    ]

    static func text(_ random: inout SplitMix64) -> String {
        var out = String.UnicodeScalarView()
        for _ in 0..<random.int(0...12) { out.append(scalars[random.int(0...scalars.count - 1)]) }
        return String(out)
    }

    static func maybe<T>(_ random: inout SplitMix64, _ everyOptional: Bool?, _ make: (inout SplitMix64) -> T) -> T? {
        switch everyOptional {
        case true?: make(&random)
        case false?: nil
        case nil: random.chance(0.5) ? make(&random) : nil
        }
    }

    static func date(_ random: inout SplitMix64) -> Date {
        // Around now, on either side of a daylight-saving change of the zones below.
        Date(timeIntervalSince1970: Double(1_790_000_000 + random.int(-40_000_000...40_000_000)))
    }

    static func coordinate(_ random: inout SplitMix64) -> Double {
        let choices: [Double] = [0, 1, -0.5, 54.687_2, 25.279_7, -33.456_789_123_4, 1e-5, 179.999_999_9, -90]
        return random.chance(0.5)
            ? choices[random.int(0...choices.count - 1)] : Double(random.int(-180_000_000...180_000_000)) / 1e6
    }

    static func stop(_ random: inout SplitMix64, _ all: Bool?) -> StopInfo {
        StopInfo(
            id: text(&random), code: maybe(&random, all, text), name: text(&random),
            parentStationID: maybe(&random, all, text), parentStationName: maybe(&random, all, text),
            platformCode: maybe(&random, all, text),
            wheelchairBoarding: [.unknown, .accessible, .notAccessible][random.int(0...2)],
            latitude: maybe(&random, all, coordinate), longitude: maybe(&random, all, coordinate),
            locationType: random.int(0...2), feedID: maybe(&random, all, text))
    }

    static func route(_ random: inout SplitMix64, _ all: Bool?) -> RouteInfo {
        RouteInfo(
            id: text(&random), shortName: maybe(&random, all, text), longName: maybe(&random, all, text),
            mode: RouteMode.allCases[random.int(0...RouteMode.allCases.count - 1)],
            color: maybe(&random, all) { _ in "00FF7A" }, textColor: maybe(&random, all) { _ in "FFFFFF" },
            agency: text(&random), feedID: maybe(&random, all, text))
    }

    static func list<T>(_ random: inout SplitMix64, _ all: Bool?, _ make: (inout SplitMix64) -> T) -> [T] {
        (0..<(all == false ? 0 : random.int(0...3))).map { _ in make(&random) }
    }

    static func departure(_ random: inout SplitMix64, _ all: Bool?) -> Departure {
        let states: [DepartureRealtime.State] = [.scheduled, .updated, .canceled, .skipped, .added]
        var departure = Departure(
            route: route(&random, all), headsign: text(&random), directionID: maybe(&random, all) { $0.int(0...1) },
            time: date(&random), minutesFromNow: random.int(-5...1_500), tripID: text(&random),
            serviceDate: "2026-11-25", scheduledTime: "25:10:00",
            wheelchairAccessible: [.unknown, .accessible, .notAccessible][random.int(0...2)],
            stopID: text(&random), platformCode: maybe(&random, all, text), approximate: random.chance(0.5),
            realtime: maybe(&random, all) { random in
                DepartureRealtime(
                    state: states[random.int(0...states.count - 1)],
                    delaySeconds: maybe(&random, all) { $0.int(-600...3_600) },
                    predictedTime: maybe(&random, all, date))
            })
        departure.feedID = maybe(&random, all, text)
        return departure
    }

    static func randomView(_ random: inout SplitMix64, everyOptional all: Bool?) -> StopView {
        let zones = ["America/Guayaquil", "Europe/Vilnius", "America/Los_Angeles", "Asia/Kolkata", "UTC"]
        var view = StopView(
            stop: stop(&random, all), platforms: list(&random, all) { stop(&$0, all) }, at: date(&random),
            windowMinutes: random.int(1...240), timeZone: zones[random.int(0...zones.count - 1)],
            serviceDate: "2026-11-25",
            routes: list(&random, all) { random in
                RouteAtStop(
                    route: route(&random, all),
                    directions: list(&random, all) { random in
                        RouteAtStop.Direction(
                            directionID: maybe(&random, all) { $0.int(0...1) },
                            headsigns: list(&random, all, text))
                    })
            },
            departures: list(&random, all) { departure(&$0, all) },
            serviceSpans: list(&random, all) { random in
                ServiceSpan(
                    route: route(&random, all), directionID: maybe(&random, all) { $0.int(0...1) },
                    headsigns: list(&random, all, text), first: date(&random), last: date(&random))
            },
            nextDeparture: maybe(&random, all) { departure(&$0, all) },
            nearby: list(&random, all) { random in
                NearbyStop(
                    stop: stop(&random, all), distanceMeters: random.int(0...2_000),
                    direction: CompassPoint.allCases[random.int(0...7)], routes: list(&random, all, text))
            },
            nearbyRadiusMeters: random.int(0...1_000),
            alerts: maybe(&random, all) { random in
                list(&random, all) { random in
                    StopAlert(
                        id: text(&random), header: text(&random), description: maybe(&random, all, text),
                        url: maybe(&random, all) { _ in "https://example.org/a/b?c=d&e=f" },
                        language: maybe(&random, all) { _ in "es-EC" }, cause: "medical_emergency",
                        effect: "significant_delays", severity: "severe", scope: "stop",
                        activeFrom: maybe(&random, all, date), activeUntil: maybe(&random, all, date))
                }
            },
            realtimeAgeSeconds: maybe(&random, all) { $0.int(0...10_000) })
        view.alertsNotShown = maybe(&random, all) { $0.int(1...50) }
        view.realtimeStatus = maybe(&random, all) { [LiveDataStatus.live, .stale, .withheld][$0.int(0...2)] }
        view.realtimeUnavailableSince = maybe(&random, all, date)
        return view
    }
}
