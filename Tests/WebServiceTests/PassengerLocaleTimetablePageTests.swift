import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import Testing
import TransitStore
import WebService

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The timetable pages on an English US feed write times and dates as the printed timetables do there: "3p" hour
/// rows, "3:05p" cells, what a and p mean, the validity in m/d/y; the sample (Quito) keeps 24 hours.
@Suite struct PassengerLocaleTimetablePageTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("web-timetable-english-us").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: EnglishUSFeed.folder().path, databasePath: path).run()
        return path
    }


    @Test func theTimetablePagesOfAUSFeedAreOnItsClock() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", try Self.database.get(), "--at", EnglishUSFeed.afternoon])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")

        let week = try await TestSupport.page(base + "/s/MAIN/timetable?date=2026-08-19&week=1")
        #expect(week.contains(#"<th scope="row" class="hour">3p</th>"#), "\(week)")
        #expect(week.contains(#"<th scope="row" class="hour">9p</th>"#), "\(week)")
        #expect(week.contains("a: a.m., p: p.m."), "\(week)")
        #expect(week.contains("Valid from 1/1/2026 to 12/31/2026"), "\(week)")

        let route = try await TestSupport.page(base + "/r/R4/timetable?date=2026-08-19&direction=0")
        #expect(route.contains("<td>3:05p</td>") && route.contains("<td>9:35p</td>"), "\(route)")
        #expect(!route.contains("15:05") && !route.contains("21:35"), "\(route)")
        #expect(route.contains("a: a.m., p: p.m."), "\(route)")
    }

    @Test func theSampleTimetablePagesKeepTwentyFourHours() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/r/MQ-L1/timetable?date=2026-11-25&direction=0&lang=en", method: .get) {
                response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(page.range(of: #"<td>\d\d:\d\d</td>"#, options: .regularExpression) != nil, "\(page)")
                #expect(!page.contains("a: a.m., p: p.m."), "\(page)")
            }
        }
    }
}
