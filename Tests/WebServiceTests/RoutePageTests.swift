import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import Mustache
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// The browse pages (issue 25): `/routes` with its search box (a plain form: works without JavaScript), `/r/{route}`
/// (map, stops per direction linking to their stop pages, service and headways, day types), and the route badges of
/// the stop and plan pages linking to it (not on the `/kiosk` board).
@Suite struct RoutePageTests {
    static func page(
        _ client: any TestClientProtocol, _ uri: String
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, text: String) {
        try await client.execute(uri: uri, method: .get) { response in
            (response.status, response.headers, String(buffer: response.body))
        }
    }

    @Test func theRoutesPageListsOperatorsAndSearchesWithoutScript() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let all = try await Self.page(client, "/routes?lang=en")
            #expect(all.status == .ok && all.headers[.contentType] == "text/html; charset=utf-8")
            #expect(all.headers[.eTag] != nil && all.headers[.cacheControl] == "public, max-age=60")
            #expect(all.text.contains("<h1>Routes and operators</h1>"))
            #expect(all.text.contains("<form class=\"search\" action=\"/routes\" method=\"get\" role=\"search\">"))
            #expect(all.text.contains("Metro de Quito") && all.text.contains("Empresa Pública Metropolitana"))
            #expect(all.text.contains("href=\"https://metro.quito.example\"") && all.text.contains("Phone: +593 2 000 1111"))
            #expect(all.text.contains("<a href=\"/r/MQ-L1?lang=en\"><bdi class=\"badge r-"))
            #expect(all.text.contains("7 routes"))
            #expect(!all.text.contains("<script") && !all.text.contains("style=\""))
            // Accent-insensitive, as a GET form sends it.
            let found = try await Self.page(client, "/routes?q=cumbaya&lang=en")
            #expect(found.status == .ok)
            #expect(found.text.contains("Alimentador Río Coca – Cumbayá") && !found.text.contains("/r/MQ-L1"))
            #expect(found.text.contains("value=\"cumbaya\"") && found.text.contains("All routes"))
            let none = try await Self.page(client, "/routes?q=zzzz&lang=es")
            #expect(none.text.contains("Ninguna línea ni operador coincide con «zzzz»."))
            let agency = try await Self.page(client, "/routes?agency=MQ")
            #expect(agency.text.contains("/r/MQ-L1") && !agency.text.contains("/r/EP-TB"))
            let unknown = try await Self.page(client, "/routes?agency=Nadie")
            #expect(unknown.status == .badRequest && unknown.text.contains("no such agency"))
        }
    }

    @Test func theRoutePageFromAStop() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let page = try await Self.page(client, "/r/MQ-L1?from=1091&lang=en")
            #expect(page.status == .ok)
            #expect(page.headers[.eTag] != nil && page.headers[.cacheControl] == "public, max-age=60")
            let text = page.text
            #expect(text.contains("<title>Route L1</title>"))
            #expect(text.contains("Quitumbe – El Labrador"))
            #expect(text.contains("Operator: <a href=\"/routes?agency=MQ&amp;lang=en\"><bdi>Metro de Quito</bdi></a>"))
            // The map, asked for from the stop, described by the stop list.
            #expect(text.contains("src=\"/api/v1/routes/MQ-L1/map.svg?from=MQ09A&amp;lang=en&amp;legend=none\""))
            #expect(text.contains("alt=\"Map of route L1\" aria-describedby=\"stops-h\""))
            #expect(text.contains("Your stop: El Ejido"))
            // Stops per direction, linking to their stop pages, the viewer's stop marked.
            #expect(text.components(separatedBy: "<ol class=\"route-stops\">").count == 3)
            #expect(text.contains("<li class=\"here\"><a href=\"/s/1091?lang=en\">"))
            #expect(text.contains("◀ you are here"))
            // Service on the day, headways, and the week by day type.
            #expect(text.contains("How often on 2026-11-25"))
            #expect(text.contains("Morning peak") && text.contains("every "))
            #expect(text.contains("When it runs (week of 2026-11-23)"))
            #expect(text.contains("Monday to Friday") || text.contains("Monday to Sunday"))
            #expect(!text.contains("<script") && !text.contains("style=\""))
            // The same by short name, and in Spanish by default.
            let es = try await Self.page(client, "/r/L1")
            #expect(es.status == .ok && es.text.contains("<html lang=\"es\">") && es.text.contains("Paradas"))
            #expect(es.text.contains("Cuándo circula"))
        }
    }

    @Test func aRouteWithAServiceThatSkipsSundays() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let text = try await Self.page(client, "/r/EP-A3?lang=en").text
            // "Sin servicio domingos ni feriados": Sunday is its own day type, which does not run.
            let sunday = try #require(text.range(of: "<tr><th scope=\"row\">Sunday"))
            #expect(text[sunday.upperBound...].prefix(200).contains("does not run"), "\(text[sunday.lowerBound...].prefix(300))")
        }
    }

    @Test func unknownAndAmbiguousRoutesOfferTheRoutesTheyMayMean() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let missing = try await Self.page(client, "/r/L2?lang=en")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("No route “L2”") && missing.text.contains("Did you mean…?"))
            #expect(missing.text.contains("href=\"/r/MQ-L1?lang=en\""))
            #expect(missing.text.contains("action=\"/routes\""))
        }
    }

    @Test func outsideTheCalendarTheRouteIsStillShownWithANotice() async throws {
        let later = TestSupport.morning.addingTimeInterval(3 * 365 * 86_400)
        try await TestSupport.withRouter(try TestSupport.service(now: later)) { client in
            let page = try await Self.page(client, "/r/L1?lang=en")
            #expect(page.status == .ok)
            #expect(page.text.contains("class=\"warning\"") && page.text.contains("El Ejido"))
        }
    }

    @Test func routeBadgesOnStopAndPlanPagesLinkToTheRoute() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let stop = try await Self.page(client, "/s/1091?lang=en").text
            // From the stop the page is for (1091 is platform MQ09A's code).
            let link = "<a class=\"route-link\" href=\"/r/MQ-L1?from=MQ09A&amp;lang=en\" aria-label=\"Route L1\">"
            // The routes list, each departure and the first/last table.
            #expect(stop.components(separatedBy: link).count > 3, "\(stop)")
            let plan = try await Self.page(client, "/plan?from=1091&to=Cumbay%C3%A1&lang=en").text
            #expect(plan.contains("<a class=\"route-link\" href=\"/r/"), "\(plan)")
            // The /kiosk board shows the same departures without links: a public screen stays on the kiosk.
            let board = try await Self.page(client, "/kiosk/board?stop=1091&lang=en").text
            #expect(board.contains("class=\"badge") && !board.contains("route-link"))
        }
    }

    @Test func everyRoutePageModelAnswersEveryFieldByName() throws {
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        let date = try #require(ServiceDate(parsing: "2026-11-25"))
        let detail = try database.routeDetail("L1", date: date)
        let viewer = try database.resolveStop(.idOrCode("1091"))
        let model = RoutePages.routeModel(
            detail, week: try database.routeWeek("L1", around: date), viewer: viewer, notice: "n", language: .en,
            frame: PageRenderer.Frame(language: .en, title: "L1", path: "/r/L1", feedTag: "t"))
        PageModelTests.expectSameAsMirror(model)
        PageModelTests.expectSameAsMirror(model.directions[0])
        PageModelTests.expectSameAsMirror(model.directions[0].stops[0])
        PageModelTests.expectSameAsMirror(model.services[0])
        PageModelTests.expectSameAsMirror(model.services[0].headways[0])
        PageModelTests.expectSameAsMirror(model.dayTypes[0])
        let route = RoutePages.RoutesPage.Route(href: "h", colourClass: "c", label: "l", longName: nil, mode: "m")
        let agency = RoutePages.RoutesPage.Agency(
            name: "n", href: "h", url: nil, websiteLabel: "w", phone: "p", count: "1", routes: [route])
        PageModelTests.expectSameAsMirror(route)
        PageModelTests.expectSameAsMirror(agency)
        PageModelTests.expectSameAsMirror(
            RoutePages.RoutesPage(
                page: model.page, heading: "h", searchHint: "s", searchLabel: "l", query: "q", agency: nil,
                filtered: true, allRoutesLabel: "a", allRoutesHref: "/routes", count: "1", agencies: [agency],
                problem: nil))
        let candidate = RoutePages.RouteNotFoundPage.Candidate(href: "h", colourClass: "c", label: "l", longName: "x")
        PageModelTests.expectSameAsMirror(candidate)
        PageModelTests.expectSameAsMirror(
            RoutePages.RouteNotFoundPage(
                page: model.page, heading: "h", detail: "d", didYouMean: "y", candidates: [candidate],
                has_candidates: true, searchHint: "s", searchLabel: "l", query: ""))
    }
}
