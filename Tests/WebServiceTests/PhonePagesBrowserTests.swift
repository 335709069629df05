import Foundation
import KioskTesting
import Testing

/// The phone pages in headless Chromium at 390×844, 768×1024 and 1280×800 (`kiosk/tests/web/phone_pages_check.py`,
/// measured by `layout_checks.py`): the stop page, the plan page (a timeline, a name to choose, step-free), the
/// route and stop timetables — no sideways scrolling, no overlapping or cut text, no wrapped button label, text of
/// 12 px or more, axe-core without violations, the departures first with a destination on every row, the radio
/// buttons and box switched by keyboard, the timetable's stop column in place while the times scroll. On the
/// sample network and on a large real feed (carta, Chattanooga, from ../shared/data). Screenshots are kept in
/// `.build/artefacts/web-phone/`.
@Suite(.serialized) struct PhonePagesBrowserTests {
    static let carta = SharedData.folder?.appendingPathComponent("gtfs/carta.zip")
    static let cartaAvailable = carta.map { FileManager.default.fileExists(atPath: $0.path) } ?? false

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
        for shot in ["sample-stop-390.png", "sample-plan-390.png", "sample-plan-choose-390.png",
                     "sample-route-timetable-scrolled-390.png", "sample-stop-timetable-1280.png"] {
            #expect(FileManager.default.fileExists(atPath: artefacts + "/" + shot), "\(shot)")
        }
    }

    @Test(
        .enabled(
            if: cartaAvailable, "../shared/data/gtfs/carta.zip is absent: the check on a large real feed is skipped"),
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func thePhonePagesOfALargeRealFeed() throws {
        let feed = try #require(Self.carta)
        let database = TemporaryFolder.make("phone-carta").appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", feed.path, "--db", database])
        try #require(imported.status == 0, "\(imported.stderr)")
        // The feed's calendar runs 2026-08-19 to 2026-08-22: a Thursday morning inside it.
        let (server, base) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", database, "--at", "2026-08-20T08:00"], limit: 300)
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk serve did not start: \(server.output)")
        let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web-phone/carta").path
        // Carter & Hotel Bo (three routes), a plan across town, "airport" (two stops on Airport Road), route 4.
        try Self.check(
            base: url,
            pages: #"{"name": "carta", "stop": "/s/1433", "plan": "/plan?from=1433&to=3058", "#
                + #""choose": "/plan?from=1433&to=airport", "route_timetable": "/r/4/timetable"}"#,
            artefacts: artefacts)
    }
}
