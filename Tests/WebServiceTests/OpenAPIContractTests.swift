import Foundation
import HummingbirdTesting
import KioskTesting
import Testing

/// The OpenAPI document is the contract: valid OpenAPI 3.1, and every endpoint's responses (each status the check
/// provokes) validate against its schemas. `kiosk/tests/web/check_openapi.py` does both against a running
/// `kiosk serve` (openapi-spec-validator and openapi-schema-validator from PyPI, installed by kiosk/setup.sh).
@Suite struct OpenAPIContractTests {
    @Test func everyEndpointAnswersAsTheDocumentSays() throws {
        let python = try #require(Programs.which("python3"), "python3 is needed (kiosk/setup.sh installs it)")
        let (server, base) = try TestSupport.startServer(["serve", "--port", "0", "--db", TestSupport.sampleDatabase])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let url = try #require(base, "kiosk serve did not start: \(server.output)")
        let script = Repository.root.appendingPathComponent("kiosk/tests/web/check_openapi.py").path
        let result = try Programs.run(python, [script, url], limit: 300)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("0 failures"))
    }

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
}
