import Foundation
import KioskTesting
import Testing

/// The browse pages in a real browser (`kiosk/tests/web/route_browser_check.py`, the helpers of
/// `browser_check.py`): /routes and its search form without JavaScript, a stop page's route badge to the route page,
/// its map loaded with the viewer's stop, no horizontal scrolling at 390 px, 7:1 contrast when the reader asks for
/// more, and axe-core without serious or critical violations on /routes, the route page and an unknown route.
@Suite struct RouteBrowserTests {
    @Test(
        .enabled(
            if: BrowserTests.chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func routesAndRoutePagesInABrowser() throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let (server, base) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", TestSupport.sampleDatabase, "--at", "2026-11-25T08:00"], limit: 600)
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk serve did not start: \(server.output)")
        let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web-routes").path
        let script = Repository.root.appendingPathComponent("kiosk/tests/web/route_browser_check.py").path
        let result = try Programs.run(python, [script, url, artefacts], limit: 600)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("0 failures"), "\(result.stdout)")
        for shot in ["routes.png", "route.png", "route-map.png"] {
            #expect(FileManager.default.fileExists(atPath: artefacts + "/" + shot), "\(shot)")
        }
    }
}
