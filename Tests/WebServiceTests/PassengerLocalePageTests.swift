import Foundation
import KioskTesting
import Testing
import TransitStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `kiosk serve` on an English US feed without a configured language: its log says which locale it picked and
/// why, and the phone page is in English with 12-hour times and feet/miles; in Spanish on `?lang=es`, with the
/// names the feed translates (translations.txt).
@Suite struct PassengerLocalePageTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("web-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }


    @Test func thePhonePageFollowsTheFeedsLanguageAndCountry() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", try Self.database.get(), "--at", EnglishUSFeed.afternoon])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        #expect(
            server.output.contains(
                "passenger locale: language en (agency_lang en), US conventions: 12-hour clock, dates m/d/y, "
                    + "feet and miles (agency_timezone America/New_York)"), "\(server.output)")

        let english = try await TestSupport.page(base + "/s/101")
        #expect(english.contains("<html lang=\"en\""), "\(english.prefix(300))")
        #expect(english.contains("Main St Station"))
        #expect(english.contains("3:05 PM") && !english.contains("15:05"), "\(english)")
        #expect(english.contains("Nearby stops (within 0.2 mi)"), "\(english)")
        #expect(english.contains("520 ft N"), "\(english)")
        #expect(english.contains("8/19/2026"), "\(english)")

        let spanish = try await TestSupport.page(base + "/s/101?lang=es")
        #expect(spanish.contains("Estación Calle Mayor"), "\(spanish)")
        #expect(spanish.contains("Zoológico"), "\(spanish)")
        #expect(spanish.contains("3:05 p. m."), "\(spanish)")
        #expect(spanish.contains("Paradas cercanas (hasta 0,2 mi)"), "\(spanish)")
    }
}
