import Foundation
import KioskTesting
import Testing
import TransitStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `/kiosk` board on an English US feed: the header clock and the board's clock times on the 12-hour clock,
/// and the page told to tick the clock on in 12 hours with the locale's words; the sample keeps 24 hours.
@Suite struct PassengerLocaleKioskBoardTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("kiosk-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }


    @Test func theBoardsClockIsTwelveHourOnAUSFeed() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", try Self.database.get(), "--at", EnglishUSFeed.afternoon])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        let board = try await TestSupport.page(base + "/kiosk/board?stop=101")
        // The server's clock runs on from --at: on a busy machine the page may be asked for a minute or two later.
        #expect(
            board.range(of: #"data-hours="12" data-am="AM" data-pm="PM">3:0\d PM</p>"#, options: .regularExpression)
                != nil, "\(board)")
        #expect(board.contains("title=\"3:05 PM"), "\(board)")
        #expect(!board.contains("15:0"), "\(board)")
        let spanish = try await TestSupport.page(base + "/kiosk/board?stop=101&lang=es")
        #expect(
            spanish.range(of: #"data-am="a. m." data-pm="p. m.">3:0\d p. m.</p>"#, options: .regularExpression) != nil,
            "\(spanish)")
        let prompt = try await TestSupport.page(base + "/kiosk/board")
        #expect(prompt.contains("data-hours=\"12\""), "\(prompt)")
        let plan = try await TestSupport.page(base + "/kiosk/plan?from=101&to=103")
        #expect(plan.contains("3:10 PM") && !plan.contains("15:10"), "\(plan)")
    }

    @Test func theSampleBoardKeepsTwentyFourHours() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/kiosk/board?stop=MQ09&lang=en", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains("data-hours=\"24\" data-am=\"\" data-pm=\"\">08:00</p>"), "\(html.prefix(800))")
            }
        }
    }
}
