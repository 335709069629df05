import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// `kiosk plan` follows the passenger locale: on an English US feed its times are on the 12-hour clock and the
/// plan's moment is a m/d/y date; JSON stays ISO and 24-hour. The sample network (Quito) keeps 24-hour times
/// (Ecuador's dates: 25/11/2026).
@Suite struct PassengerLocalePlanTests {
    static let imported = Result { () throws -> String in
        let path = TemporaryFolder.make("plan-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }

    func plan(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(
            ["plan", "MAIN", "ZOO", "--db", try Self.imported.get(), "--at", EnglishUSFeed.afternoon] + arguments)
    }

    @Test func aPlanOnAnEnglishUSFeedHasTwelveHourTimes() throws {
        let result = try plan([])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("8/19/2026 3:00 PM America/New_York"), "\(text)")
        #expect(text.contains("Option 1: 3:07 PM → 3:20 PM"), "\(text)")
        #expect(text.contains("  3:10 PM  Take 4 to City Zoo"), "\(text)")
        #expect(!text.contains("15:"), "\(text)")
    }

    @Test func inSpanishTheSameClock() throws {
        let result = try plan(["--lang", "es"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3:10 p. m."), "\(result.stdout)")
        #expect(!result.stdout.contains("15:"), "\(result.stdout)")
    }

    @Test func jsonStaysISO() throws {
        let result = try plan(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("T15:10"), "\(result.stdout.prefix(600))")
        #expect(!result.stdout.contains("PM"), "\(result.stdout.prefix(600))")
    }

    @Test func theSampleNetworkKeepsTheTwentyFourHourClock() throws {
        let result = try Programs.runKiosk(
            ["plan", "1011", "1151", "--at", "2026-11-25T08:00", "--lang", "en"],
            environment: ["XDG_CACHE_HOME": TemporaryFolder.make("cache").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("25/11/2026 08:00 America/Guayaquil"), "\(result.stdout)")
        #expect(result.stdout.contains("08:02"), "\(result.stdout)")
        #expect(!result.stdout.contains(" AM"), "\(result.stdout)")
    }

    /// A stop poster of the US feed says its validity in m/d/y, as the country writes dates.
    @Test func aUSStopPosterDatesItsValidityAsTheCountryDoes() throws {
        let pdftotext = try #require(Programs.which("pdftotext"), "pdftotext (poppler-utils) is needed")
        let poster = TemporaryFolder.make("poster-dates-english-us").appendingPathComponent("stop.pdf").path
        let result = try Programs.runKiosk(
            ["timetable", "MAIN", "--proof", "--week", "--date", "2026-08-19", "--db", try Self.imported.get()]
                + ["--out", poster])
        try #require(result.status == 0, "\(result.stderr)")
        let text = try Programs.run(pdftotext, [poster, "-"]).stdout
        #expect(text.contains("Valid from 1/1/2026 to 12/31/2026"), "\(text)")
    }

    /// Printed timetables of the US feed on the 12-hour clock pass their poster check (nothing leaves its box).
    @Test func timetablesOfTheUSFeedPrint() throws {
        let folder = TemporaryFolder.make("timetables-english-us")
        for (arguments, name) in [(["MAIN", "--proof"], "stop.pdf"), (["--route", "R4", "--direction", "0"], "route.pdf")] {
            let result = try Programs.runKiosk(
                ["timetable"] + arguments + ["--db", try Self.imported.get(), "--date", "2026-08-19"]
                    + ["--out", folder.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }
}
