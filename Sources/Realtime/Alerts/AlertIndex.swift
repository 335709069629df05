import Foundation
import TransitModel
import TransitStore

/// The alerts of a ServiceAlerts feed, ready to be selected for stop views.
public struct AlertIndex: Sendable {
    public struct Entry: Sendable {
        public var id: String
        public var alert: TransitRealtime_Alert
    }

    public var entries: [Entry]
    /// Informed entities that select nothing (every field empty): counted, never matched.
    public var emptySelectors: Int
    /// Alerts beyond `maximumAlerts`, and informed entities beyond `maximumInformedEntities` of one alert: left out.
    public var alertsLeftOut = 0
    public var informedEntitiesLeftOut = 0

    /// What one feed may hold: a real agency publishes tens of alerts with a few hundred selectors; a feed with
    /// more is broken or hostile, and every stop view scans what is kept.
    public static let maximumAlerts = 1_000
    public static let maximumInformedEntities = 1_000
    /// Texts longer than this (characters) are cut with "…": a screen, a page and a voice carry a paragraph.
    public static let maximumTextLength = 2_000

    public init(feed: RealtimeFeed) {
        var entries: [Entry] = [], empty = 0
        for entity in feed.entities where entity.hasAlert && !entity.isDeleted {
            guard entries.count < Self.maximumAlerts else {
                alertsLeftOut += 1
                continue
            }
            var alert = entity.alert
            if alert.informedEntity.count > Self.maximumInformedEntities {
                informedEntitiesLeftOut += alert.informedEntity.count - Self.maximumInformedEntities
                alert.informedEntity.removeSubrange(Self.maximumInformedEntities...)
            }
            entries.append(Entry(id: entity.id, alert: alert))
            empty += alert.informedEntity.filter(Self.isEmpty).count
        }
        self.entries = entries
        self.emptySelectors = empty
    }

    /// Oddities of what was kept, one sentence each (shown by `kiosk rt inspect`).
    public var oddities: [String] {
        var notes: [String] = []
        if alertsLeftOut > 0 { notes.append("\(alertsLeftOut) alerts beyond the first \(Self.maximumAlerts) were left out") }
        if informedEntitiesLeftOut > 0 {
            notes.append(
                "\(informedEntitiesLeftOut) informed entities beyond \(Self.maximumInformedEntities) per alert were left out")
        }
        return notes
    }

    static func isEmpty(_ selector: TransitRealtime_EntitySelector) -> Bool {
        !selector.hasAgencyID && !selector.hasRouteID && !selector.hasRouteType && !selector.hasTrip
            && !selector.hasStopID
    }

    /// What a stop view is about, for matching informed entities.
    public struct Scope: Sendable {
        public var stopIDs: Set<String>
        public var routeIDs: Set<String>
        /// route_id → direction_ids served here (empty set: the feed gives none).
        public var directions: [String: Set<Int>]
        public var routeTypes: Set<Int>
        public var agencyIDs: Set<String>
        public var tripIDs: Set<String>

        /// The scope of a stop view: the stop, its station and platforms; the routes serving it, their types and
        /// agencies; the trips of its departures. In a single-agency timetable, that agency is always in scope.
        public init(view: StopView, routes: [String: RouteRecord], agencyIDs allAgencies: [String]) {
            var stops: Set<String> = [view.stop.id]
            if let parent = view.stop.parentStationID { stops.insert(parent) }
            for platform in view.platforms {
                stops.insert(platform.id)
                if let parent = platform.parentStationID { stops.insert(parent) }
            }
            stopIDs = stops
            let departures = view.departures + (view.nextDeparture.map { [$0] } ?? [])
            routeIDs = Set(view.routes.map(\.route.id) + departures.map(\.route.id))
            var directions: [String: Set<Int>] = [:]
            for route in view.routes {
                directions[route.route.id, default: []].formUnion(route.directions.compactMap(\.directionID))
            }
            for departure in departures {
                if let d = departure.directionID { directions[departure.route.id, default: []].insert(d) }
            }
            self.directions = directions
            routeTypes = Set(routeIDs.compactMap { routes[$0]?.routeType })
            var agencies = Set(routeIDs.compactMap { routes[$0]?.agencyID })
            if allAgencies.count == 1 { agencies.insert(allAgencies[0]) }
            agencyIDs = agencies
            tripIDs = Set(departures.map(\.tripID))
        }
    }

    /// The alerts in force at `at` that apply to the scope, in the passenger's language where the feed has it.
    /// An informed entity applies when every field it gives matches (agency, route, route type, direction,
    /// trip, stop); the alert's scope is the most specific field that matched. When more than `limit` apply, the
    /// most severe (then the most specific) are shown, in feed order, and the rest are counted in `notShown`.
    public func select(
        for scope: Scope, routes: [String: RouteRecord], at: Date, language: String, limit: Int = .max
    ) -> (shown: [StopAlert], notShown: Int) {
        var applying: [(entry: Int, best: MatchScope, period: ActivePeriod?)] = []
        for (position, entry) in entries.enumerated() {
            let alert = entry.alert
            let period = alert.activePeriod.lazy.map(ActivePeriod.init).first { $0.contains(at) }
            guard alert.activePeriod.isEmpty || period != nil else { continue }
            let matched = alert.informedEntity.compactMap { Self.match($0, scope: scope, routes: routes) }
            guard let best = matched.min(by: { $0.rawValue < $1.rawValue }) else { continue }
            guard Self.text(alert.headerText, language: language) ?? Self.text(alert.descriptionText, language: language)
                != nil
            else { continue }
            applying.append((position, best, period))
        }
        var notShown = 0
        if applying.count > limit {
            notShown = applying.count - limit
            applying = Array(
                applying.enumerated().sorted { a, b in
                    let rankA = Self.severityRank(entries[a.element.entry].alert.severityLevel)
                    let rankB = Self.severityRank(entries[b.element.entry].alert.severityLevel)
                    return (rankA, a.element.best.rawValue, a.offset) < (rankB, b.element.best.rawValue, b.offset)
                }.prefix(limit).sorted { $0.offset < $1.offset }.map(\.element))
        }
        let shown = applying.map { item -> StopAlert in
            let entry = entries[item.entry], alert = entry.alert
            let header = (Self.text(alert.headerText, language: language)
                ?? Self.text(alert.descriptionText, language: language))!
            return StopAlert(
                id: String(entry.id.prefix(200)), header: Self.cut(header.text),
                description: alert.hasDescriptionText
                    ? Self.text(alert.descriptionText, language: language).map { Self.cut($0.text) } : nil,
                url: alert.hasURL ? Self.text(alert.url, language: language).map { Self.cut($0.text) } : nil,
                language: header.language.map { String($0.prefix(35)) }, cause: Self.snakeCase(alert.cause),
                effect: Self.snakeCase(alert.effect), severity: Self.snakeCase(alert.severityLevel),
                scope: "\(item.best)", activeFrom: item.period?.start, activeUntil: item.period?.end)
        }
        return (shown, notShown)
    }

    /// Severe first; an alert without a severity ranks with warnings (most feeds leave it out).
    static func severityRank(_ level: TransitRealtime_Alert.SeverityLevel) -> Int {
        switch level {
        case .severe: return 0
        case .warning, .unknownSeverity: return 1
        case .info: return 2
        }
    }

    static func cut(_ text: String) -> String {
        guard text.utf8.count > maximumTextLength else { return text }  // O(1): no character walk in the usual case
        let kept = text.prefix(maximumTextLength - 1)
        return kept.endIndex == text.endIndex ? text : String(kept) + "…"
    }

    /// An alert's active period as instants: a bound that is 0 (absent) or outside `FeedTime.plausibleSeconds`
    /// (counted by `RealtimeFeed.decode`) leaves that side open.
    public struct ActivePeriod: Sendable, Equatable {
        public var start: Date?
        public var end: Date?

        public init(_ range: TransitRealtime_TimeRange) {
            start = range.hasStart ? FeedTime.instant(range.start) : nil
            end = range.hasEnd ? FeedTime.instant(range.end) : nil
        }

        public func contains(_ instant: Date) -> Bool {
            (start.map { $0 <= instant } ?? true) && (end.map { instant <= $0 } ?? true)
        }
    }

    /// Whether an alert is in force at `instant`: it has no active period, or one of them contains the instant.
    public static func isActive(_ alert: TransitRealtime_Alert, at instant: Date) -> Bool {
        alert.activePeriod.isEmpty || alert.activePeriod.contains { ActivePeriod($0).contains(instant) }
    }

    /// Most specific first.
    enum MatchScope: Int, CustomStringConvertible {
        case stop, trip, route, routeType = 3, agency
        var description: String {
            switch self {
            case .stop: return "stop"
            case .trip: return "trip"
            case .route: return "route"
            case .routeType: return "route_type"
            case .agency: return "agency"
            }
        }
    }

    static func match(
        _ selector: TransitRealtime_EntitySelector, scope: Scope, routes: [String: RouteRecord]
    ) -> MatchScope? {
        guard !isEmpty(selector) else { return nil }
        var best = MatchScope.agency
        if selector.hasAgencyID {
            guard scope.agencyIDs.contains(selector.agencyID) else { return nil }
            if selector.hasRouteID, routes[selector.routeID]?.agencyID != selector.agencyID { return nil }
        }
        if selector.hasRouteType {
            if selector.hasRouteID {
                guard routes[selector.routeID]?.routeType == Int(selector.routeType) else { return nil }
            } else {
                guard scope.routeTypes.contains(Int(selector.routeType)) else { return nil }
            }
            best = .routeType
        }
        if selector.hasRouteID {
            guard scope.routeIDs.contains(selector.routeID) else { return nil }
            if selector.hasDirectionID {
                let served = scope.directions[selector.routeID] ?? []
                guard served.isEmpty || served.contains(Int(selector.directionID)) else { return nil }
            }
            best = .route
        }
        if selector.hasTrip {
            let trip = selector.trip
            if trip.hasTripID {
                guard scope.tripIDs.contains(trip.tripID) else { return nil }
            } else if trip.hasRouteID {
                guard scope.routeIDs.contains(trip.routeID) else { return nil }
            } else {
                return nil
            }
            best = .trip
        }
        if selector.hasStopID {
            guard scope.stopIDs.contains(selector.stopID) else { return nil }
            best = .stop
        }
        return best
    }

    /// The translation for `language` (BCP 47): an exact tag, else the same primary language ("es" for
    /// "es-EC"), else the untagged text, else the first one.
    public static func text(
        _ string: TransitRealtime_TranslatedString, language: String
    ) -> (text: String, language: String?)? {
        let translations = string.translation.filter { !$0.text.isEmpty }
        guard !translations.isEmpty else { return nil }
        let wanted = language.lowercased()
        let primary = wanted.split(separator: "-").first.map(String.init) ?? wanted
        func tag(_ t: TransitRealtime_TranslatedString.Translation) -> String? {
            t.hasLanguage && !t.language.isEmpty ? t.language : nil
        }
        let chosen =
            translations.first { tag($0)?.lowercased() == wanted }
            ?? translations.first {
                tag($0).map { $0.lowercased().split(separator: "-").first.map(String.init) == primary } ?? false
            }
            ?? translations.first { tag($0) == nil }
            ?? translations[0]
        return (chosen.text, tag(chosen))
    }

    /// `medicalEmergency` → `medical_emergency`.
    static func snakeCase<T>(_ value: T) -> String {
        var result = ""
        for character in String(describing: value) {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
