import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Testing
import TransitModel
import TransitStore
import WebService

/// Clients and feeds that do not play along (issue 27): odd methods, HTTP/1.0, error pages, impossible dates,
/// right-to-left overrides, stop codes with slashes, names of ten thousand characters, busy speech.
@Suite struct HostileClientTests {
    /// The headers every answer carries (`SecurityHeadersMiddleware`), by canonical name.
    static let securityHeaders = [
        ("content-security-policy", "default-src 'none'"), ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY"),
    ]

    static func expectSecurityHeaders(_ response: TestResponse, _ what: String) {
        for (name, value) in securityHeaders {
            let field = response.headers.first { $0.name.canonicalName == name }?.value
            #expect(field?.contains(value) == true, "\(what): \(name) is \(field ?? "missing")")
        }
    }

    /// A feed of three stops close together, for what the sample network does not have.
    static func database(stops: [(id: String, code: String, name: String)]) throws -> String {
        let stopRows = stops.enumerated().map { index, stop in
            "\(stop.id),\(stop.code),\"\(stop.name.replacingOccurrences(of: "\"", with: "\"\""))\",-0.20\(index),-78.50"
        }
        let files = [
            "agency.txt":
                "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://agency.example,America/Guayaquil\n",
            "stops.txt": "stop_id,stop_code,stop_name,stop_lat,stop_lon\n" + stopRows.joined(separator: "\n") + "\n",
            "routes.txt":
                "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,7,Siete,3\n",
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20260101,20271231\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Norte\n",
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + stops.enumerated().map { index, stop in
                    "T1,08:1\(index):00,08:1\(index):00,\(stop.id),\(index + 1)"
                }.joined(separator: "\n") + "\n",
        ]
        let feed = TemporaryFolder.make("issue27-feed", files: files)
        let path = TemporaryFolder.make("issue27").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return path
    }

    // MARK: - Methods

    @Test(arguments: [
        ("/s/1091", HTTPRequest.Method.trace), ("/s/1091", .connect), ("/api/v1/stops/1091", .trace),
        ("/api/v1/stops/1091", .connect), ("/nothing", .trace), ("/api/v1/feed", HTTPRequest.Method("PROPFIND")!),
    ])
    func otherMethodsAre405WithAllow(path: String, method: HTTPRequest.Method) async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: path, method: method) { response in
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == "GET, HEAD", "\(method) \(path)")
                if path.hasPrefix("/api/") {
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(String(buffer: response.body).contains("\"status\":405"))
                }
                Self.expectSecurityHeaders(response, "\(method) \(path)")
            }
        }
    }

    // MARK: - Security headers on every answer

    @Test(arguments: [
        ("/nothing", 404), ("/api/v1/nothing", 404), ("/s/%ZZ", 400), ("/?q=%FF", 400),
        ("/api/v1/stops/1091?at=x", 400),
        ("/s/nowhere", 404), ("/s/1091", 200), ("/api/v1/stops/1091", 200),
    ])
    func everyAnswerCarriesTheSecurityHeaders(uri: String, status: Int) async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(Int(response.status.code) == status, "\(uri)")
                Self.expectSecurityHeaders(response, uri)
            }
        }
    }

    // MARK: - HTTP/1.0 and Connection: close

    @Test(arguments: [
        "GET /style.css HTTP/1.0\r\n\r\n", "GET /style.css HTTP/1.0\r\nConnection: close\r\n\r\n",
        "GET /style.css HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n",
    ])
    func aConnectionNotKeptAliveIsClosedAfterTheAnswer(request: String) async throws {
        var config = KioskConfig()
        config.server.idleConnectionSeconds = 3600  // beyond the hang guard: only the fix closes it
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service(config: config)) { port, _ in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send(request)
            let received = await offPool { socket.readToEnd() }
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
            #expect(received.ending == .closed, "after answering \(request.debugDescription): \(received.ending)")
        }
    }

    @Test func anHTTP10RequestAskingForKeepAliveKeepsItsConnection() async throws {
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service()) { port, _ in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /style.css HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(socket.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200"))
            // The same connection answers a second request.
            socket.send("GET /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let rest = await offPool { socket.readToEnd() }
            #expect(String(decoding: rest.bytes, as: UTF8.self).contains("HTTP/1.1 200"))
        }
    }

    @Test func aRequestTheServerCannotParseGetsTheSecurityHeaders() async throws {
        // A request that never parses never resets the idle timer, so on a loaded machine the idle timeout could
        // close the connection before the handler writes its 400: only the answer may close it here.
        var config = KioskConfig()
        config.server.idleConnectionSeconds = 3600
        try await ConnectionLimitTests.withLiveServer(try TestSupport.service(config: config)) { port, _ in
            let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
            socket.send("GET /style.css HTTP/1.1\r\nHost x\r\n\r\n")
            let received = await offPool { socket.readToEnd() }
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(200)) (\(received.ending))")
            #expect(text.lowercased().contains("x-content-type-options: nosniff"), "\(text.prefix(400))")
            #expect(text.lowercased().contains("content-security-policy: default-src 'none'"), "\(text.prefix(400))")
        }
    }

    // MARK: - at= out of range

    @Test(arguments: ["0001-01-01T00:00", "9999-12-31T23:59", "1899-12-31T23:59"])
    func anAtFarFromAnyTimetableNamesTheValueAndTheRange(at: String) async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            for uri in ["/api/v1/stops/1091?at=\(at)", "/api/v1/plan?from=1091&to=1011&at=\(at)"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    let body = String(buffer: response.body)
                    #expect(body.contains("'\(at)'"), "\(body)")
                    #expect(body.contains("1900-01-01T00:00 to 2199-12-31T23:59"), "\(body)")
                    #expect(!body.contains("daylight saving"), "\(body)")
                }
            }
            try await client.execute(uri: "/plan?from=1091&to=1011&at=\(at)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("1900-01-01T00:00 to 2199-12-31T23:59"))
            }
        }
    }

    // MARK: - Feed text

    @Test func anUnterminatedRightToLeftOverrideCannotMoveTheCode() async throws {
        let name = "Calle \u{202E}Uno"
        let path = try Self.database(stops: [("S1", "77", name), ("S2", "78", "Dos")])
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            try await client.execute(uri: "/s/77", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(
                    page.contains("<h1><bdi>\(name)</bdi> <bdi class=\"code\">77</bdi></h1>"), "\(page.prefix(1500))")
            }
            // The nearby list and the search results isolate it too.
            try await client.execute(uri: "/s/78", method: .get) { response in
                #expect(String(buffer: response.body).contains("<bdi class=\"name\">\(name)</bdi>"))
            }
            try await client.execute(uri: "/?q=Calle", method: .get) { response in
                #expect(String(buffer: response.body).contains("<bdi class=\"name\">\(name)</bdi>"))
            }
            // The pictures drop the override: the code drawn after the name stays where it is.
            for uri in ["/api/v1/stops/S1/map.svg", "/api/v1/routes/R1/diagram.svg?stop=S1"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let svg = String(buffer: response.body)
                    #expect(svg.contains("Calle Uno"), "\(uri)")
                    #expect(!svg.unicodeScalars.contains("\u{202E}"), "\(uri)")
                }
            }
        }
    }

    @Test func aStopCodeWithSlashesGetsLinksThatWork() async throws {
        let path = try Self.database(stops: [("S1", "../../14", "Barra"), ("S2", "15", "Vecina")])
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            var href = ""
            try await client.execute(uri: "/s/15", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("href=\"/s/..%2F..%2F14?lang=es\""), "\(page)")
                href = "/s/..%2F..%2F14?lang=es"
            }
            try await client.execute(uri: href, method: .get) { response in
                #expect(response.status == .ok, "\(href)")
                let page = String(buffer: response.body)
                #expect(page.contains("Barra"))
                // Its own links (the other language) keep the encoding.
                #expect(page.contains("href=\"/s/..%2F..%2F14?lang=en\""), "\(page.prefix(1200))")
            }
            // A path that climbs is still nothing.
            for uri in ["/s/%2e%2e", "/s/..", "/s/..%2F..%2Fetc%2Fpasswd"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
        }
    }

    @Test func aTenThousandCharacterNameIsCutOnThePageAndKeptInTheTitle() async throws {
        let name = String(repeating: "Larga ", count: 1667) + "Fin"
        let path = try Self.database(stops: [("S1", "77", name), ("S2", "78", "Dos")])
        try await TestSupport.withRouter(try TestSupport.service(database: path)) { client in
            try await client.execute(uri: "/s/77", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("<title>\(name)</title>"))
                let heading = try #require(
                    page.range(of: "<h1>").flatMap { start in
                        page.range(of: "</h1>", range: start.upperBound..<page.endIndex).map {
                            String(page[start.upperBound..<$0.lowerBound])
                        }
                    })
                #expect(heading.contains("title=\"\(name)\""))
                let shown = heading.replacingOccurrences(of: " title=\"\(name)\"", with: "")
                #expect(shown.count < 250, "\(shown.count) characters in the heading")
                #expect(shown.contains("…"))
            }
            try await client.execute(uri: "/s/78", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(!page.contains(name), "the nearby list shows the whole name")
            }
            // The pictures draw a few dozen characters of it, not 120 that run across an 800-pixel map.
            for uri in ["/api/v1/stops/S1/map.svg?legend=none", "/api/v1/routes/R1/diagram.svg?stop=S1"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let svg = String(buffer: response.body)
                    let texts = svg.components(separatedBy: "</text>").dropLast().compactMap {
                        $0.components(separatedBy: ">").last
                    }
                    #expect(texts.contains { $0.hasPrefix("Larga Larga") }, "\(uri)")
                    #expect(texts.allSatisfy { $0.count <= 60 }, "\(uri): \(texts.map(\.count))")
                }
            }
        }
    }

    // MARK: - 503s say when to come back

    @Test func busySpeechSaysWhenToAskAgain() async throws {
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        let service = try WebService(
            config: KioskConfig(), databases: databases, now: { TestSupport.morning }, speechWaitingLimit: 0)
        try await TestSupport.withRouter(service) { client in
            try await client.execute(uri: "/api/v1/stops/1091/speech", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "5")
            }
        }
    }

    @Test func anOutOfDateTimetableSaysWhenToAskAgain() async throws {
        let service = try TestSupport.service(now: try OutOfServicePageTests.quito("2028-03-01T08:00"))
        try await TestSupport.withRouter(service) { client in
            for uri in ["/api/v1/stops/1091", "/api/v1/stops/1091/speech"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .serviceUnavailable, "\(uri)")
                    #expect(response.headers[.retryAfter] == "3600", "\(uri)")
                    Self.expectSecurityHeaders(response, uri)
                }
            }
        }
    }
}
