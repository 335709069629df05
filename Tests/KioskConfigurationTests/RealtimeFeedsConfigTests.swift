import Foundation
import Testing
import TransitModel

@testable import KioskConfiguration

/// `[[realtime.feeds]]` (issue 24): one table per realtime publisher, each naming the static feed of the route
/// database its ids belong to; `[realtime]` alone stays as it was.
@Suite struct RealtimeFeedsConfigTests {
    static func parse(_ text: String) throws(KioskConfigError) -> RealtimeSettings {
        try KioskConfigFile.parse(text, file: "k.toml").realtime
    }

    static func problem(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "(accepted)"
        } catch {
            return error.description
        }
    }

    @Test func severalPublishersShareThePollIntervalAndMode() throws {
        let settings = try Self.parse(
            """
            [realtime]
            poll_seconds = 20
            mode = "online"
            alerts = "/var/lib/stopkiosk/messages.pb"
            [[realtime.feeds]]
            feed = "mx-metro"
            trip_updates = "https://metro.example/tu"
            alerts = ["https://metro.example/alerts"]
            headers = { "x-api-key" = "m" }
            [[realtime.feeds]]
            feed = "buses"
            vehicle_positions = "/var/lib/stopkiosk/vp.pb"
            trip_updates = "https://buses.example/tu"
            """)
        #expect(settings.pollSeconds == 20 && settings.mode == .online)
        #expect(settings.feeds.map(\.feed) == ["mx-metro", "buses"])
        #expect(settings.feeds.map(\.key) == ["realtime.feeds[0]", "realtime.feeds[1]"])
        #expect(settings.feeds[0].headers == ["x-api-key": "m"] && settings.feeds[1].headers.isEmpty)
        #expect(settings.feeds[1].vehiclePositions == "/var/lib/stopkiosk/vp.pb")
        // [realtime]'s own alerts (the staff messages file) come first, read with the database's own ids.
        #expect(settings.publishers.map(\.feed) == [nil, "mx-metro", "buses"])
        #expect(settings.hasFeeds && settings.hasTripUpdates)
    }

    @Test func onePublisherMayNameItsFeedAndOtherwiseReadsAsBefore() throws {
        let named = try Self.parse("[realtime]\nfeed = \"quito\"\ntrip_updates = \"/tu.pb\"\n")
        #expect(named.feed == "quito" && named.publishers.map(\.feed) == ["quito"])
        let plain = try Self.parse("[realtime]\ntrip_updates = \"/tu.pb\"\n")
        #expect(plain.feed == nil && plain.feeds.isEmpty && plain.tripUpdates == "/tu.pb")
        #expect(plain.publishers == [RealtimeFeedSources(tripUpdates: "/tu.pb")])
    }

    @Test(arguments: [
        (
            "[realtime]\n[[realtime.feeds]]\ntrip_updates = \"/a.pb\"\n",
            "k.toml: realtime.feeds[0].feed: is missing: name the static feed"
        ),
        (
            "[realtime]\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_updates = \"/a.pb\"\n[[realtime.feeds]]\nfeed = \"b\"\n",
            "k.toml: realtime.feeds[1]: gives no source"
        ),
        (
            "[realtime]\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_updates = \"/a.pb\"\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_updates = \"/b.pb\"\n",
            "k.toml: realtime.feeds[1].feed: \"a\" is already realtime.feeds[0]'s"
        ),
        (
            "[realtime]\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_update = \"/a.pb\"\n",
            "k.toml: realtime.feeds[0].trip_update: unknown key (known in [[realtime.feeds]]: feed, trip_updates"
        ),
        (
            "[realtime]\n[[realtime.feeds]]\nfeed = \"metro lines\"\ntrip_updates = \"/a.pb\"\n",
            "k.toml: realtime.feeds[0].feed: \"metro lines\" is not a feed id"
        ),
        (
            "[realtime]\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_updates = \"ftp://x/a.pb\"\n",
            "k.toml: realtime.feeds[0].trip_updates: \"ftp://x/a.pb\" is neither a file path nor an http"
        ),
        (
            "[realtime]\ntrip_updates = \"/t.pb\"\n[[realtime.feeds]]\nfeed = \"a\"\ntrip_updates = \"/a.pb\"\n",
            "k.toml: realtime.trip_updates: with [[realtime.feeds]], give trip_updates in the table"
        ),
        (
            "[realtime]\nfeed = \"a\"\n[[realtime.feeds]]\nfeed = \"b\"\ntrip_updates = \"/a.pb\"\n",
            "k.toml: realtime.feed: with [[realtime.feeds]], name each feed in its own table"
        ),
        (
            "[realtime]\nfeeds = \"a\"\n",
            "k.toml: realtime.feeds: must be one [[realtime.feeds]] table per realtime publisher"
        ),
        (
            "[realtime]\nmode = \"online\"\n[[realtime.feeds]]\nfeed = \"a\"\nalerts = \"/a.pb\"\n",
            "k.toml: realtime.mode: \"online\" shows only live departures and needs trip_updates"
        ),
    ])
    func badTablesNameTheKey(text: String, message: String) {
        let problem = Self.problem(text)
        #expect(problem.hasPrefix(message), "\(problem)")
    }
}
