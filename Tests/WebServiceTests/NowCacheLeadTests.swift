import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import WebService

/// Rendering ahead on a big city (issue 26): a minute that turns before its answers were all rendered ahead makes
/// the next one start earlier, so the answers of 10,000 stops are ready at the turn instead of rendered on demand.
@Suite struct NowCacheLeadTests {
    static func answer(_ text: String) -> Answer {
        Answers.body(ByteBuffer(string: text), contentType: "text/plain", cacheSeconds: 60)
    }

    @Test func aMinuteThatTurnedTooSoonStartsTheNextEarlier() {
        let cache = NowCache(leadSeconds: 20)
        // Rendering "a" ahead for minute 101 takes so long that a request of minute 101 comes first.
        let slow: NowCache.Render = { date in
            if date.timeIntervalSince1970 == 6060 { _ = cache.answer("other", minute: 101, feedHash: "f1") }
            return Self.answer("for \(date.timeIntervalSince1970)")
        }
        cache.keep(Self.answer("a at 6000"), for: "a", minute: 100, feedHash: "f1", render: slow)
        cache.keep(Self.answer("b at 6000"), for: "b", minute: 100, feedHash: "f1") { _ in Self.answer("b") }
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6050), minute: 100, feedHash: "f1") { true }
        cache.waitForRenderingAhead()
        #expect(cache.currentLeadSeconds == 40)
        // 35 s before the end of minute 101: due now (it would not have been with 20 s).
        cache.keep(Self.answer("c"), for: "c", minute: 101, feedHash: "f1") { _ in Self.answer("c") }
        cache.renderAheadIfDue(now: Date(timeIntervalSince1970: 6085), minute: 101, feedHash: "f1") { true }
        cache.waitForRenderingAhead()
        // Every answer of minute 101 is ready for 102: "c", and "b" too when it happened to be rendered ahead before
        // "a" turned the minute (the order of a dictionary's entries differs from run to run).
        #expect(cache.count >= 1 && cache.renderedAheadCount == cache.count)
        #expect(cache.currentLeadSeconds == 40, "rendered in time: the lead stays")
    }

    @Test func theLeadIsBounded() {
        let cache = NowCache(leadSeconds: 20)
        for minute in Int64(100)..<110 {
            let start = Double(minute) * 60
            let slow: NowCache.Render = { _ in
                _ = cache.answer("other", minute: minute + 1, feedHash: "f1")
                return Self.answer("late")
            }
            cache.keep(Self.answer("a"), for: "a", minute: minute, feedHash: "f1", render: slow)
            cache.renderAheadIfDue(now: Date(timeIntervalSince1970: start + 59), minute: minute, feedHash: "f1") {
                true
            }
            cache.waitForRenderingAhead()
        }
        #expect(cache.currentLeadSeconds == NowCache.maxLeadSeconds)
    }
}
