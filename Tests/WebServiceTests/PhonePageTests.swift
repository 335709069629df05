import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskTesting
import StopPresentation
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// What a passenger sees on the phone pages (issue 37): the stop page's departures first and grouped, its links to
/// timetables and routes; the plan page's choice of stops for a shared name, its timelines numbered as the map,
/// durations in hours and minutes, step-free on a feed that says nothing about it; the timetable pages' bar, labels
/// and sticky stop column. The browser checks (`PhonePagesBrowserTests`) measure the same pages laid out.
@Suite struct PhonePageTests {
    static func body(_ client: any TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: uri, method: .get) { response in (response.status, String(buffer: response.body))
        }
    }

    static func position(_ text: String, in page: String) -> Int? {
        page.range(of: text).map { page.distance(from: page.startIndex, to: $0.lowerBound) }
    }

    @Test func theStopPageShowsTheDeparturesFirstGroupedByRouteAndDestination() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let (status, page) = try await Self.body(client, "/s/1091?lang=en")
            #expect(status == .ok)
            // Departures, then listening, the map, the routes, the way elsewhere and the nearby stops.
            let order = [
                "id=\"dep-h\"", "id=\"listen-l\"", "<figure class=\"map\">", "id=\"routes-h\"", "id=\"plan-h\"",
                "id=\"near-h\"",
            ].map { Self.position($0, in: page) }
            #expect(order.allSatisfy { $0 != nil }, "\(order)")
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(order)")
            // One row for L1 to El Labrador with its next three times.
            let rows = page.components(separatedBy: "<tr><td class=\"route\">").dropFirst()
            #expect(rows.count == 1, "\(page)")
            let row = try #require(rows.first)
            #expect(row.contains("<bdi class=\"destination\">El Labrador</bdi>"))
            #expect(row.components(separatedBy: "<span class=\"t\">").count - 1 == 3, "\(row)")
            #expect(row.contains("<strong>3 min</strong> <span class=\"clock\">08:03</span>"))
            // The stop's timetables and each route's page and timetable.
            #expect(page.contains("href=\"/s/1091/timetable?lang=en\""))
            #expect(page.contains("href=\"/s/1091/timetable?week=1&amp;lang=en\""))
            #expect(page.contains("href=\"/r/MQ-L1?from=MQ09A&amp;lang=en\""))
            #expect(page.contains("href=\"/r/MQ-L1/timetable?lang=en\""))
        }
    }

    @Test func theKioskBoardNeitherLinksTimetablesNorGroupsInThePhoneModel() throws {
        let database = try RouteDatabase(path: TestSupport.sampleDatabase)
        let view = try database.stopView(for: try database.resolveStop(.idOrCode("1091")), at: TestSupport.morning)
        let board = PageRoutes.stopModel(
            view, language: .en,
            frame: PageRenderer.Frame(language: .en, title: "El Ejido", path: "/kiosk/board", feedTag: "tag"))
        #expect(board.routes.allSatisfy { $0.timetableHref == nil && $0.href == nil })
        #expect(board.groups.first?.destination == "El Labrador")
    }

    @Test func routesAreListedOncePerNameAndDestination() {
        // A feed that gives every train its own route: 29 "AVE" routes through one station, two destinations.
        let entries = (0..<29).map { number in
            RouteAtStop(
                route: RouteInfo(
                    id: "AVE-\(number)", shortName: "AVE", longName: nil, mode: .rail, color: nil, textColor: nil,
                    agency: "Renfe"),
                directions: [.init(directionID: 0, headsigns: number < 20 ? [] : ["Madrid"])])
        }
        let once = PageRoutes.routesOncePerName(entries)
        #expect(once.map(\.route.id) == ["AVE-0", "AVE-20"])
    }

    @Test(arguments: [(0, "0 min"), (45, "45 min"), (60, "1 h"), (120, "2 h"), (74, "1 h 14 min"), (165, "2 h 45 min")])
    func durationsReadInHoursAndMinutes(minutes: Int, text: String) {
        #expect(DurationText.minutes(minutes) == text)
    }

    @Test func aPlanIsATimelineNumberedAsItsMapWithDurationsInHours() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let (status, page) = try await Self.body(client, "/plan?from=1091&to=Cumbay%C3%A1&lang=en")
            #expect(status == .ok)
            #expect(page.contains("<h3>Option 1 · 1 h 14 min · 1 transfer</h3>"), "\(page)")
            let option = try #require(page.components(separatedBy: "<section class=\"option\">").dropFirst().first)
            let numbers = option.components(separatedBy: "<span class=\"num\">").dropFirst().compactMap {
                Int($0.prefix { $0.isNumber })
            }
            #expect(numbers == Array(1...numbers.count) && numbers.count == 6, "\(numbers)")
            #expect(option.contains("<li class=\"tl-walk\">") && option.contains("<li class=\"tl-ride\">"))
            #expect(option.contains("→ <bdi class=\"destination\">Cumbayá</bdi>"))
            // One map, numbered as the timeline, and no second list of the steps.
            #expect(option.components(separatedBy: "<figure class=\"map\">").count == 2)
            #expect(!option.contains("ol class=\"points\"") && !option.contains("ol class=\"legs\""))
            // The form: two radio buttons in a labelled group, the box with its own label.
            #expect(page.contains("<div class=\"choices\" role=\"radiogroup\" aria-labelledby=\"when-l\">"))
            #expect(page.contains("<label class=\"choice\"><input type=\"checkbox\" name=\"wheelchair\""))
        }
    }

    @Test func aNameThatMatchesSeveralStopsListsThemToChooseFrom() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let (status, page) = try await Self.body(client, "/plan?from=1091&to=El&lang=en")
            #expect(status == .ok)
            #expect(page.contains("To: Several stops match “El”"), "\(page)")
            #expect(!page.contains("<section class=\"option\">"))
            // Each stop with its code (else its ID in the link) and routes; choosing one plans.
            #expect(
                page.contains("href=\"/plan?from=1091&amp;to=5002&amp;lang=en\"><bdi class=\"name\">El Batán</bdi>"))
            #expect(page.contains("<bdi class=\"name\">El Recreo</bdi>"))
            let (chosen, plan) = try await Self.body(client, "/plan?from=1091&to=5002&lang=en")
            #expect(chosen == .ok && plan.contains("<section class=\"option\">"), "\(plan)")
            // A whole name that one stop has is that stop.
            let (_, exact) = try await Self.body(client, "/plan?from=1091&to=Cumbay%C3%A1&lang=en")
            #expect(!exact.contains("place-choice"))
        }
    }

    @Test func thePlanAPIRefusesANameThatMatchesSeveralStops() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/plan?from=1091&to=El", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("matches several stops"))
            }
        }
    }

    static let feedWithoutAccessibility: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://a.example,America/Guayaquil\n",
        "stops.txt":
            "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,101,Norte,-0.20,-78.50\nS2,102,Sur,-0.25,-78.52\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,7,Norte – Sur,3\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20260101,20271231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Sur\nR1,WK,T2,Sur\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:10:00,08:10:00,S1,1\nT1,10:55:00,10:55:00,S2,2\n"
            + "T2,09:10:00,09:10:00,S1,1\nT2,11:55:00,11:55:00,S2,2\n",
    ]

    @Test func stepFreeOnAFeedThatSaysNothingAboutItSaysSo() async throws {
        let feed = TemporaryFolder.make("no-accessibility-feed", files: Self.feedWithoutAccessibility)
        let path = TemporaryFolder.make("no-accessibility").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            let (status, page) = try await Self.body(client, "/plan?from=101&to=102&wheelchair=true&lang=en")
            #expect(status == .ok)
            #expect(page.contains("does not say which stops or vehicles are step-free"), "\(page)")
            #expect(!page.contains("No step-free journey found"))
            // The usual journeys, 2 h 45 min long.
            #expect(page.contains("Option 1 · 2 h 45 min · direct"), "\(page)")
        }
        // The sample network does say: there, step-free keeps its own wording.
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let (_, page) = try await Self.body(client, "/plan?from=1091&to=1011&wheelchair=true&lang=en")
            #expect(!page.contains("does not say which stops or vehicles are step-free"))
            #expect(page.contains("Step-free journeys only"))
        }
    }

    @Test func theTimetablePagesHaveTheSiteBarLabelledTripsAndAStickyStopColumn() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let (status, page) = try await Self.body(client, "/r/MQ-L1/timetable?lang=en")
            #expect(status == .ok)
            #expect(page.contains("<header class=\"bar noprint\"><a class=\"home\" href=\"/?lang=en\">"))
            #expect(page.contains("<link rel=\"stylesheet\" href=\"/style.css\">"))
            #expect(page.contains("href=\"/r/MQ-L1?lang=en\""))
            // Every trip column labelled: a frequency, a train number or the first time.
            let head = try #require(
                page.components(separatedBy: "<thead>").dropFirst().first?
                    .components(separatedBy: "</thead>").first)
            let labels = head.components(separatedBy: "<th scope=\"col\">").dropFirst().map { $0.prefix { $0 != "<" } }
            #expect(labels.count > 2 && labels.allSatisfy { !$0.isEmpty }, "\(labels)")
            #expect(labels.dropFirst().contains { $0.first?.isNumber == true }, "\(labels)")
            let (_, stopPage) = try await Self.body(client, "/s/1091/timetable?lang=en")
            #expect(stopPage.contains("<header class=\"bar noprint\">"))
            #expect(stopPage.contains("<main><div class=\"intro\">"))
            let (_, css) = try await Self.body(client, "/timetable.css")
            #expect(css.contains("position: sticky; left: 0;"))
        }
    }

    @Test func theStylesheetDrawsRadioButtonsAndBoxesSmallAndButtonsOnOneLine() {
        let css = Stylesheet.css
        #expect(css.contains("label.choice input{width:1.35rem;height:1.35rem;min-height:0"))
        #expect(css.contains("button{white-space:nowrap;overflow-wrap:normal;flex:none}"))
    }
}
