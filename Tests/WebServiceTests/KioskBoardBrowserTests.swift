import Foundation
import KioskTesting
import SampleData
import Testing
import TransitStore

/// `/kiosk` as a fixed display (issue 37), in a real browser: headless Chromium through chromium-driver and Selenium
/// (`kiosk/tests/web/kiosk_board_check.py`, measuring with `layout_checks.py`) at 1280×800, 1920×1080, 1080×1920 and
/// 800×480: the page never scrolls, no text overlaps another or is cut, no button label wraps, text is legible and
/// the times at least 28 px at 1280×800, the stop, clock, scan prompt and buttons always on the screen, the rows
/// grouped by route and destination and paging on their own when they do not fit, a severe message shown once,
/// axe-core without a violation; and the on-screen planner used with its own keys. Screenshots are kept in
/// `.build/artefacts/web/board/`. Every wait polls a condition with a bound; no wall-clock assertion.
@Suite struct KioskBoardBrowserTests {
    static let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web/board").path
    static let script = Repository.root.appendingPathComponent("kiosk/tests/web/kiosk_board_check.py").path

    /// Each page the script loads opens an event stream that the server holds until its next heartbeat: more than
    /// the default four from one address while the script goes from size to size.
    static let serverSettings = """
        [server]
        max_event_streams_per_address = 200
        max_event_streams = 400
        """

    static func check(_ base: String, _ arguments: [String]) throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let result = try Programs.run(python, [script, base, artefacts] + arguments, limit: 1200)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").last?.hasPrefix("0 failures") == true, "\(result.stdout)")
    }

    /// `kiosk serve` on the sample network at 08:00 on a service day, its recorded live data (live times, a
    /// cancellation, the agency's alert) and `extra` in `[realtime]` alerts; home stop El Ejido.
    static func sampleServer(_ name: String, extraAlerts: [String] = []) throws -> (RunningProgram, String) {
        let scenario = SampleData.realtimeScenario.path
        let config = TemporaryFolder.make(name).appendingPathComponent("kiosk.toml")
        try """
        language = "en"
        home_stop = "1091"
        \(Self.serverSettings)
        [realtime]
        trip_updates = "\(scenario)"
        alerts = [\(([scenario] + extraAlerts).map { "\"\($0)\"" }.joined(separator: ", "))]
        poll_seconds = 5
        """.write(to: config, atomically: true, encoding: .utf8)
        let (server, base) = try TestSupport.startServer(
            [
                "serve", "--port", "0", "--db", TestSupport.sampleDatabase, "--config", config.path, "--scan-source",
                "off", "--at", SampleData.realtimeScenarioInstant,
            ], limit: 300)
        guard let base else {
            server.signal(SIGTERM)
            _ = server.wait(limit: 60)
            throw TestFailure("kiosk serve did not start: \(server.output)")
        }
        return (server, base)
    }

    /// `kiosk serve` at `instant` on `../shared/data/gtfs/NAME.zip`, imported into a temporary database, with the
    /// feed's twenty busiest stops (the check picks the busiest with departures in view).
    static func serveSharedFeed(_ name: String, at instant: String) throws -> (RunningProgram, String, [String]) {
        let feed = try #require(SharedData.folder).appendingPathComponent("gtfs/\(name).zip")
        try #require(FileManager.default.fileExists(atPath: feed.path), "\(feed.path) is missing")
        let path = TemporaryFolder.make("kiosk-board-\(name)").appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", feed.path, "--db", path, "--progress", "off"])
        try #require(imported.status == 0, "\(imported)")
        let candidates = try RouteDatabase(path: path).busiestStopIDs(limit: 20)
        try #require(!candidates.isEmpty, "no stops in \(feed.path)")
        let config = TemporaryFolder.make("kiosk-board-\(name)-config").appendingPathComponent("kiosk.toml")
        try (Self.serverSettings + "\n").write(to: config, atomically: true, encoding: .utf8)
        let (server, base) = try TestSupport.startServer(
            [
                "serve", "--port", "0", "--db", path, "--config", config.path, "--scan-source", "off", "--at", instant,
            ], limit: 300)
        guard let base else {
            server.signal(SIGTERM)
            _ = server.wait(limit: 60)
            throw TestFailure("kiosk serve did not start: \(server.output)")
        }
        return (server, base, candidates)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The sample network with live data: the home board (El Ejido), another stop's board, and the planner from
    /// El Ejido to Cumandá typed as C-U-M on the screen's keys.
    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func theSampleNetworksBoardFitsEveryPanel() throws {
        let (server, url) = try Self.sampleServer("kiosk-board-sample")
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        try Self.check(url, ["sample", "--plan=CUM", "-", "MQ12A"])
    }

    /// A severe staff message for every kiosk: the band takes the screen once (not again among the alerts), two
    /// milder ones share the alerts line, which pages, and the board still fits at every size, on the home board and
    /// on another stop's, and in Spanish (longer words).
    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func aSevereMessageTakesTheScreenOnce() throws {
        let folder = TemporaryFolder.make("kiosk-board-takeover")
        let messages = folder.appendingPathComponent("messages.pb").path
        let added = try Programs.runKiosk([
            "message", "add", "--id", "strike", "--all", "--severity", "severe", "--text-es",
            "Huelga: no hay servicio de trolebús hasta nuevo aviso", "--text-en",
            "Strike: no trolleybus service until further notice", "--out", messages, "--db",
            TestSupport.sampleDatabase,
        ])
        try #require(added.status == 0, "\(added.stdout)\(added.stderr)")
        // Two milder messages: they share the alerts line, which pages between them.
        for (id, es, en) in [
            ("fares", "Tarifas nuevas desde el lunes en todas las líneas", "New fares from Monday on every line"),
            ("lift", "El ascensor de la estación está en mantenimiento", "The station's lift is being repaired"),
        ] {
            let info = try Programs.runKiosk([
                "message", "add", "--id", id, "--all", "--severity", "info", "--text-es", es, "--text-en", en, "--out",
                messages, "--db", TestSupport.sampleDatabase,
            ])
            try #require(info.status == 0, "\(info.stdout)\(info.stderr)")
        }
        let (server, url) = try Self.sampleServer("kiosk-board-takeover-config", extraAlerts: [messages])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        try Self.check(url, ["takeover", "--takeover", "-", "MQ12A"])
        try Self.check(url, ["takeover-es", "--takeover", "--lang=es", "MQ12A"])
    }

    /// An English US feed (CARTA, Chattanooga): its busiest stop's board, with the feed's route colours (a badge's
    /// text is bold and at least 19 px, large text by WCAG, so the feed's pairs pass axe's contrast rule).
    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"),
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func aUSFeedsBoardFitsEveryPanel() throws {
        let (server, url, candidates) = try Self.serveSharedFeed("carta", at: "2026-08-19T08:00")
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        try Self.check(url, ["carta", "--pick-busiest"] + candidates)
    }

    /// A large real feed (Vilnius, 2016): the busiest of its stops shows at least eight grouped rows at 1280×800
    /// and pages the rest, in English and in Spanish; the scan prompt (no home stop) fits too.
    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"),
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func aBusyStopOfALargeFeedFillsTheBoardAndPages() throws {
        let (server, url, candidates) = try Self.serveSharedFeed("vilnius", at: "2016-03-02T08:00")
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        try Self.check(url, ["vilnius", "--busy", "--pick-busiest"] + candidates)
        try Self.check(url, ["vilnius-prompt", "-"])
        try Self.check(url, ["vilnius-es", "--lang=es", "--pick-busiest"] + candidates)
    }
}
