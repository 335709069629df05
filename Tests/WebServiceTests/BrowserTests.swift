import Foundation
import KioskTesting
import Testing

/// A real browser: headless Chromium through chromium-driver and Selenium (`kiosk/tests/web/browser_check.py`)
/// against `kiosk demo --web`: the phone page at 390×844 without horizontal scrolling, its plan form, `/kiosk`
/// switching to the stop the replayed camera shows and back home, axe-core without serious or critical
/// violations. Screenshots and axe reports are kept in `.build/artefacts/web/`.
@Suite struct BrowserTests {
    static let chromiumInstalled =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")

    @Test(
        .enabled(
            if: chromiumInstalled,
            "Chromium and chromium-driver are not installed (kiosk/setup.sh installs them where Debian has them)"))
    func phonePageAndBrowserKiosk() throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let (server, base) = try TestSupport.startServer(
            ["demo", "--web", "--port", "0", "--lang", "en"], limit: 300)
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk demo --web did not start: \(server.output)")
        let artefacts = Repository.root.appendingPathComponent(".build/artefacts/web").path
        let script = Repository.root.appendingPathComponent("kiosk/tests/web/browser_check.py").path
        let result = try Programs.run(python, [script, url, artefacts], limit: 600)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("0 failures"), "\(result.stdout)")
        for shot in [
            "phone-stop.png", "phone-stop-high-contrast.png", "phone-plan.png", "kiosk-home.png", "kiosk-stop.png",
            "kiosk-back-home.png",
        ] {
            #expect(FileManager.default.fileExists(atPath: artefacts + "/" + shot), "\(shot)")
        }
    }
}
