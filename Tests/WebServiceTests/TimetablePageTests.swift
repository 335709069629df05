import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import Testing
import TransitModel
import TransitStore
import WebService

/// `/s/{stop}/timetable` and `/r/{route}/timetable`: the printed timetables' tables as HTML (issue 25).
@Suite struct TimetablePageTests {
    /// Hour → minutes of the first table of a stop timetable page.
    static func hourRows(_ page: String) throws -> [String: [String]] {
        let table = try #require(page.range(of: "<table class=\"tt\">").flatMap { start in
            page.range(of: "</table>", range: start.upperBound..<page.endIndex).map { page[start.lowerBound..<$0.upperBound] }
        })
        let row = try NSRegularExpression(pattern: #"<th scope="row" class="hour">(\d\d)</th><td class="min">(.*?)</td>"#)
        let span = try NSRegularExpression(pattern: #"<span>(\d\d)"#)
        var rows: [String: [String]] = [:]
        let text = String(table)
        for match in row.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let hour = String(text[Range(match.range(at: 1), in: text)!])
            let cell = String(text[Range(match.range(at: 2), in: text)!])
            rows[hour, default: []] += span.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)).map {
                String(cell[Range($0.range(at: 1), in: cell)!])
            }
        }
        return rows
    }

    @Test func theStopTimetablePageListsTheDaysDepartures() async throws {
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        let stop = try database.resolveStop(.code("1091"))
        let date = ServiceDate(year: 2026, month: 11, day: 25)!
        let origin = date.serviceDayOrigin(in: database.timeZone)
        let departures = try database.departures(for: stop, from: origin, minutes: database.latestDepartureSeconds / 60 + 1)
            .filter { $0.serviceDate == "2026-11-25" && !$0.approximate }
        var expected: [String: [String]] = [:]
        for departure in departures {
            let parts = departure.scheduledTime.split(separator: ":")
            expected[String(format: "%02d", Int(parts[0])! % 24), default: []].append(String(parts[1]))
        }
        try #require(!departures.isEmpty)
        let expectedRows = expected
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/1091/timetable?date=2026-11-25&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let page = String(buffer: response.body)
                #expect(page.contains("<html lang=\"en\">") && page.contains("El Ejido") && page.contains("Stop 1091"))
                #expect(page.contains("Valid on Wednesday 25 November 2026"))
                #expect(page.contains("href=\"/timetable.css\""))
                #expect(page.contains("every 8 min from 09:21 to 17:05"))  // frequency service, not invented times
                let rows = try Self.hourRows(page)
                #expect(rows == expectedRows)
            }
            try await client.execute(uri: "/s/1091/timetable?date=2026-11-25&week=1", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("Lunes a viernes") && page.contains("Domingos y festivos"))
            }
            try await client.execute(uri: "/timetable.css", method: .get) { response in
                let css = String(buffer: response.body)
                #expect(response.status == .ok && css.contains("@media print") && css.contains("@page"))
            }
        }
    }

    @Test func theRouteTimetablePageHasStopsDownAndTripsAcross() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/r/MQ-L1/timetable?date=2026-11-25&direction=0&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("Route timetable") && page.contains("to El Labrador"))
                let quitumbe = try #require(page.range(of: ">Quitumbe</a>"))
                let labrador = try #require(page.range(of: ">El Labrador</a>"))
                #expect(quitumbe.lowerBound < labrador.lowerBound)
                #expect(page.contains("every 6 min") && page.contains("05:30–06:24"))
                #expect(page.contains("<td>06:30</td>"))
            }
        }
    }

    @Test func badRequestsAreAnsweredPlainly() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/no-such-stop/timetable", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/r/NOPE/timetable?date=2026-11-25", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/s/1091/timetable?date=tomorrow", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/s/1091/timetable?date=2031-01-01", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func feedTextIsEscaped() async throws {
        let feed = TemporaryFolder.make("timetable-hostile", files: PageRouteTests.hostileFeed)
        let path = TemporaryFolder.make("timetable-hostile-db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            try await client.execute(uri: "/s/S1/timetable?date=2026-11-25", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(!page.contains("<script>") && !page.contains("<img") && page.contains("&lt;script&gt;"))
            }
            try await client.execute(uri: "/r/R1/timetable?date=2026-11-25", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(!page.contains("<i>1</i>") && !page.contains("<img"))
            }
        }
    }
}
