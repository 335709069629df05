import Foundation

/// What this kiosk accepts of the times and delays a realtime feed carries. A feed is outside input: a producer
/// that writes −1 into an unsigned field sends 2^64−1, and such a value must become an oddity, never an instant
/// (Date arithmetic on it traps once it is turned back into whole seconds).
public enum FeedTime {
    /// POSIX times taken as instants: 2000-01-01T00:00Z up to 2100-01-01T00:00Z. Any other value is a producer's
    /// error, counted and ignored.
    public static let plausibleSeconds: ClosedRange<UInt64> = 946_684_800...4_102_444_800

    /// Delays (given, or computed from an absolute time against the schedule) beyond a day either way: a
    /// producer's error. Ignored and counted, so a departure never vanishes ten years into the future.
    public static let plausibleDelaySeconds: ClosedRange<Int> = -86_400...86_400

    /// The instant of a feed's POSIX time, or nil when it is outside `plausibleSeconds`.
    public static func instant(_ seconds: UInt64) -> Date? {
        plausibleSeconds.contains(seconds) ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil
    }

    /// The instant of a signed feed time (StopTimeEvent.time is int64), or nil when implausible.
    public static func instant(_ seconds: Int64) -> Date? {
        seconds < 0 ? nil : instant(UInt64(seconds))
    }
}
