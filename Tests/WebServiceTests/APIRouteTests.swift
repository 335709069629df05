import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Testing
import WebService

/// The JSON API in process: answers, encodings shared with the command line, errors as problem+json.
@Suite struct APIRouteTests {
    @Test func healthAnswersWithTheFeedHash() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let body = try TestSupport.json(response.body)
                #expect(body["status"] as? String == "ok")
                #expect((body["feed_hash"] as? String)?.isEmpty == false)
            }
        }
    }

    /// `/api/v1/stops/{id}` is byte for byte what `kiosk lookup --json` prints for the same stop and moment;
    /// `/api/v1/plan` what `kiosk plan --json` prints.
    @Test func stopViewAndPlanMatchTheCommandLineByteForByte() async throws {
        let database = TestSupport.sampleDatabase
        let lookup = try Programs.runKiosk([
            "lookup", "1091", "--at", "2026-11-25T08:00", "--window", "30", "--json", "--db", database,
        ])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        let plan = try Programs.runKiosk([
            "plan", "1091", "Cumbayá", "--at", "2026-11-25T08:00", "--json", "--db", database,
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/stops/1091?at=2026-11-25T08:00&window=30", method: .get) {
                response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == lookup.stdout)
                #expect(response.headers[.cacheControl] == "public, max-age=60")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
            }
            try await client.execute(
                uri: "/api/v1/plan?from=1091&to=Cumbay%C3%A1&at=2026-11-25T08%3A00", method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == plan.stdout)
            }
        }
    }

    @Test func etagGivesNotModified() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let tag = try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                #expect(response.status == .ok)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/v1/stops/1091", method: .get, headers: [.ifNoneMatch: tag]) {
                response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
                #expect(response.headers[.cacheControl] == "public, max-age=60")
            }
            try await client.execute(
                uri: "/api/v1/stops/1091", method: .get, headers: [.ifNoneMatch: "\"0000000000000000\""]
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test(arguments: [
        ("/api/v1/stops/1091?at=tomorrow", "cannot read the time 'tomorrow'"),
        ("/api/v1/stops/1091?window=0", "window must be a whole number between 1 and 1440"),
        ("/api/v1/stops/1091?window=abc", "window must be a whole number between 1 and 1440"),
        ("/api/v1/stops/1091?lang=fr", "lang must be 'es' or 'en'"),
        ("/api/v1/stops/1091?at=2030-01-01T08:00", "outside the timetable"),
        ("/api/v1/stops?near=91,0", "near must be 'latitude,longitude'"),
        ("/api/v1/stops", "give q (a stop name, code or ID) or near"),
        ("/api/v1/plan?from=1091", "the query parameter 'to' is required"),
        ("/api/v1/plan?from=1091&to=1091", "the same stop"),
        ("/api/v1/plan?from=1091&to=1011&max_transfers=9", "max_transfers must be a whole number between 0 and 8"),
        ("/api/v1/resolve", "the query parameter 'payload' is required"),
        ("/api/v1/stops?q=%ZZ", "malformed percent-encoding"),
        ("/api/v1/stops/10%9", "malformed percent-encoding"),
    ])
    func badValuesAreProblem400s(uri: String, detail: String) async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try TestSupport.json(response.body)
                #expect(body["status"] as? Int == 400)
                #expect((body["detail"] as? String)?.contains(detail) == true, "\(uri): \(body["detail"] ?? "")")
                #expect(body["title"] as? String == "Bad request")
            }
        }
    }

    @Test func unknownStopIs404WithSuggestions() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/stops/1019", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try TestSupport.json(response.body)
                #expect((body["detail"] as? String)?.contains("no such stop: '1019'") == true)
                #expect(((body["suggestions"] as? [[String: Any]]) ?? []).isEmpty == false)
            }
            try await client.execute(uri: "/api/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func otherMethodsAre405WithAllow() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            for method: HTTPRequest.Method in [.post, .put, .delete, .patch] {
                try await client.execute(uri: "/api/v1/stops/1091", method: method) { response in
                    #expect(response.status == .methodNotAllowed)
                    #expect(response.headers[.allow] == "GET, HEAD")
                    #expect(response.headers[.contentType] == "application/problem+json")
                }
            }
        }
    }

    @Test func headAnswersWithoutABody() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            let length = try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                response.headers[.contentLength]
            }
            try await client.execute(uri: "/api/v1/stops/1091", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == length)
            }
        }
    }

    @Test func searchByNameIgnoresAccentsAndFindsCodes() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/stops?q=cumbaya", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                let stops = try #require(body["stops"] as? [[String: Any]])
                let first = try #require(stops.first)
                #expect((first["stop"] as? [String: Any])?["name"] as? String == "Cumbayá")
                #expect((first["page"] as? String)?.hasPrefix("/s/") == true)
            }
            try await client.execute(uri: "/api/v1/stops?q=1091", method: .get) { response in
                let body = try TestSupport.json(response.body)
                let first = try #require((body["stops"] as? [[String: Any]])?.first)
                #expect(first["match"] as? String == "id_or_code")
                #expect(first["page"] as? String == "/s/1091")
            }
        }
    }

    @Test func nearbyStopsByCoordinates() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            // El Ejido (1091) in the sample network.
            let stop = try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                try #require(try TestSupport.json(response.body)["stop"] as? [String: Any])
            }
            let latitude = try #require(stop["latitude"] as? Double)
            let longitude = try #require(stop["longitude"] as? Double)
            try await client.execute(uri: "/api/v1/stops?near=\(latitude),\(longitude)&radius=300", method: .get) {
                response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                let stops = try #require(body["stops"] as? [[String: Any]])
                let first = try #require(stops.first)
                #expect((first["stop"] as? [String: Any])?["code"] as? String == "1091")
                #expect(first["distance_meters"] as? Int == 0)
                #expect(body["radius_meters"] as? Int == 300)
            }
        }
    }

    @Test func resolveGivesTheStopAndTheVerdict() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(
                uri: "/api/v1/resolve?payload=https%3A%2F%2Ftransit.example%2Fs%2F1091", method: .get
            ) { response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                #expect(body["status"] as? String == "stop")
                #expect((body["stop"] as? [String: Any])?["code"] as? String == "1091")
                #expect((body["reference"] as? [String: Any])?["signature"] as? String == "unsigned")
                #expect((body["links"] as? [String: Any])?["page"] as? String == "/s/1091")
            }
            // A damaged signature is forged, never looked up.
            try await client.execute(
                uri: "/api/v1/resolve?payload=https%3A%2F%2Ftransit.example%2Fs%2F1091%3Fk%3D00%26s%3Dxx", method: .get
            ) { response in
                let body = try TestSupport.json(response.body)
                #expect(body["status"] as? String == "forged")
                #expect(body["stop"] is NSNull)
            }
            try await client.execute(uri: "/api/v1/resolve?payload=WIFI%3AS%3Ax%3B%3B", method: .get) { response in
                let body = try TestSupport.json(response.body)
                #expect(body["status"] as? String == "not_a_stop_code")
            }
        }
    }

    @Test func feedDescribesTheDatabase() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/feed", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                #expect(body["service_start"] as? String == "2026-01-01")
                #expect(body["service_end"] as? String == "2027-12-31")
                #expect(body["time_zone"] as? String == "America/Guayaquil")
                #expect((body["imported_at"] as? String)?.isEmpty == false)
                #expect(body["database_generation"] as? Int == 0)
            }
        }
    }

    @Test func corsAllowListAndPreflight() async throws {
        var config = KioskConfig()
        config.server.corsOrigins = ["https://signage.example"]
        try await TestSupport.withRouter(try TestSupport.service(config: config)) { client in
            try await client.execute(
                uri: "/api/v1/feed", method: .get, headers: [.origin: "https://signage.example"]
            ) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://signage.example")
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            try await client.execute(uri: "/api/v1/feed", method: .get, headers: [.origin: "https://evil.example"]) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            try await client.execute(
                uri: "/api/v1/feed", method: .options,
                headers: [.origin: "https://signage.example", .accessControlRequestMethod: "GET"]
            ) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS")
            }
            try await client.execute(
                uri: "/api/v1/feed", method: .options,
                headers: [.origin: "https://evil.example", .accessControlRequestMethod: "GET"]
            ) { response in
                #expect(response.status == .forbidden)
            }
        }
    }
}
