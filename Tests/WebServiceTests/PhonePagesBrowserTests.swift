import Foundation
import KioskTesting
import Testing

/// The phone pages in headless Chromium at 390×844, 768×1024 and 1280×800 (`kiosk/tests/web/phone_pages_check.py`,
/// measured by `layout_checks.py`): the stop page, the plan page (a timeline, a name to choose, step-free), the
/// route and stop timetables — no sideways scrolling, no overlapping or cut text, no wrapped button label, text of
/// 12 px or more, axe-core without violations, the departures first with a destination on every row, the radio
/// buttons and box switched by keyboard, the timetable's stop column in place while the times scroll. On the
/// sample network and on two large real feeds from ../shared/data (carta, Chattanooga; vilnius). Screenshots are
/// kept in `.build/artefacts/web-phone/`.
@Suite(.serialized) struct PhonePagesBrowserTests {
    static let carta = SharedData.folder?.appendingPathComponent("gtfs/carta.zip")
    static let cartaAvailable = carta.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    static let vilnius = SharedData.folder?.appendingPathComponent("gtfs/vilnius.zip")
    static let vilniusAvailable = vilnius.map { FileManager.default.fileExists(atPath: $0.path) } ?? false

    static func check(base: String, pages: String, artefacts: String) throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let script = Repository.root.appendingPathComponent("kiosk/tests/web/phone_pages_check.py").path
        let result = try Programs.run(python, [script, base, artefacts, pages], limit: 900)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(" 0 failures") || result.stdout.hasPrefix("0 failures"), "\(result.stdout)")
    }

    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func thePhonePagesOfTheSampleNetwork() throws {
        let (server, base) = try TestSupport.startServer(
            ["demo", "--web", "--port", "0", "--lang", "en"], limit: 300)
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk demo --web did not start: \(server.output)")
        let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web-phone/sample").path
        try Self.check(
            base: url,
            pages: #"{"name": "sample", "stop": "/s/1091", "plan": "/plan?from=1091&to=Cumbay%C3%A1", "#
                + #""choose": "/plan?from=1091&to=El", "route_timetable": "/r/MQ-L1/timetable"}"#,
            artefacts: artefacts)
        for shot in [
            "sample-stop-390.png", "sample-plan-390.png", "sample-plan-choose-390.png",
            "sample-route-timetable-scrolled-390.png", "sample-stop-timetable-1280.png",
        ] {
            #expect(FileManager.default.fileExists(atPath: artefacts + "/" + shot), "\(shot)")
        }
    }

    /// Imports `feed` into a temporary database, serves it at `at` and checks its pages.
    static func checkRealFeed(_ feed: URL, name: String, at: String, pages: String) throws {
        let database = TemporaryFolder.make("phone-\(name)").appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", feed.path, "--db", database])
        try #require(imported.status == 0, "\(imported.stderr)")
        let (server, base) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", database, "--at", at], limit: 300)
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk serve did not start: \(server.output)")
        let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web-phone/\(name)").path
        try check(base: url, pages: pages, artefacts: artefacts)
    }

    @Test(
        .enabled(
            if: cartaAvailable, "../shared/data/gtfs/carta.zip is absent: the check on a large real feed is skipped"),
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func thePhonePagesOfCarta() throws {
        // The feed's calendar runs 2026-08-19 to 2026-08-22: a Thursday morning inside it. Carter & Hotel Bo (three
        // routes), a plan across town, "airport" (two stops on Airport Road), route 4 (timing points only).
        try Self.checkRealFeed(
            try #require(Self.carta), name: "carta", at: "2026-08-20T08:00",
            pages: #"{"name": "carta", "stop": "/s/1433", "plan": "/plan?from=1433&to=3058", "#
                + #""choose": "/plan?from=1433&to=airport", "route_timetable": "/r/4/timetable"}"#)
    }

    @Test(
        .enabled(
            if: vilniusAvailable,
            "../shared/data/gtfs/vilnius.zip is absent: the check on a large real feed is skipped"),
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func thePhonePagesOfVilnius() throws {
        // 2016-08-29 to 2016-09-01. Žaliasis tiltas (two stops of that name, 13 routes), stop IDs without codes, and
        // trips marked wheelchair accessible but no stop: step-free says the data does not tell.
        try Self.checkRealFeed(
            try #require(Self.vilnius), name: "vilnius", at: "2016-08-30T08:00",
            pages: #"{"name": "vilnius", "stop": "/s/5245", "plan": "/plan?from=5245&to=5338", "#
                + #""choose": "/plan?from=5245&to=%C5%BDaliasis", "route_timetable": "/r/vilnius_bus_2/timetable", "#
                + #""step_free_unknown": true}"#)
    }
}
