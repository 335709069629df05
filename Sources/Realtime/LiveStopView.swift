import Foundation
import TransitModel
import TransitStore

extension RouteDatabase {
    /// The stop view with live data applied: the timetable view at `at`, plus the departures of the
    /// `LiveData.lookbackMinutes` before it (a late bus scheduled before `at` still leaves after it), through
    /// `LiveData.apply`. `now` is the wall clock the freshness verdict uses. Without live data (nil: none
    /// configured, or not read yet) it is the timetable view: the one choice the kiosk, the server and `lookup` make.
    public func liveStopView(
        for stop: ResolvedStop, at: Date, windowMinutes: Int = 60, nearbyRadiusMeters: Int = 400,
        live: LiveData?, now: Date, language: String
    ) throws -> StopView {
        let view = try stopView(for: stop, at: at, windowMinutes: windowMinutes, nearbyRadiusMeters: nearbyRadiusMeters)
        guard let live else { return view }
        guard live.mode != .offline, live.hasTripUpdatesFeed, live.tripUpdatesFreshness(now: now).display == .live
        else {
            return live.apply(to: view, now: now, language: language)
        }
        let lookback = TimeInterval(LiveData.lookbackMinutes * 60)
        let earlier = try departures(for: stop, from: at.addingTimeInterval(-lookback), minutes: LiveData.lookbackMinutes)
        return live.apply(to: view, earlier: earlier, now: now, language: language)
    }
}
