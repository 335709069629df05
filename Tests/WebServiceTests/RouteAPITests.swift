import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import Testing
import TransitModel
import WebService

/// `/api/v1/agencies`, `/api/v1/routes`, `/api/v1/routes/{id}` and its map (issue 25), decoded into the values the
/// command line prints; caching like the stop view; 404 for an unknown route, 400 for bad parameters.
@Suite struct RouteAPITests {
    struct Agencies: Decodable {
        struct Agency: Decodable {
            var id: String
            var name: String
            var url: String?
            var phone: String?
            var route_count: Int
            var routes: String
        }
        var agencies: [Agency]
    }

    /// What `/api/v1/routes/{id}` adds to the `RouteDetail` it shares with `kiosk route --json`.
    struct RouteExtras: Decodable {
        struct Links: Decodable {
            var page: String
            var map: String
            var diagram: String
        }
        var patterns: [RoutePattern]
        var stops: [StopInfo]
        var week: RouteWeek
        var links: Links
    }

    struct ProblemBody: Decodable {
        var status: Int
        var title: String
        var detail: String
    }

    static func get(
        _ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: Data) {
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, response.headers, Data(response.body.readableBytesView))
        }
    }

    @Test func agenciesAndTheCatalogMatchTheCommandLine() async throws {
        let routes = try Programs.runKiosk(["routes", "--json", "--db", TestSupport.sampleDatabase])
        #expect(routes.status == 0, "\(routes.stderr)")
        let search = try Programs.runKiosk([
            "routes", "--search", "cumbaya", "--json", "--db", TestSupport.sampleDatabase,
        ])
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let agencies = try await Self.get(client, "/api/v1/agencies")
            #expect(agencies.status == .ok)
            #expect(agencies.headers[.contentType] == "application/json; charset=utf-8")
            let decoded = try JSONDecoder().decode(Agencies.self, from: agencies.body)
            #expect(decoded.agencies.map(\.id) == ["MQ", "EPMTPQ"])
            #expect(decoded.agencies[0].phone == "+593 2 000 1111" && decoded.agencies[0].route_count == 1)
            #expect(decoded.agencies[1].routes == "/api/v1/routes?agency=EPMTPQ")

            let all = try await Self.get(client, "/api/v1/routes")
            #expect(all.status == .ok && String(decoding: all.body, as: UTF8.self) == routes.stdout)
            #expect(all.headers[.cacheControl] == "public, max-age=60")
            let catalog = try JSONDecoder().decode(RouteCatalog.self, from: all.body)
            #expect(catalog.agencies.flatMap(\.routes).map(\.label).prefix(3) == ["L1", "TB", "EV"])

            let found = try await Self.get(client, "/api/v1/routes?q=Cumbay%C3%A1")
            #expect(String(decoding: found.body, as: UTF8.self) == search.stdout.replacingOccurrences(
                of: "\"search\" : \"cumbaya\"", with: "\"search\" : \"Cumbayá\""))
            let matches = try JSONDecoder().decode(RouteCatalog.self, from: found.body)
            #expect(matches.agencies.flatMap(\.routes).map(\.id) == ["EP-A1"])

            let one = try JSONDecoder().decode(
                RouteCatalog.self, from: try await Self.get(client, "/api/v1/routes?agency=MQ").body)
            #expect(one.agencies.map(\.agency.id) == ["MQ"] && one.agencyFilter == "MQ")
        }
    }

    @Test func aRouteWithItsPatternsStopsAndWeek() async throws {
        let cli = try Programs.runKiosk([
            "route", "L1", "--date", "2026-11-25", "--json", "--db", TestSupport.sampleDatabase,
        ])
        #expect(cli.status == 0, "\(cli.stderr)")
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let answer = try await Self.get(client, "/api/v1/routes/L1?date=2026-11-25")
            #expect(answer.status == .ok)
            #expect(answer.headers[.eTag] != nil && answer.headers[.cacheControl] == "public, max-age=60")
            // The detail is the command line's, field for field.
            let detail = try JSONDecoder().decode(RouteDetail.self, from: answer.body)
            #expect(detail == (try JSONDecoder().decode(RouteDetail.self, from: Data(cli.stdout.utf8))))
            #expect(detail.route.id == "MQ-L1" && detail.serviceDate == "2026-11-25")
            let extras = try JSONDecoder().decode(RouteExtras.self, from: answer.body)
            #expect(extras.patterns.filter(\.main).count == detail.directions.count)
            for (direction, main) in zip(detail.directions, extras.patterns.filter(\.main)) {
                #expect(main.stopIDs == direction.stops.map(\.id))
            }
            let stopIDs = Set(extras.stops.map(\.id))
            #expect(extras.patterns.allSatisfy { Set($0.stopIDs).isSubset(of: stopIDs) })
            #expect(extras.week.weekStart == "2026-11-23")
            #expect(extras.week.dayTypes.flatMap(\.weekdays).sorted() == Array(1...7))
            #expect(extras.links.page == "/r/MQ-L1" && extras.links.map == "/api/v1/routes/MQ-L1/map.svg")

            // Caching: the same answer again is 304 with its ETag; the route_id gives the same bytes.
            let tag = try #require(answer.headers[.eTag])
            let again = try await Self.get(client, "/api/v1/routes/L1?date=2026-11-25", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.isEmpty)
            let byID = try await Self.get(client, "/api/v1/routes/MQ-L1?date=2026-11-25")
            #expect(byID.body == answer.body)
            // Without a date: the server's today (2026-11-25 in the tests).
            let today = try JSONDecoder().decode(RouteDetail.self, from: try await Self.get(client, "/api/v1/routes/L1").body)
            #expect(today.serviceDate == "2026-11-25")
        }
    }

    @Test func unknownRoutesAre404AndBadParameters400() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            for (uri, status, words) in [
                ("/api/v1/routes/NO-SUCH-ROUTE", HTTPResponse.Status.notFound, "no such route"),
                ("/api/v1/routes/L2", .notFound, "did you mean: L1"),
                ("/api/v1/routes/NO-SUCH/map.svg", .notFound, "no such route"),
                ("/api/v1/routes/L1?date=2026-02-30", .badRequest, "date must be a date"),
                ("/api/v1/routes/L1?date=2031-01-01", .badRequest, "2031-01-01"),
                ("/api/v1/routes?agency=Nadie", .badRequest, "no such agency"),
                ("/api/v1/routes?q=%2B%2B", .badRequest, "no letters or digits"),
                ("/api/v1/routes?q=%01", .badRequest, "control characters"),
                ("/api/v1/routes/L1/map.svg?legend=short", .badRequest, "legend"),
                ("/api/v1/routes/L1/map.svg?from=no-such-stop", .notFound, "no-such-stop"),
                ("/api/v1/routes/%ZZ", .badRequest, "percent-encoding"),
            ] {
                let answer = try await Self.get(client, uri)
                #expect(answer.status == status, "\(uri)")
                #expect(answer.headers[.contentType] == "application/problem+json", "\(uri)")
                let problem = try JSONDecoder().decode(ProblemBody.self, from: answer.body)
                #expect(problem.status == Int(status.code), "\(uri)")
                #expect(problem.detail.contains(words), "\(uri): \(problem.detail)")
            }
        }
    }

    @Test func theRouteMapHighlightsTheViewersStop() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let map = try await Self.get(client, "/api/v1/routes/L1/map.svg?from=1091&lang=en&legend=none")
            #expect(map.status == .ok)
            #expect(map.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(map.headers[.eTag] != nil && map.headers[.cacheControl] == "public, max-age=60")
            let svg = String(decoding: map.body, as: UTF8.self)
            #expect(svg.contains("<title id=\"title\">Map of route L1 Quitumbe – El Labrador</title>"))
            #expect(svg.contains("class=\"this-stop\"") && svg.contains("Your stop: El Ejido"))
            #expect(!svg.contains("class=\"legend\""))
            let plain = String(decoding: try await Self.get(client, "/api/v1/routes/L1/map.svg").body, as: UTF8.self)
            #expect(!plain.contains("class=\"this-stop\"") && plain.contains("class=\"legend\""))
            #expect(plain.contains("xml:lang=\"es\""))
        }
    }
}
