import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import Logging
import Synchronization
import Testing
import TransitStore

@testable import WebService

/// "Now" answers shared within their minute: the same bytes for the same URL and language, a new answer each
/// minute and for each database, never for a given `at`, and the stop page still counted as a scan.
@Suite struct NowCacheTests {
    static func answer(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = Responses.body(text, contentType: "text/plain", cacheSeconds: 60)
        response.status = status
        return response
    }

    @Test func keepsOneMinuteOfOneDatabaseWithinItsBound() {
        let cache = NowCache(byteLimit: 10)
        cache.keep(Self.answer("12345"), for: "a", minute: 100, feedHash: "f1")
        #expect(cache.answer("a", minute: 100, feedHash: "f1")?.headers[.eTag] == Self.answer("12345").headers[.eTag])
        #expect(cache.answer("a", minute: 101, feedHash: "f1") == nil)
        #expect(cache.answer("a", minute: 100, feedHash: "f2") == nil)
        cache.keep(Self.answer("nope", status: .notFound), for: "b", minute: 100, feedHash: "f1")
        #expect(cache.answer("b", minute: 100, feedHash: "f1") == nil)
        cache.keep(Self.answer("123456"), for: "c", minute: 100, feedHash: "f1")  // 5 + 6 > 10 bytes
        #expect(cache.answer("c", minute: 100, feedHash: "f1") == nil)
        #expect(cache.count == 1)
        // A late request of the previous minute does not wipe the current one.
        cache.keep(Self.answer("1"), for: "d", minute: 99, feedHash: "f1")
        #expect(cache.answer("a", minute: 100, feedHash: "f1") != nil)
        // The next minute starts empty.
        cache.keep(Self.answer("12"), for: "e", minute: 101, feedHash: "f1")
        #expect(cache.count == 1 && cache.answer("a", minute: 100, feedHash: "f1") == nil)
    }

    @Test func stopViewsAndPagesAreSharedWithinTheirMinute() async throws {
        let clock = Mutex(TestSupport.morning)
        let databases = try LiveRouteDatabase(path: TestSupport.sampleDatabase, checkInterval: .zero)
        var logger = Logger(label: "test.web")
        logger.logLevel = .critical
        let service = try WebService(
            config: KioskConfig(), databases: databases, logger: logger, now: { clock.withLock { $0 } })
        try await TestSupport.withRouter(service) { client in
            var bodies: [String] = []
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                    #expect(response.status == .ok)
                    bodies.append(String(buffer: response.body))
                }
            }
            #expect(bodies[0] == bodies[1] && service.nowCache.count == 1)
            // Seconds later, the same minute: the shared answer.
            clock.withLock { $0 += 30 }
            try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                #expect(String(buffer: response.body) == bodies[0])
            }
            // A given `at` is never shared.
            try await client.execute(uri: "/api/v1/stops/1091?at=2026-11-25T09:00", method: .get) { response in
                #expect(response.status == .ok)
            }
            #expect(service.nowCache.count == 1)
            // The next minute: a new answer, one minute later.
            clock.withLock { $0 += 60 }
            try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(body != bodies[0])
                #expect(body.contains("\"at\" : \"2026-11-25T08:01:00-05:00\""), "\(body.prefix(300))")
            }
            // Stop pages: per language, and each one served still counts as a scan of the stop.
            for uri in ["/s/1091", "/s/1091", "/s/1091?lang=en"] {
                try await client.execute(uri: uri, method: .get) { response in #expect(response.status == .ok) }
            }
            #expect(service.nowCache.count == 3)
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"stopkiosk_scans_total{status="stop",source="page"} 3"#))
            }
        }
    }
}
