import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How fast a replay (Y4M file, image folder) hands out frames.
///
/// Tests and benchmarks read unpaced (as fast as the disk allows); a demo replays at a camera-like rate so that
/// the kiosk screen behaves as it would with a webcam.
public enum ReplayPacing: Sendable, Equatable {
    /// No waiting: every `nextFrame` returns at once.
    case unpaced
    /// Frame *n* is handed out no earlier than *n / fps* seconds after the first one.
    case framesPerSecond(Double)
    /// The file's own rate (a Y4M header's `F`); image folders have none and replay unpaced.
    case native

    func framesPerSecond(native: Double?) -> Double? {
        switch self {
        case .unpaced: return nil
        case .framesPerSecond(let fps): return fps > 0 ? fps : nil
        case .native: return native.flatMap { $0 > 0 ? $0 : nil }
        }
    }
}

/// Keeps a replay on schedule: frame n is due at start + n × interval; a late reader is not made to catch up
/// with bursts (the schedule restarts from the late frame).
struct ReplayPacer {
    let intervalNanos: UInt64?
    private var nextDue: UInt64?

    init(framesPerSecond: Double?) {
        intervalNanos = framesPerSecond.map { UInt64(1e9 / $0) }
    }

    mutating func waitForNextFrame() {
        guard let interval = intervalNanos else { return }
        let now = MonotonicClock.nanos()
        if let due = nextDue, due > now {
            MonotonicClock.sleep(nanos: due - now)
            nextDue = due + interval
        } else {
            nextDue = now + interval
        }
    }
}

/// CLOCK_MONOTONIC readings and sleeps, without Foundation.
enum MonotonicClock {
    static func nanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func sleep(nanos: UInt64) {
        var request = timespec(tv_sec: Int(nanos / 1_000_000_000), tv_nsec: Int(nanos % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR {
            request = remaining
        }
    }

    /// The arrival stamp `LumaFrame.arrivalNanos` documents.
    static func arrival() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}

extension Duration {
    /// The duration in nanoseconds, clamped to zero for negative durations.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds < 0) { return 0 }
        let s = UInt64(seconds)
        if s >= UInt64.max / 1_000_000_000 { return UInt64.max }
        return s * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
