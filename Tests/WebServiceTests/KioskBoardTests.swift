import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Testing
import WebService

/// The `/kiosk` board's fragments as served (issue 37): rows grouped by route and destination with their next
/// times, the clock and the live/timetable line; the on-screen planner's stop matches and plan. The layout itself
/// is measured in Chromium (`KioskBoardBrowserTests`).
@Suite struct KioskBoardTests {
    var config: KioskConfig {
        var config = KioskConfig()
        config.homeStop = "MQ09"
        return config
    }

    /// The rows of a board fragment: (badge, destination, times) in order.
    static func rows(_ html: String) -> [(route: String, destination: String, times: String)] {
        html.components(separatedBy: "<li class=\"group\">").dropFirst().map { row in
            func inner(_ from: String, _ to: String) -> String {
                guard let start = row.range(of: from),
                    let end = row.range(of: to, range: start.upperBound..<row.endIndex)
                else { return "" }
                return String(row[start.upperBound..<end.lowerBound])
            }
            let badge = inner("\">", "</bdi>")
            let destination = inner("<span class=\"dest\"><bdi>", "</bdi>")
            let times = inner("<span class=\"times\">", "</span></li>")
                .replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
            return (badge, destination, times)
        }
    }

    @Test func theStationsBoardHasOneRowPerRouteAndDestination() async throws {
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk/board?stop=MQ09&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let rows = Self.rows(html)
                // El Ejido station at 08:00 (sample README): the metro both ways and the trolleybus both ways.
                #expect(rows.count == 4, "\(rows)")
                #expect(Set(rows.map(\.destination)) == ["Quitumbe", "El Labrador", "La Y", "El Recreo"], "\(rows)")
                for row in rows {
                    #expect(!row.route.isEmpty && !row.destination.isEmpty, "\(row)")
                    #expect(row.times.hasSuffix("min") || row.times.hasSuffix("now"), "\(row)")
                    #expect(row.times.contains(" · "), "the next times in one row: \(row)")
                }
                #expect(html.contains("class=\"clock\"") && html.contains(">08:00<"), "\(html.prefix(600))")
                #expect(html.contains("○ Timetable times"), "no live data configured: \(html.prefix(600))")
                #expect(html.contains("data-words=\"Page {n} of {total}\""))
            }
            try await client.execute(uri: "/kiosk/board?lang=es", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains("Acerque el código") && html.contains("class=\"clock\""), "\(html)")
            }
        }
    }

    @Test func thePlannerFindsStopsByTheLettersTypedAndPlans() async throws {
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk/stops?q=CUM&from=MQ09&lang=en", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(html.contains("Cumandá · 2004") && html.contains("data-stop=\""), "\(html)")
            }
            try await client.execute(uri: "/kiosk/stops?q=ZZZZQ&lang=en", method: .get) { response in
                #expect(String(buffer: response.body).contains("No stop by that name"))
            }
            try await client.execute(uri: "/kiosk/plan?from=MQ09&to=2004&lang=en", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(html.contains("class=\"option\"") && html.contains("Option 1"), "\(html)")
                #expect(html.contains("Cumandá"), "\(html)")
            }
            try await client.execute(uri: "/kiosk/plan?from=MQ09&lang=en", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func aScreenNamesItsOwnStop() async throws {
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(uri: "/kiosk?home=2010&lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(!page.contains("data-home=\"MQ09\""), "the screen's own stop, not the config's")
                #expect(page.contains("home=2010"), "the language link keeps the screen's stop")
                #expect(page.contains("id=\"planner\"") && page.contains("data-key=\"Ñ\""))
            }
        }
    }
}
