import Foundation
import KioskTesting
import Testing
import TransitModel
import TransitStore
import TripPlanning

@testable import TerminalKiosk

/// The terminal kiosk's plan screen writes its times on the passenger locale's clock: 12-hour on an English US
/// feed, 24-hour where the country writes them so.
@Suite struct PassengerLocalePlanScreenTests {
    static let database = Result { () throws -> RouteDatabase in
        let path = TemporaryFolder.make("plan-screen-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    static func text(_ lines: [ScreenLine]) -> String {
        lines.map { $0.spans.map(\.text).joined() }.joined(separator: "\n")
    }

    @Test func thePlanScreenOfAUSFeedIsOnTheTwelveHourClock() throws {
        let db = try Self.database.get()
        let now = try #require(LocalTime.parse(EnglishUSFeed.afternoon, in: db.timeZone))
        let plan = try db.plan(from: db.resolveEndpoint("MAIN"), to: db.resolveEndpoint("ZOO"), at: now)
        let zone = TimeZone(identifier: "America/New_York")!
        let us = PassengerLocale(language: .en, region: "US")
        let twelve = Self.text(
            KioskScreenBuilder.planLines(plan, now: now, zone: zone, lang: .en, width: 80, clocks: us))
        #expect(twelve.contains("Leaving from 3:00 PM"), "\(twelve)")
        #expect(twelve.contains("3:07 PM → 3:20 PM") && twelve.contains("3:10 PM"), "\(twelve)")
        #expect(!twelve.contains("15:"), "\(twelve)")
        let ecuador = PassengerLocale(language: .en, region: "EC")
        let twentyFour = Self.text(
            KioskScreenBuilder.planLines(plan, now: now, zone: zone, lang: .en, width: 80, clocks: ecuador))
        #expect(twentyFour.contains("15:07 → 15:20"), "\(twentyFour)")
    }
}
