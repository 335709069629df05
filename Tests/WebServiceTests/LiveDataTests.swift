import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Logging
import Realtime
import SampleData
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// Live data on the web: the API, the phone page and `/kiosk` show what `kiosk lookup --realtime` and the terminal
/// kiosk show, from the sample network's realtime scenario (a delay of 4 minutes, a cancelled trip, an alert).
struct LiveDataTests {
    /// A service polling the scenario file, with its clock at the scenario's instant; returns once the first poll
    /// has landed (however long reading the local file takes on a loaded machine: no time limit).
    static func liveService(feed: String = SampleData.realtimeScenario.path) async throws -> WebService {
        var config = KioskConfig()
        config.realtime = RealtimeSettings(tripUpdates: feed, alerts: feed, pollSeconds: 100)
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        let polling = LiveFeedPolling()
        let now = TestSupport.morning
        // `changed` is called after each poll, once its data is in place.
        let (polls, pollLanded) = AsyncStream.makeStream(of: Void.self)
        polling.start(
            settings: config.realtime, database: databases.current(), clock: { now }, changed: { pollLanded.yield() })
        var landed = polls.makeAsyncIterator()
        _ = await landed.next()
        try #require(polling.live?.hasTripUpdatesFeed == true, "the scenario's trip updates were not read")
        var logger = Logger(label: "test.web.live")
        logger.logLevel = .critical
        return try WebService(config: config, databases: databases, logger: logger, now: { now }, live: polling)
    }

    /// Issue 23: the poll's data reaches plans as it arrives. `kiosk serve` calls `prepareLivePlans` after each
    /// poll; the overlay plans use is then published before any plan asks for it.
    @Test func aPollsDataIsReadyForPlansBeforeThePlanAsks() async throws {
        let service = try await Self.liveService()
        service.prepareLivePlans()
        let overlay = try #require(try service.preparedLiveOverlay(), "no live overlay published after the poll")
        #expect(overlay.carriesLiveData)
    }

    @Test func theAPIIsLookupWithRealtimeByteForByte() async throws {
        let lookup = try Programs.runKiosk([
            "lookup", "2010", "--at", SampleData.realtimeScenarioInstant, "--json", "--realtime",
            SampleData.realtimeScenario.path, "--db", TestSupport.sampleDatabase,
        ])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        #expect(lookup.stdout.contains(#""state" : "updated""#) && lookup.stdout.contains(#""alerts" : ["#))
        try await TestSupport.withRouter(try await Self.liveService()) { client in
            try await client.execute(
                uri: "/api/v1/stops/2010?at=\(SampleData.realtimeScenarioInstant)", method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == lookup.stdout)
            }
        }
    }

    @Test func phonePageAndKioskBoardMarkLiveCancelledAndAlerts() async throws {
        try await TestSupport.withRouter(try await Self.liveService()) { client in
            // The phone page's rows and the board's (grouped by route and destination: a cancelled time is struck
            // through in its row, marked ✕) and their alerts (a list on the phone, a line that pages on the board).
            let pages = [
                ("/s/2010?lang=es", #"<span class="t canceled">"#, "⚠ <bdi>Trolebús: demoras por obras"),
                ("/kiosk/board?stop=2010&lang=es", #"t-canceled" title="08:10 ✕ cancelado"#,
                 #"<bdi class="alert-text">Trolebús: demoras por obras"#),
            ]
            for (uri, canceled, alert) in pages {
                try await client.execute(uri: uri, method: .get) { response in
                    let page = String(buffer: response.body)
                    #expect(response.status == .ok, "\(uri)")
                    #expect(page.contains("● en vivo +4 min (programado "), "\(uri): \(page)")
                    #expect(page.contains(canceled) && page.contains("✕"), "\(uri): \(page)")
                    #expect(page.contains("○ horario"), "\(uri)")
                    #expect(page.contains("Avisos") && page.contains(alert), "\(uri): \(page)")
                }
            }
        }
    }

    /// A feed with 40 alerts on the trolleybus: five are listed (the severe one among them), then "and 35 more".
    @Test func pagesListFiveAlertsAndSayHowManyMore() async throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = UInt64(TestSupport.morning.timeIntervalSince1970)
        message.entity = (0..<40).map { n in
            var entity = TransitRealtime_FeedEntity()
            entity.id = "alert-\(n)"
            var selector = TransitRealtime_EntitySelector()
            selector.routeID = "EP-TB"
            entity.alert.informedEntity = [selector]
            var text = TransitRealtime_TranslatedString.Translation()
            text.text = "Aviso número \(n)"
            entity.alert.headerText.translation = [text]
            entity.alert.severityLevel = n == 33 ? .severe : .info
            return entity
        }
        let feed = TemporaryFolder.make("alerts").appendingPathComponent("forty.pb")
        try message.serializedData().write(to: feed)
        try await TestSupport.withRouter(try await Self.liveService(feed: feed.path)) { client in
            for uri in ["/s/2010?lang=es", "/kiosk/board?stop=2010&lang=es", "/s/2010?lang=en"] {
                try await client.execute(uri: uri, method: .get) { response in
                    let page = String(buffer: response.body)
                    #expect(response.status == .ok, "\(uri)")
                    let listed = page.components(separatedBy: "Aviso número ").count - 1
                    #expect(listed == 5, "\(uri): \(listed) alerts listed")
                    #expect(page.contains("Aviso número 33"), "\(uri)")
                    #expect(
                        page.contains(uri.hasSuffix("en") ? "… and 35 more alerts" : "… y 35 avisos más"),
                        "\(uri): \(page)")
                }
            }
        }
    }

    @Test func withoutLiveDataTheBoardCarriesNoLiveMarks() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/2010?lang=es", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(!page.contains("en vivo") && !page.contains("Avisos") && !page.contains("class=\"live\""))
            }
        }
    }
}
