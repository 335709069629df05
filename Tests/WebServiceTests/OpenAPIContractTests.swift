import Foundation
import HummingbirdTesting
import KioskTesting
import Testing

/// The OpenAPI document is the contract: valid OpenAPI 3.1, and every endpoint's responses (each status the check
/// provokes) validate against its schemas, required headers included. `kiosk/tests/web/check_openapi.py` does both
/// against a running `kiosk serve` (openapi-spec-validator and openapi-schema-validator from PyPI, installed by
/// kiosk/setup.sh).
@Suite struct OpenAPIContractTests {
    /// Two servers on the sample network: one on today's clock, and one whose clock (`--at`) is past the sample's
    /// calendar, so that its stop views, plans, journey maps and speech are 503s with `Retry-After`. The check
    /// also sends other methods (TRACE, POST, DELETE, PROPFIND, OPTIONS without Origin, PUT, PATCH) for the
    /// document's `x-other-methods` 405 with `Allow`, and the map pictures with `legend=none`.
    @Test func everyEndpointAnswersAsTheDocumentSays() throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let (server, base) = try TestSupport.startServer(["serve", "--port", "0", "--db", TestSupport.sampleDatabase])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk serve did not start: \(server.output)")
        let (expiredServer, expiredBase) = try TestSupport.startServer([
            "serve", "--port", "0", "--db", TestSupport.sampleDatabase, "--at", Self.pastTheCalendar,
        ])
        defer { expiredServer.signal(SIGTERM); _ = expiredServer.wait(limit: 60) }
        let expiredURL = try #require(expiredBase, "kiosk serve --at did not start: \(expiredServer.output)")
        let script = Repository.root.appendingPathComponent("kiosk/tests/web/check_openapi.py").path
        let result = try Programs.run(python, [script, url, "--expired", expiredURL], limit: 300)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(" 0 failures"), "\(result.stdout)")
        #expect(result.stdout.contains("on the expired clock)"), "the expired server's requests ran: \(result.stdout)")
    }

    /// After the sample's calendar (2026-01-01 to 2027-12-31), as `OutOfServicePageTests.expired`.
    static let pastTheCalendar = "2028-03-01T08:00"

    @Test func theDocumentIsServedAsJSON() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let document = try TestSupport.json(response.body)
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: Any])
                for path in [
                    "/health", "/api/v1/stops/{id}", "/api/v1/stops", "/api/v1/plan", "/api/v1/resolve", "/api/v1/feed",
                ] {
                    #expect(paths[path] != nil, "\(path)")
                }
            }
        }
    }

    /// The contract is a file in the repository, served byte for byte as it is.
    @Test func theServedDocumentIsTheContractFile() async throws {
        let file = try Data(contentsOf: Self.contractFile)
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: "/api/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(Data(response.body.readableBytesView) == file)
            }
        }
    }

    /// Shared parameters, answers and schemas sit under `components`; every `$ref` names one that is there, and
    /// every shared one is used.
    @Test func everyReferenceNamesAComponent() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: Self.contractFile)) as? [String: Any])
        var references: [String] = []
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        #expect(references.count > 50)
        for reference in Set(references) {
            let parts = reference.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components", "\(reference)")
            guard parts.count == 4 else { continue }
            let section = (document["components"] as? [String: Any])?[parts[2]] as? [String: Any]
            #expect(section?[parts[3]] != nil, "\(reference) names nothing in \(Self.contractFile.path)")
        }
        let components = try #require(document["components"] as? [String: Any])
        for kind in ["parameters", "responses", "schemas"] {
            let names = try #require(components[kind] as? [String: Any], "components/\(kind)").keys
            for name in names {
                #expect(references.contains("#/components/\(kind)/\(name)"), "components/\(kind)/\(name) is unused")
            }
        }
    }

    /// Every 503 the document lists is the shared `Unavailable` answer, which requires `Retry-After` (the
    /// server sends it on every 503), and the 405 every other method gets is `MethodNotAllowed` with `Allow`.
    @Test func unavailableAndOtherMethodsNameTheirHeaders() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: Self.contractFile)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var unavailable = 0
        for (path, item) in paths {
            let responses = (item["get"] as? [String: Any])?["responses"] as? [String: [String: Any]] ?? [:]
            guard let answer = responses["503"] else { continue }
            unavailable += 1
            #expect(answer["$ref"] as? String == "#/components/responses/Unavailable", "\(path)'s 503")
        }
        #expect(unavailable >= 5, "stop view, plan, speech, journey map, health: \(unavailable)")
        let components = try #require(document["components"] as? [String: Any])
        let responses = try #require(components["responses"] as? [String: [String: Any]])
        let retryAfter = (responses["Unavailable"]?["headers"] as? [String: [String: Any]])?["Retry-After"]
        #expect(retryAfter?["required"] as? Bool == true)
        #expect((retryAfter?["schema"] as? [String: Any])?["type"] as? String == "integer")
        let allow = (responses["MethodNotAllowed"]?["headers"] as? [String: [String: Any]])?["Allow"]
        #expect(allow?["required"] as? Bool == true)
        #expect((allow?["schema"] as? [String: Any])?["const"] as? String == "GET, HEAD")
        let otherMethods = try #require(document["x-other-methods"] as? [String: Any], "x-other-methods")
        let answer = (otherMethods["responses"] as? [String: [String: Any]])?["405"]
        #expect(answer?["$ref"] as? String == "#/components/responses/MethodNotAllowed")
    }

    static var contractFile: URL { Repository.root.appendingPathComponent("Sources/WebService/API/openapi.json") }
}
