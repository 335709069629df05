import Foundation
import TransitModel

/// Whether live data still counts as live, decided from its two clocks: when it was fetched and when the
/// publisher says it produced it (the header timestamp).
public struct Freshness: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case live
        /// Fetched too long ago (polling has been failing), this many seconds.
        case fetchTooOld(seconds: Int)
        /// The publisher's header timestamp is this many seconds behind the clock (a stuck feed).
        case headerBehind(seconds: Int)
        /// The header timestamp is this many seconds ahead of the clock (a publisher or kiosk clock is wrong).
        case headerInFuture(seconds: Int)
        case neverFetched
        case offline
    }

    /// What a stop view shows.
    public enum Display: String, Sendable, Equatable {
        /// Live predictions where the feed has them, the timetable elsewhere.
        case live
        /// The timetable, as if there were no live data.
        case scheduled
        /// No departures at all (online mode without fresh data).
        case nothing
    }

    public var verdict: Verdict
    public var display: Display
    /// Age of the data in seconds: since the older of fetch and header time (nil when never fetched).
    public var ageSeconds: Int?
    /// The limit in force: three poll intervals, clamped to 60–300 s.
    public var maximumAgeSeconds: Int

    public var isLive: Bool { verdict == .live }

    /// Three poll intervals, never under a minute (a fast poll must survive one slow fetch) nor over five
    /// minutes (older predictions mislead more than they help).
    public static func maximumAge(pollSeconds: Int) -> Int { min(max(3 * pollSeconds, 60), 300) }

    /// The policy, as a pure function. `fetchedAt` is when the bytes arrived (nil: never), `headerTimestamp`
    /// the feed's own time (nil: the feed leaves it out, so only the fetch time counts).
    public static func evaluate(
        headerTimestamp: Date?, fetchedAt: Date?, now: Date, pollSeconds: Int, mode: RealtimeMode
    ) -> Freshness {
        let limit = maximumAge(pollSeconds: pollSeconds)
        if mode == .offline {
            return Freshness(verdict: .offline, display: .scheduled, ageSeconds: nil, maximumAgeSeconds: limit)
        }
        let notLive: Display = mode == .online ? .nothing : .scheduled
        guard let fetchedAt else {
            return Freshness(verdict: .neverFetched, display: notLive, ageSeconds: nil, maximumAgeSeconds: limit)
        }
        let fetchAge = Int(wholeSecondsOf: now.timeIntervalSince(fetchedAt))
        let headerAge = headerTimestamp.map { Int(wholeSecondsOf: now.timeIntervalSince($0)) }
        let age = max(0, max(fetchAge, headerAge ?? fetchAge))
        let verdict: Verdict
        if fetchAge > limit {
            verdict = .fetchTooOld(seconds: fetchAge)
        } else if let headerAge, headerAge > limit {
            verdict = .headerBehind(seconds: headerAge)
        } else if let headerAge, -headerAge > limit {
            verdict = .headerInFuture(seconds: -headerAge)
        } else {
            verdict = .live
        }
        return Freshness(
            verdict: verdict, display: verdict == .live ? .live : notLive, ageSeconds: age, maximumAgeSeconds: limit)
    }
}

extension Freshness.Verdict: CustomStringConvertible {
    public var description: String {
        switch self {
        case .live: return "live"
        case let .fetchTooOld(s): return "stale: last fetched \(Self.duration(s)) ago"
        case let .headerBehind(s): return "stale: the feed's header timestamp is \(Self.duration(s)) behind the clock"
        case let .headerInFuture(s):
            return "not trusted: the feed's header timestamp is \(Self.duration(s)) ahead of the clock"
        case .neverFetched: return "no live data yet"
        case .offline: return "offline mode"
        }
    }

    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<(2 * 86_400): return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) days"
        }
    }
}
