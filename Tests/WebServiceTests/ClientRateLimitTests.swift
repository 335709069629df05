import Foundation
import Hummingbird
import KioskConfiguration
import Logging
import NIOCore
import Synchronization
import Testing
import TransitModel
import TransitStore

@testable import WebService

/// Per-client limits on plans, speech and maps for a server with no proxy in front (issue 26): token buckets per
/// address on an injected clock (no sleeps), a bounded table, `429` with `Retry-After`, the proxy's headers
/// believed only from `trusted_proxies`, and the `[server]` keys.
@Suite struct ClientRateLimitTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let seconds = Mutex(1000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var read: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
    }

    static func address(_ text: String) -> ClientAddress { ClientAddress(text)! }

    @Test func aBucketEmptiesRefillsAndSaysWhenToComeBack() {
        let clock = Clock()
        let limiter = ClientRateLimiter(
            rules: [.plan: .init(perMinute: 20, burst: 3)], maxClients: 100, now: clock.read)
        let phone = Self.address("10.0.0.1")
        for _ in 0..<3 { #expect(limiter.take(.plan, for: phone) == .allowed) }
        #expect(limiter.take(.plan, for: phone) == .limited(retryAfter: 3), "20 a minute: one token every 3 s")
        // Another address, and another kind for the same address, are not affected.
        #expect(limiter.take(.plan, for: Self.address("10.0.0.2")) == .allowed)
        #expect(limiter.take(.speech, for: phone) == .allowed, "speech is not limited by this limiter")
        clock.advance(2)
        #expect(limiter.take(.plan, for: phone) == .limited(retryAfter: 1))
        clock.advance(1)
        #expect(limiter.take(.plan, for: phone) == .allowed)
        #expect(limiter.take(.plan, for: phone) == .limited(retryAfter: 3))
        // A long pause refills up to the burst, no more.
        clock.advance(3600)
        for _ in 0..<3 { #expect(limiter.take(.plan, for: phone) == .allowed) }
        #expect(limiter.take(.plan, for: phone) != .allowed)
    }

    @Test func aScanOfManyAddressesCannotGrowTheTable() {
        let clock = Clock()
        let limiter = ClientRateLimiter(rules: [.map: .init(perMinute: 1, burst: 2)], maxClients: 100, now: clock.read)
        let abuser = Self.address("192.0.2.1")
        #expect(limiter.take(.map, for: abuser) == .allowed)
        #expect(limiter.take(.map, for: abuser) == .allowed)
        var largest = 0
        for i in 0..<10_000 {
            // Each address a moment apart; the abuser keeps asking, so it stays among the recently seen.
            clock.advance(0.001)
            _ = limiter.take(.map, for: Self.address("198.51.\(i / 256).\(i % 256)"))
            if i % 50 == 0 { #expect(limiter.take(.map, for: abuser) != .allowed, "at \(i)") }
            largest = max(largest, limiter.count)
        }
        #expect(largest <= 100)
        // Once the addresses have refilled (idle), they go first; the table stays within its bound.
        clock.advance(120)
        for i in 0..<200 { _ = limiter.take(.map, for: Self.address("203.0.113.\(i % 250)")) }
        #expect(limiter.count <= 100)
    }

    @Test func addressesAreParsedAndIPv6CountsByItsSlash64() {
        #expect(Self.address("::ffff:10.0.0.1") == Self.address("10.0.0.1"))
        #expect(Self.address("2001:db8:1:2::1") == Self.address("2001:db8:1:2:ffff::9"), "one /64")
        #expect(Self.address("2001:db8:1:2::1") != Self.address("2001:db8:1:3::1"))
        #expect(Self.address("[2001:db8::1]") == Self.address("2001:db8::1"))
        #expect(ClientAddress("10.0.0") == nil && ClientAddress("example.org") == nil && ClientAddress("") == nil)
        let lan = ClientAddress.Network("10.0.0.0/8")!
        #expect(Self.address("10.200.3.4").isIn(lan) && !Self.address("11.0.0.1").isIn(lan))
        #expect(!Self.address("::1").isIn(lan))
        #expect(Self.address("fd00::5").isIn(ClientAddress.Network("fd00::/8")!))
        #expect(ClientAddress.Network("10.0.0.0/33") == nil)
    }

    @Test func proxyHeadersAreBelievedOnlyFromTrustedProxies() {
        let resolver = ClientAddressResolver(trustedProxies: ["127.0.0.1", "10.1.0.0/16"])
        // A client connecting directly cannot choose its address.
        #expect(
            resolver.client(peer: "198.51.100.7", headers: [.xRealIP: "1.2.3.4", .xForwardedFor: "1.2.3.4"])
                == Self.address("198.51.100.7"))
        // nginx on the box (kiosk/deploy/nginx sets X-Real-IP to its client's address).
        #expect(resolver.client(peer: "127.0.0.1", headers: [.xRealIP: "203.0.113.9"]) == Self.address("203.0.113.9"))
        // X-Forwarded-For: the last address that is not one of ours; what the client wrote before it is ignored.
        #expect(
            resolver.client(peer: "127.0.0.1", headers: [.xForwardedFor: "6.6.6.6, 203.0.113.9, 10.1.2.3"])
                == Self.address("203.0.113.9"))
        // The proxy itself, or a program on the box (the kiosk's own browser): no client named, not limited.
        #expect(resolver.client(peer: "127.0.0.1", headers: [:]) == nil)
        #expect(resolver.client(peer: "127.0.0.1", headers: [.xForwardedFor: "garbage"]) == nil)
        #expect(resolver.client(peer: "127.0.0.1", headers: [.xForwardedFor: "10.1.0.1"]) == nil)
        #expect(resolver.client(peer: nil, headers: [.xRealIP: "203.0.113.9"]) == nil)
    }

    static func exchange(_ port: Int, _ path: String, from client: String) async throws -> String {
        let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
        guard socket.send("GET \(path) HTTP/1.1\r\nHost: x\r\nX-Real-IP: \(client)\r\n\r\n") == .complete else {
            return ""
        }
        let answer = await offPool { socket.readResponse() }
        socket.hangUp()
        return answer
    }

    static func service(_ config: KioskConfig, clock: Clock) throws -> WebService {
        var logger = Logger(label: "test.web")
        logger.logLevel = .critical
        let now = TestSupport.morning
        return try WebService(
            config: config, databases: try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero),
            logger: logger, now: { now }, rateLimitClock: clock.read)
    }

    /// Through the real server: the third map from one client is a 429 problem+json with `Retry-After`, counted in
    /// `/metrics`, while another client is served; the first one is served again once its token is back.
    @Test func aClientOverItsAllowanceGets429WhileAnotherIsServed() async throws {
        var config = KioskConfig()
        config.server.mapRequestsPerMinute = 1
        config.server.mapBurst = 2
        let clock = Clock()
        let map = "/api/v1/stops/1091/map.svg"
        try await ConnectionLimitTests.withLiveServer(try Self.service(config, clock: clock)) { port, _ in
            for _ in 0..<2 {
                let answer = try await Self.exchange(port, map, from: "203.0.113.1")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
            }
            let refused = try await Self.exchange(port, map, from: "203.0.113.1")
            #expect(refused.hasPrefix("HTTP/1.1 429"), "\(refused.prefix(300))")
            #expect(refused.contains("Retry-After: 60\r\n"), "\(refused)")
            #expect(refused.contains("application/problem+json"), "\(refused)")
            #expect(refused.contains("\"status\":429") || refused.contains("\"status\" : 429"), "\(refused)")
            let other = try await Self.exchange(port, map, from: "203.0.113.2")
            #expect(other.hasPrefix("HTTP/1.1 200"), "\(other.prefix(200))")
            // Other endpoints are not limited.
            let stop = try await Self.exchange(port, "/api/v1/stops/1091", from: "203.0.113.1")
            #expect(stop.hasPrefix("HTTP/1.1 200"))
            clock.advance(60)
            let back = try await Self.exchange(port, map, from: "203.0.113.1")
            #expect(back.hasPrefix("HTTP/1.1 200"), "\(back.prefix(200))")
            let metrics = try await Self.exchange(port, "/metrics", from: "203.0.113.3")
            #expect(metrics.contains(#"stopkiosk_rate_limited_total{limit="map"} 1"#), "\(metrics.suffix(2000))")
        }
    }

    /// Without trusted proxies, X-Real-IP is the client's own word: changing it does not escape the limit.
    @Test func aForgedHeaderFromAnUntrustedPeerChangesNothing() async throws {
        var config = KioskConfig()
        config.server.planRequestsPerMinute = 1
        config.server.planBurst = 1
        config.server.trustedProxies = []
        let plan = "/api/v1/plan?from=1091&to=1092"
        try await ConnectionLimitTests.withLiveServer(try Self.service(config, clock: Clock())) { port, _ in
            let first = try await Self.exchange(port, plan, from: "203.0.113.1")
            #expect(!first.hasPrefix("HTTP/1.1 429"), "\(first.prefix(200))")
            let second = try await Self.exchange(port, plan, from: "203.0.113.99")
            #expect(second.hasPrefix("HTTP/1.1 429"), "\(second.prefix(300))")
        }
    }

    /// The kiosk's own browser on loopback (a trusted peer that names no client) is never limited.
    @Test func theBoxItselfIsNotLimited() async throws {
        var config = KioskConfig()
        config.server.mapBurst = 1
        try await ConnectionLimitTests.withLiveServer(try Self.service(config, clock: Clock())) { port, _ in
            for _ in 0..<3 {
                let socket = try RawSocket(port: port, readTimeoutSeconds: ConnectionLimitTests.hangGuardSeconds)
                let answer = await FileLimitTests.exchange(socket, "/api/v1/stops/1091/map.svg")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
            }
        }
    }

    @Test func limitsOffServeEveryone() async throws {
        var config = KioskConfig()
        config.server.rateLimits = false
        config.server.mapBurst = 1
        let service = try Self.service(config, clock: Clock())
        #expect(!service.rateLimiter.isActive)
        try await ConnectionLimitTests.withLiveServer(service) { port, _ in
            for _ in 0..<3 {
                let answer = try await Self.exchange(port, "/api/v1/stops/1091/map.svg", from: "203.0.113.1")
                #expect(answer.hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test func theKeysAreReadAndBadValuesNamed() throws {
        let config = try KioskConfigFile.parse(
            """
            [server]
            rate_limits = true
            plan_requests_per_minute = 30
            plan_burst = 5
            speech_requests_per_minute = 0
            speech_burst = 2
            map_requests_per_minute = 600
            map_burst = 100
            rate_limit_clients = 50000
            trusted_proxies = ["10.0.0.0/8", "::1", "192.0.2.7"]
            """, file: "kiosk.toml")
        #expect(config.server.planRequestsPerMinute == 30 && config.server.planBurst == 5)
        #expect(config.server.speechRequestsPerMinute == 0 && config.server.mapBurst == 100)
        #expect(config.server.rateLimitClients == 50000)
        #expect(config.server.trustedProxies == ["10.0.0.0/8", "::1", "192.0.2.7"])
        let limiter = ClientRateLimiter(settings: config.server)
        #expect(limiter.rules[ClientRateLimiter.Kind.speech.rawValue] == nil, "a rate of 0: not limited")
        #expect(KioskConfig().server.rateLimits && KioskConfig().server.trustedProxies == ["127.0.0.1", "::1"])

        for (text, key, says) in [
            ("plan_burst = 0", "server.plan_burst", "not 0"),
            ("map_requests_per_minute = -5", "server.map_requests_per_minute", "not -5"),
            ("rate_limit_clients = 10", "server.rate_limit_clients", "not 10"),
            ("rate_limits = \"yes\"", "server.rate_limits", "true or false"),
            ("trusted_proxies = [\"127.0.0.1\", \"10.0.0.300\"]", "server.trusted_proxies[1]", "\"10.0.0.300\""),
            ("trusted_proxies = [\"10.0.0.0/40\"]", "server.trusted_proxies[0]", "\"10.0.0.0/40\""),
            ("trusted_proxies = \"127.0.0.1\"", "server.trusted_proxies", "list of strings"),
            ("rate_limit = true", "server.rate_limit", "unknown key"),
        ] {
            let error = #expect(throws: KioskConfigError.self) {
                try KioskConfigFile.parse("[server]\n\(text)\n", file: "kiosk.toml")
            }
            #expect(error?.key == key, "\(text)")
            #expect(error?.problem.contains(says) == true, "\(text): \(error?.problem ?? "")")
            #expect(error?.file.hasPrefix("kiosk.toml") == true)
        }
    }

    static func request(_ path: String, acceptLanguage: String? = nil) -> Request {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "x", path: path)
        if let acceptLanguage { head.headerFields[.acceptLanguage] = acceptLanguage }
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }

    /// Issue 36: the limits classify a request by the route it reaches, as the router matches its path (empty
    /// segments skipped, case and percent-encoding kept), so no spelling of a path dodges its limit, and a journey
    /// map, which makes a plan, counts as a plan.
    @Test func aRequestIsClassifiedByTheRouteItReaches() {
        let cases: [(String, ClientRateLimiter.Kind?)] = [
            ("/api/v1/plan?from=1&to=2", .plan), ("/api/v1/plan/?from=1", .plan), ("/api/v1//plan", .plan),
            ("//api/v1/plan", .plan), ("///api//v1///plan//", .plan), ("/plan/?from=1&to=2", .plan),
            ("//plan?from=1", .plan), ("/plan", nil), ("/plan/", nil),
            ("/api/v1/plan/map.svg?from=1&to=2", .plan), ("/api/v1//plan/map.svg/", .plan),
            ("/api/v1/stops/1091/speech", .speech), ("/api/v1/stops/1091/speech/", .speech),
            ("/api/v1/stops//1091//speech", .speech), ("//api/v1/stops/1091/speech?lang=en", .speech),
            ("/api/v1/stops/1091/map.svg", .map), ("/api/v1/stops/1091/map.svg/", .map),
            ("/api/v1/routes/MQ-L1/diagram.svg", .map), ("//api/v1/routes/MQ-L1//map.svg", .map),
            // Not these routes: 404 or another route, cheap, not limited.
            ("/API/v1/plan", nil), ("/api/v2/plan", nil), ("/api/v1/plan/x", nil), ("/api/v1/pl%61n", nil),
            ("/api/v1/stops/1091", nil), ("/api/v1/stops/1/2/speech", nil), ("/api/v1/x.svg", nil),
            ("/s/1091", nil), ("/kiosk", nil), ("/", nil), ("", nil),
        ]
        for (path, kind) in cases {
            #expect(ClientRateLimiter.kind(of: Self.request(path)) == kind, "\(path)")
        }
    }

    /// Through the real server: the path variants that each used to get 30 of 30 plans reach the plan route and
    /// take from one bucket; a journey map takes a plan's token, not a map's; `/speech/` shares speech's bucket.
    @Test func noSpellingOfAPathDodgesItsLimit() async throws {
        var config = KioskConfig()
        config.server.planRequestsPerMinute = 1
        config.server.planBurst = 5
        config.server.mapRequestsPerMinute = 1
        config.server.mapBurst = 1
        let query = "from=1091&to=1092"
        try await ConnectionLimitTests.withLiveServer(try Self.service(config, clock: Clock())) { port, _ in
            for path in [
                "/api/v1/plan/?\(query)", "/api/v1//plan?\(query)", "//api/v1/plan?\(query)", "/plan/?\(query)",
                "/api/v1/plan/map.svg?\(query)",
            ] {
                let answer = try await Self.exchange(port, path, from: "203.0.113.1")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(path): \(answer.prefix(300))")
            }
            for path in ["/api/v1/plan?\(query)", "/plan?\(query)", "/api/v1/plan/map.svg/?\(query)"] {
                let answer = try await Self.exchange(port, path, from: "203.0.113.1")
                #expect(answer.hasPrefix("HTTP/1.1 429"), "\(path): \(answer.prefix(300))")
                #expect(answer.contains("plans"), "\(path): \(answer.suffix(400))")
            }
            // The journey map took no map token: the stop map is served, then its own limit holds for any spelling.
            let stopMap = try await Self.exchange(port, "/api/v1/stops/1091/map.svg", from: "203.0.113.1")
            #expect(stopMap.hasPrefix("HTTP/1.1 200"), "\(stopMap.prefix(300))")
            let respelled = try await Self.exchange(port, "/api/v1/stops//1091/map.svg/", from: "203.0.113.1")
            #expect(respelled.hasPrefix("HTTP/1.1 429"), "\(respelled.prefix(300))")
            // Another client is served.
            let other = try await Self.exchange(port, "/api/v1//plan/?\(query)", from: "203.0.113.2")
            #expect(other.hasPrefix("HTTP/1.1 200") && other.contains("\"options\""), "\(other.prefix(300))")
        }
    }

    /// The access log names the client a trusted proxy names (nginx's X-Real-IP), not the proxy; anyone else's
    /// header changes nothing.
    @Test func theAccessLogNamesTheClientATrustedProxyNames() {
        let resolver = ClientAddressResolver(trustedProxies: ["127.0.0.1", "::1"])
        #expect(resolver.loggedAddress(peer: "127.0.0.1", headers: [.xRealIP: "203.0.113.9"]) == "203.0.113.9")
        #expect(resolver.loggedAddress(peer: "::1", headers: [.xRealIP: "2001:db8::7"]) == "2001:db8::7")
        #expect(
            resolver.loggedAddress(peer: "127.0.0.1", headers: [.xForwardedFor: "6.6.6.6, 198.51.100.4"])
                == "198.51.100.4")
        #expect(resolver.loggedAddress(peer: "198.51.100.7", headers: [.xRealIP: "1.2.3.4"]) == "198.51.100.7")
        #expect(resolver.loggedAddress(peer: "127.0.0.1", headers: [:]) == "127.0.0.1")
        #expect(resolver.loggedAddress(peer: "127.0.0.1", headers: [.xRealIP: "not an address"]) == "127.0.0.1")
        #expect(resolver.loggedAddress(peer: nil, headers: [.xRealIP: "203.0.113.9"]) == nil)
    }

    /// The language from Accept-Language: the es/en tag with the highest q, ties in the order listed, q=0 never;
    /// what kiosk/deploy/nginx's map relies on (nginx_check.py compares the two through a real nginx).
    @Test func theLanguageFollowsQValuesAndTiesKeepTheirOrder() {
        var config = KioskConfig()
        config.language = .es
        let cases: [(String, Language)] = [
            ("es;q=0, en", .en), ("en;q=0, es", .es), ("es;q=0.5, en", .en), ("fr, en;q=0.8, es;q=0.9", .es),
            ("es, en;q=2", .en), ("es;q=1, en", .es), ("en, es", .en), ("EN-us, es", .en), ("es;q=0.9, en;q=0.9", .es),
            ("en;q=0.9, es;q=0.9", .en), ("de", .es), ("", .es), (";en", .es), ("-en", .es), ("en_US", .es),
            ("es x, en", .en), ("en;q=0", .es), ("en;q=nan", .es), ("fr;q=1, en-GB;q=0.1", .en),
        ]
        for (header, language) in cases {
            let request = Self.request("/s/1091", acceptLanguage: header)
            #expect(LanguageChoice.pick(request: request, config: config) == language, "\(header)")
        }
        config.language = .en
        #expect(LanguageChoice.pick(request: Self.request("/s/1091", acceptLanguage: ";es"), config: config) == .en)
    }
}
