import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import Logging
import NIOCore
import Synchronization
import Testing
import TransitStore

@testable import WebService

/// "Now" answers shared within their minute: the same bytes for the same URL and language, a new answer each
/// minute and for each database, never for a given `at`, and the stop page still counted as a scan.
@Suite struct NowCacheTests {
    static func answer(_ text: String, status: HTTPResponse.Status = .ok) -> Answer {
        var answer = Answers.body(ByteBuffer(string: text), contentType: "text/plain", cacheSeconds: 60)
        answer.status = status
        return answer
    }

    @Test func keepsOneMinuteOfOneDatabaseWithinItsBound() {
        let cache = NowCache(byteLimit: 10)
        func keep(_ text: String, status: HTTPResponse.Status = .ok, _ key: String, minute: Int64) {
            cache.keep(Self.answer(text, status: status), for: key, minute: minute, feedHash: "f1") { _ in
                Self.answer(text)
            }
        }
        keep("12345", "a", minute: 100)
        #expect(cache.answer("a", minute: 100, feedHash: "f1")?.headers[.eTag] == Self.answer("12345").headers[.eTag])
        // Kept in memory of its own size (NIO would have given the 5 bytes a buffer of 8).
        #expect(cache.answer("a", minute: 100, feedHash: "f1")?.body.capacity == 5)
        #expect(String(buffer: cache.answer("a", minute: 100, feedHash: "f1")!.body) == "12345")
        keep("nope", status: .notFound, "b", minute: 100)
        #expect(cache.answer("b", minute: 100, feedHash: "f1") == nil)
        keep("123456", "c", minute: 100)  // 5 + 6 > 10 bytes
        #expect(cache.answer("c", minute: 100, feedHash: "f1") == nil)
        #expect(cache.count == 1)
        // A late request of the previous minute changes nothing.
        keep("1", "d", minute: 99)
        #expect(cache.answer("a", minute: 100, feedHash: "f1") != nil)
        // The next minute starts empty.
        keep("12", "e", minute: 101)
        #expect(cache.count == 1 && cache.answer("a", minute: 101, feedHash: "f1") == nil)
        // Another database: nothing of the previous one.
        #expect(cache.answer("e", minute: 101, feedHash: "f2") == nil)
    }

    @Test func theNextMinuteIsRenderedAheadInTheLastSeconds() {
        let cache = NowCache(leadSeconds: 20)
        let rendered = Mutex<[Date]>([])
        let render: NowCache.Render = { date in
            rendered.withLock { $0.append(date) }
            return Self.answer("for \(date.timeIntervalSince1970)")
        }
        cache.keep(
            try! render(Date(timeIntervalSince1970: 6000)), for: "a", minute: 100, feedHash: "f1", render: render)
        // 30 s before the end of the minute: too early.
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6030), minute: 100, feedHash: "f1") { true }
        cache.waitForRenderingAhead()
        #expect(cache.renderedAheadCount == 0)
        // 10 s before: the next minute is rendered, once.
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6050), minute: 100, feedHash: "f1") { true }
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6051), minute: 100, feedHash: "f1") { true }
        cache.waitForRenderingAhead()
        #expect(cache.renderedAheadCount == 1)
        #expect(rendered.withLock { $0 } == [Date(timeIntervalSince1970: 6000), Date(timeIntervalSince1970: 6060)])
        // At the turn of the minute it is the answer.
        let next = cache.answer("a", minute: 101, feedHash: "f1")
        #expect(next?.headers[.eTag] == Self.answer("for 6060.0").headers[.eTag])
        // A database replaced in the meantime: nothing is rendered for the old one.
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6115), minute: 101, feedHash: "f1") { false }
        cache.waitForRenderingAhead()
        #expect(cache.renderedAheadCount == 0 && rendered.withLock { $0.count } == 2)
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
                #expect(
                    String(buffer: response.body).contains(#"stopkiosk_scans_total{status="stop",source="page"} 3"#))
            }
        }
    }
}
