import Foundation
import KioskTesting
import Testing

/// The terminal kiosk and `kiosk doctor` on an English US feed with no language configured: the kiosk starts in
/// English with the feed's English names, its log and the doctor say which locale was picked and why.
@Suite struct PassengerLocaleKioskTests {
    /// The English US fixture imported, and a config naming it with Main Street as the home stop.
    static func kiosk(_ name: String, extra: String = "") throws -> (directory: String, config: String) {
        let directory = TemporaryFolder.make(name).path
        let database = directory + "/routes.sqlite"
        let imported = try Programs.runKiosk(["import", EnglishUSFeed.folder().path, "--db", database])
        #expect(imported.status == 0, "\(imported)")
        let config = directory + "/kiosk.toml"
        try "home_stop = \"MAIN\"\n\(extra)[database]\npath = \"\(database)\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (directory, config)
    }

    @Test func theKioskStartsInTheFeedsLanguageAndSaysWhy() throws {
        let (directory, config) = try Self.kiosk("kiosk-english")
        let log = directory + "/kiosk.log"
        let kiosk = try Programs.startKiosk(["run", "--config", config, "--no-camera", "--log", log])
        let shown = kiosk.waitForOutput(limit: 600) { $0.contains("Main St Station") }
        kiosk.signal(SIGTERM)
        let run = kiosk.wait()
        #expect(shown, "the idle screen never showed the home stop's English name:\n\(run.stdout.suffix(2000))")
        #expect(run.stdout.contains("Tab: Español"), "\(run.stdout.suffix(2000))")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("passenger locale: language en (agency_lang en), US conventions"), "\(text)")
    }

    @Test func doctorSaysTheLocaleAndWhy() throws {
        let (_, config) = try Self.kiosk("doctor-english")
        let result = try Programs.runKiosk(["doctor", "--config", config, "--no-camera"])
        let line = result.stdout.split(separator: "\n").first { $0.contains("locale") }.map(String.init) ?? ""
        #expect(line.contains("language en (agency_lang en)"), "\(result.stdout)")
        #expect(
            line.contains("12-hour clock, dates m/d/y, feet and miles (agency_timezone America/New_York)"), "\(line)")
        // The config's language and locale win, and the doctor says so.
        let (_, configured) = try Self.kiosk("doctor-configured", extra: "language = \"es\"\nlocale = \"es_EC\"\n")
        let spanish = try Programs.runKiosk(["doctor", "--config", configured, "--no-camera"])
        #expect(spanish.stdout.contains("language es (config language), EC conventions"), "\(spanish.stdout)")
        #expect(spanish.stdout.contains("(config locale es_EC)"), "\(spanish.stdout)")
    }
}
