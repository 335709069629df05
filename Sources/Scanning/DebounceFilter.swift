/// Keeps the same scanned payload from triggering twice in a row.
///
/// A code held in front of the camera is decoded on many frames; the kiosk should react once. A payload
/// triggers when it has not been seen (or, in `.sinceLastTrigger` mode, not triggered) within `interval`;
/// a different payload triggers at once. Several payloads are remembered, so two codes in view at the same
/// time do not make each other trigger in turn.
///
/// Time is passed in (monotonic nanoseconds, as in `LumaFrame.arrivalNanos`), so tests need no sleeping.
///
/// ```swift
/// var debounce = DebounceFilter<String>(interval: .seconds(3))
/// if debounce.shouldTrigger(text, atNanos: frame.arrivalNanos) { show(text) }
/// ```
public struct DebounceFilter<Payload: Hashable & Sendable>: Sendable {
    public enum Mode: Sendable, Hashable {
        /// The interval runs from the last time the payload was seen: a code held in view for a minute
        /// triggers once; taken away for longer than the interval and shown again, it triggers again.
        case sinceLastSeen
        /// The interval runs from the last trigger: a code held in view triggers again every `interval`.
        case sinceLastTrigger
    }

    public let interval: Duration
    public let mode: Mode
    /// How many payloads are remembered at most (oldest forgotten first).
    public let capacity: Int
    private let intervalNanos: UInt64
    private var entries: [Payload: Entry] = [:]

    private struct Entry: Sendable {
        var lastSeen: UInt64
        var lastTriggered: UInt64
    }

    public init(interval: Duration, mode: Mode = .sinceLastSeen, capacity: Int = 32) {
        self.interval = interval
        self.mode = mode
        self.capacity = max(1, capacity)
        let components = interval.components
        let nanos =
            components.seconds <= 0 && components.attoseconds <= 0
            ? 0
            : UInt64(clamping: components.seconds) &* 1_000_000_000
                &+ UInt64(clamping: components.attoseconds / 1_000_000_000)
        self.intervalNanos = nanos
    }

    /// Records a sighting of `payload` at `now` and says whether it should trigger.
    public mutating func shouldTrigger(_ payload: Payload, atNanos now: UInt64) -> Bool {
        defer { prune(now: now) }
        guard var entry = entries[payload] else {
            entries[payload] = Entry(lastSeen: now, lastTriggered: now)
            return true
        }
        let reference = mode == .sinceLastSeen ? entry.lastSeen : entry.lastTriggered
        // A clock that went backwards counts as no time elapsed.
        let elapsed = now >= reference ? now - reference : 0
        let trigger = elapsed >= intervalNanos
        entry.lastSeen = max(entry.lastSeen, now)
        if trigger { entry.lastTriggered = now }
        entries[payload] = entry
        return trigger
    }

    /// Forgets every payload: the next sighting of any triggers.
    public mutating func reset() {
        entries.removeAll()
    }

    private mutating func prune(now: UInt64) {
        guard entries.count > capacity else { return }
        entries = entries.filter { _, entry in
            now < entry.lastSeen || now - entry.lastSeen < intervalNanos
        }
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
            entries.removeValue(forKey: oldest.key)
        }
    }
}
