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

    public init(feed: RealtimeFeed) {
        var entries: [Entry] = [], empty = 0
        for entity in feed.entities where entity.hasAlert && !entity.isDeleted {
            entries.append(Entry(id: entity.id, alert: entity.alert))
            empty += entity.alert.informedEntity.filter(Self.isEmpty).count
        }
        self.entries = entries
        self.emptySelectors = empty
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
    /// trip, stop); the alert's scope is the most specific field that matched.
    public func select(for scope: Scope, routes: [String: RouteRecord], at: Date, language: String) -> [StopAlert] {
        var result: [StopAlert] = []
        let now = UInt64(max(0, at.timeIntervalSince1970))
        for entry in entries {
            let alert = entry.alert
            let period = alert.activePeriod.first {
                ($0.start == 0 || $0.start <= now) && ($0.end == 0 || now <= $0.end)
            }
            guard alert.activePeriod.isEmpty || period != nil else { continue }
            let matched = alert.informedEntity.compactMap { Self.match($0, scope: scope, routes: routes) }
            guard let best = matched.min(by: { $0.rawValue < $1.rawValue }) else { continue }
            guard
                let header = Self.text(alert.headerText, language: language)
                    ?? Self.text(alert.descriptionText, language: language)
            else { continue }
            result.append(
                StopAlert(
                    id: entry.id, header: header.text,
                    description: alert.hasDescriptionText
                        ? Self.text(alert.descriptionText, language: language)?.text : nil,
                    url: alert.hasURL ? Self.text(alert.url, language: language)?.text : nil,
                    language: header.language, cause: Self.snakeCase(alert.cause), effect: Self.snakeCase(alert.effect),
                    severity: Self.snakeCase(alert.severityLevel), scope: "\(best)",
                    activeFrom: period.flatMap {
                        $0.start == 0 ? nil : Date(timeIntervalSince1970: TimeInterval($0.start))
                    },
                    activeUntil: period.flatMap {
                        $0.end == 0 ? nil : Date(timeIntervalSince1970: TimeInterval($0.end))
                    }))
        }
        return result
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
