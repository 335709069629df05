import Testing

@testable import Scanning

@Suite struct DecoderDebounceTests {
    static let second: UInt64 = 1_000_000_000

    @Test func samePayloadWithinIntervalDoesNotTriggerAgain() {
        let filter = FilterBox<String>(interval: .seconds(3))
        #expect(filter.shouldTrigger("A", atNanos: 10 * Self.second))
        #expect(!filter.shouldTrigger("A", atNanos: 10 * Self.second + 1))
        #expect(!filter.shouldTrigger("A", atNanos: 12 * Self.second))
    }

    @Test func differentPayloadTriggers() {
        let filter = FilterBox<String>(interval: .seconds(3))
        #expect(filter.shouldTrigger("A", atNanos: 0))
        #expect(filter.shouldTrigger("B", atNanos: 1))
        // Two codes in view alternate: neither triggers again.
        for tick in 2..<50 {
            #expect(!filter.shouldTrigger(tick % 2 == 0 ? "A" : "B", atNanos: UInt64(tick) * Self.second / 30))
        }
    }

    @Test func triggersAgainAfterTheInterval() {
        let filter = FilterBox<String>(interval: .milliseconds(1500))
        #expect(filter.shouldTrigger("A", atNanos: 0))
        #expect(!filter.shouldTrigger("A", atNanos: Self.second))
        // Last seen at 1 s: 1.5 s later it triggers.
        #expect(!filter.shouldTrigger("A", atNanos: 2 * Self.second))
        #expect(filter.shouldTrigger("A", atNanos: 4 * Self.second))
    }

    @Test func heldCodeTriggersOnceSinceLastSeenButRepeatsSinceLastTrigger() {
        let seen = FilterBox<String>(interval: .seconds(2))
        let trigger = FilterBox<String>(interval: .seconds(2), mode: .sinceLastTrigger)
        var seenCount = 0, triggerCount = 0
        // Held for 10 s, seen 10 times a second.
        for tick in 0..<100 {
            let now = UInt64(tick) * Self.second / 10
            if seen.shouldTrigger("A", atNanos: now) { seenCount += 1 }
            if trigger.shouldTrigger("A", atNanos: now) { triggerCount += 1 }
        }
        #expect(seenCount == 1)
        #expect(triggerCount == 5)
    }

    @Test func clockGoingBackwardsDoesNotCrashOrTrigger() {
        let filter = FilterBox<String>(interval: .seconds(1))
        #expect(filter.shouldTrigger("A", atNanos: 5 * Self.second))
        #expect(!filter.shouldTrigger("A", atNanos: 1))
    }

    @Test func capacityForgetsOldestAndResetForgetsAll() {
        let filter = FilterBox<Int>(interval: .seconds(60), capacity: 4)
        for value in 0..<10 { #expect(filter.shouldTrigger(value, atNanos: UInt64(value))) }
        #expect(filter.shouldTrigger(0, atNanos: 20))  // forgotten
        #expect(!filter.shouldTrigger(9, atNanos: 21))  // remembered
        filter.reset()
        #expect(filter.shouldTrigger(9, atNanos: 22))
    }
}

/// Wraps the filter in a class so `#expect` can call its mutating method.
final class FilterBox<Payload: Hashable & Sendable> {
    var filter: DebounceFilter<Payload>
    init(interval: Duration, mode: DebounceFilter<Payload>.Mode = .sinceLastSeen, capacity: Int = 32) {
        filter = DebounceFilter(interval: interval, mode: mode, capacity: capacity)
    }
    func shouldTrigger(_ payload: Payload, atNanos now: UInt64) -> Bool { filter.shouldTrigger(payload, atNanos: now) }
    func reset() { filter.reset() }
}
