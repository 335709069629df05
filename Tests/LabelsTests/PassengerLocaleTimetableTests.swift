import Foundation
import KioskTesting
import Testing
import TransitModel

@testable import Labels

/// Printed timetables on the passenger locale's clock: on a 12-hour clock (a US feed) the hour rows read "3p",
/// the route timetable's cells "3:05p", frequencies "from 4:00a"; on the 24-hour clock as before. The posters
/// pass their check (nothing outside its box) either way.
@Suite struct PassengerLocaleTimetableTests {
    final class Pages: @unchecked Sendable { var texts: [String] = [] }

    func stopPosterTexts(_ clock: PassengerLocale.Clock) throws -> [String] {
        let output = TemporaryFolder.make("poster-\(clock.rawValue)").appendingPathComponent("poster.pdf").path
        let printer = TimetablePrinter(options: TimetablePrintOptions(language: .en, clock: clock))
        let pages = Pages()
        printer.tamper = { posters in pages.texts = posters.flatMap { $0.texts.map(\.text) } }
        _ = try printer.printStop(
            TimetablePosterTests.timetable, payloads: TimetablePosterTests.payloads, output: output)
        return pages.texts
    }

    @Test func aStopPosterOnTheTwelveHourClock() throws {
        let texts = try stopPosterTexts(.twelveHour)
        #expect(["5a", "12p", "3p", "11p"].allSatisfy(texts.contains), "\(texts)")
        #expect(!texts.contains("15"), "\(texts)")
        #expect(texts.contains { $0.contains("from 4:00a") }, "\(texts)")
    }

    @Test func aStopPosterOnTheTwentyFourHourClock() throws {
        let texts = try stopPosterTexts(.twentyFourHour)
        #expect(texts.contains("05") && texts.contains("15"), "\(texts)")
        #expect(texts.contains { $0.contains("from 04:00") }, "\(texts)")
    }

    @Test func printedTimes() {
        #expect(TimetableText.clock(15 * 3600 + 300, .twelveHour) == "3:05p")
        #expect(TimetableText.clock(25 * 3600 + 600, .twelveHour) == "1:10a")
        #expect(TimetableText.clock(12 * 3600, .twelveHour) == "12:00p")
        #expect(TimetableText.clock(10 * 60, .twelveHour) == "12:10a")
        #expect(TimetableText.clock(15 * 3600 + 300, .twentyFourHour) == "15:05")
        #expect(TimetableText.hour(0, .twelveHour) == "12a" && TimetableText.hour(13, .twelveHour) == "1p")
    }
}
