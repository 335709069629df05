import Foundation
import KioskTesting
import Testing
import TransitStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phone plan page on an English US feed: 12-hour times and a m/d/y date, in English and in Spanish.
@Suite struct PassengerLocalePlanPageTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("web-plan-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }


    @Test func thePlanPageIsOnTheFeedsClock() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", try Self.database.get(), "--at", EnglishUSFeed.afternoon])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        let english = try await TestSupport.page(base + "/plan?from=101&to=103")
        #expect(english.contains("Leaving from 8/19/2026 3:00 PM"), "\(english)")
        #expect(english.contains("3:07 PM → 3:20 PM"), "\(english)")
        #expect(english.contains("3:10 PM") && !english.contains("15:10"), "\(english)")
        let spanish = try await TestSupport.page(base + "/plan?from=101&to=103&lang=es")
        #expect(spanish.contains("3:10 p. m.") && !spanish.contains("15:10"), "\(spanish)")
    }
}
