import Foundation
import Realtime
import Testing
import TransitModel

@Suite struct FreshnessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func ago(_ seconds: Double) -> Date { now.addingTimeInterval(-seconds) }

    @Test func maximumAgeIsThreePollsClamped() {
        #expect(Freshness.maximumAge(pollSeconds: 30) == 90)
        #expect(Freshness.maximumAge(pollSeconds: 5) == 60)
        #expect(Freshness.maximumAge(pollSeconds: 600) == 300)
    }

    @Test func freshDataIsLiveInEveryFetchingMode() {
        for mode in [RealtimeMode.online, .mixed] {
            let f = Freshness.evaluate(
                headerTimestamp: ago(40), fetchedAt: ago(10), now: now, pollSeconds: 30, mode: mode)
            #expect(f.verdict == .live && f.display == .live && f.ageSeconds == 40)
        }
    }

    @Test func oldFetchIsStale() {
        let mixed = Freshness.evaluate(
            headerTimestamp: ago(100), fetchedAt: ago(95), now: now, pollSeconds: 30, mode: .mixed)
        #expect(mixed.verdict == .fetchTooOld(seconds: 95) && mixed.display == .scheduled)
        let online = Freshness.evaluate(
            headerTimestamp: ago(100), fetchedAt: ago(95), now: now, pollSeconds: 30, mode: .online)
        #expect(online.display == .nothing)
    }

    @Test func headerFarBehindTheClockIsStaleEvenWhenJustFetched() {
        let f = Freshness.evaluate(
            headerTimestamp: ago(3 * 365 * 86_400), fetchedAt: ago(1), now: now, pollSeconds: 30, mode: .mixed)
        #expect(f.verdict == .headerBehind(seconds: 3 * 365 * 86_400) && f.display == .scheduled)
        #expect(f.verdict.description.contains("days behind"))
    }

    @Test func headerFromTheFutureIsNotTrusted() {
        let f = Freshness.evaluate(
            headerTimestamp: now.addingTimeInterval(3600), fetchedAt: ago(1), now: now, pollSeconds: 30, mode: .mixed)
        #expect(f.verdict == .headerInFuture(seconds: 3600) && !f.isLive)
        // A little clock skew is tolerated.
        let skew = Freshness.evaluate(
            headerTimestamp: now.addingTimeInterval(20), fetchedAt: ago(1), now: now, pollSeconds: 30, mode: .mixed)
        #expect(skew.isLive && skew.ageSeconds == 1)
    }

    @Test func missingHeaderTimeFallsBackToTheFetchTime() {
        let f = Freshness.evaluate(headerTimestamp: nil, fetchedAt: ago(50), now: now, pollSeconds: 30, mode: .mixed)
        #expect(f.isLive && f.ageSeconds == 50)
    }

    @Test func offlineAndNeverFetched() {
        #expect(
            Freshness.evaluate(headerTimestamp: ago(1), fetchedAt: ago(1), now: now, pollSeconds: 30, mode: .offline)
                .verdict == .offline)
        let never = Freshness.evaluate(headerTimestamp: nil, fetchedAt: nil, now: now, pollSeconds: 30, mode: .online)
        #expect(never.verdict == .neverFetched && never.display == .nothing && never.ageSeconds == nil)
    }
}
