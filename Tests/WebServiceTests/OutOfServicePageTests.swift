import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import Testing
import TransitModel
import WebService

/// A label scanned on a day the timetable does not cover (issue 27): the stop page and the `/kiosk` board still
/// show the stop — name, code, routes, map, nearby stops — with the notice where the departures would be.
@Suite struct OutOfServicePageTests {
    /// The sample's calendar runs from 2026-01-01 to 2027-12-31.
    static let expired = try! quito("2028-03-01T08:00")
    static let notYet = try! quito("2025-06-02T08:00")

    /// A local date-time in the sample's zone.
    static func quito(_ text: String) throws -> Date {
        guard case .instant(let date) = LocalTime.interpret(text, in: TimeZone(identifier: "America/Guayaquil")!)
        else { throw FixtureError("unreadable fixture time \(text)") }
        return date
    }

    @Test func anExpiredTimetableStillShowsTheStop() async throws {
        try await TestSupport.withRouter(try TestSupport.service(now: Self.expired)) { client in
            try await client.execute(uri: "/s/1091", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("El Ejido"))
                #expect(page.contains("<bdi class=\"code\">1091</bdi>"))
                #expect(page.contains("Horarios vencidos (válidos del 2026-01-01 al 2027-12-31)"))
                #expect(page.contains("Los horarios no cubren la fecha de hoy"))
                #expect(page.contains("id=\"routes-h\""), "the routes are listed")
                #expect(page.contains("/api/v1/stops/") && page.contains("map.svg"), "the map is there")
                #expect(page.contains("Paradas cercanas") && page.contains("<ul class=\"stops\">"))
                #expect(!page.contains("<table class=\"departures\">"))
                #expect(!page.contains("Primera y última") && !page.contains("id=\"span-h\""))
                // The spoken view is the API's, which answers 503 that day: no player that cannot play.
                #expect(!page.contains("<audio"))
            }
            try await client.execute(uri: "/s/1091?lang=en", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("Timetable out of date (valid 2026-01-01 to 2027-12-31)"))
                #expect(page.contains("Nearby stops"))
            }
            try await client.execute(uri: "/kiosk/board?stop=1091&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let board = String(buffer: response.body)
                #expect(board.contains("El Ejido") && board.contains("Timetable out of date"))
            }
        }
    }

    @Test func aTimetableNotYetInForceSaysWhenServiceStarts() async throws {
        try await TestSupport.withRouter(try TestSupport.service(now: Self.notYet)) { client in
            try await client.execute(uri: "/s/1091?lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("El Ejido"))
                #expect(page.contains("Timetable not yet in force (valid 2026-01-01 to 2027-12-31)"))
                #expect(page.contains("Next service from 2026-01-0"), "\(page)")
            }
            try await client.execute(uri: "/s/1091", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("Horarios aún no vigentes"))
                #expect(page.contains("Próximo servicio desde el 2026-01-0"))
            }
            try await client.execute(uri: "/kiosk/board?stop=1091", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Próximo servicio desde el 2026-01-0"))
            }
            // The API keeps its 503.
            try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }
}

/// The pictures on the pages leave their legends to the page's text (issue 27: the journey map's caption was
/// ~7 px type on a 390 px phone and ran off the edge).
@Suite struct PagePictureLegendTests {
    @Test func thePlanPageNumbersItsTimelineAsTheJourneyMap() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            var mapHref = ""
            try await client.execute(uri: "/plan?from=1091&to=1011&lang=en", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                // The timeline's stops carry the map's numbers; the steps are not listed again under the map.
                #expect(page.contains("<span class=\"num\">1</span>"), "\(page)")
                #expect(!page.contains("<ol class=\"points\">"), "\(page)")
                let src = try #require(
                    page.range(of: "src=\"/api/v1/plan/map.svg?").map { range in
                        String(page[range.lowerBound...].dropFirst(5).prefix { $0 != "\"" })
                    })
                #expect(src.contains("legend=none"))
                mapHref = src.replacingOccurrences(of: "&amp;", with: "&")
            }
            try await client.execute(uri: mapHref, method: .get) { response in
                #expect(response.status == .ok, "\(mapHref)")
                let svg = String(buffer: response.body)
                #expect(svg.contains("height=\"800\""), "\(svg.prefix(400))")
                #expect(!svg.contains("font-size=\"15\""), "no legend lines in the picture")
            }
            let full = mapHref.replacingOccurrences(of: "&legend=none", with: "")
            try await client.execute(uri: full, method: .get) { response in
                #expect(String(buffer: response.body).contains("font-size=\"15\""), "the API's default keeps it")
            }
            try await client.execute(uri: full + "&legend=some", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func theStopPageAsksForTheMapWithoutItsLegend() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/s/1091", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("map.svg?lang=es&amp;legend=none"), "\(page)")
            }
            try await client.execute(uri: "/api/v1/stops/1091/map.svg?legend=none", method: .get) { response in
                #expect(response.status == .ok)
                let svg = String(buffer: response.body)
                #expect(!svg.contains("class=\"legend\""))
                #expect(svg.contains("<desc"), "the text equivalent stays")
            }
        }
    }
}
