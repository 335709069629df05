import Foundation
import TransitModel
import TransitStore

extension StopAlert {
    /// A severe alert for a stop itself or for every kiosk (agency-wide, as `kiosk message add --all` writes):
    /// it takes over a kiosk's idle screen and heads every stop screen. Other alerts show in the alerts list.
    public var takesOverScreens: Bool { severity == "severe" && (scope == "stop" || scope == "agency") }

    /// Whether the alert is in force at `instant` (its period's end is when it stops showing).
    public func isInForce(at instant: Date) -> Bool {
        (activeFrom.map { $0 <= instant } ?? true) && (activeUntil.map { instant < $0 } ?? true)
    }
}

extension AlertIndex.Scope {
    /// The scope of a screen rather than a stop view: the stops given (a kiosk's own stop, its station and
    /// platforms; none for a kiosk without one) and every agency — what takeover messages are selected by.
    public init(stopIDs: Set<String>, agencyIDs: [String]) {
        self.stopIDs = stopIDs
        routeIDs = []
        directions = [:]
        routeTypes = []
        self.agencyIDs = Set(agencyIDs)
        tripIDs = []
    }

    /// A resolved stop's own ids: the stop, its station and its platforms.
    public static func stopIDs(of stop: ResolvedStop) -> Set<String> {
        var ids: Set<String> = [stop.stop.id]
        if let parent = stop.stop.parentStationID { ids.insert(parent) }
        for platform in stop.platforms {
            ids.insert(platform.id)
            if let parent = platform.parentStationID { ids.insert(parent) }
        }
        return ids
    }
}

extension LiveData {
    /// The alerts that take over the screen (`StopAlert.takesOverScreens`) in force at `now` for `stops` (a
    /// kiosk's own stop, or the stop on screen) or for every kiosk, in `language`; none while the alerts are not
    /// fresh (as stop views show none) or in offline mode.
    public func screenTakeover(stops: Set<String>, now: Date, language: String) -> [StopAlert] {
        guard mode != .offline, hasAlertsFeed, alertsFreshness(now: now).isLive, let index = alerts?.value else {
            return []
        }
        let scope = AlertIndex.Scope(stopIDs: stops, agencyIDs: agencyIDs)
        return index.select(for: scope, routes: routes, at: now, language: language).shown.filter {
            $0.takesOverScreens && $0.isInForce(at: now)
        }
    }
}
