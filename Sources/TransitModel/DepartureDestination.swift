import Foundation

/// Where a trip goes, by one rule for every surface (board, phone, terminal, speech, plans, maps, posters, API):
/// the headsign the feed gives at this stop (GTFS: `stop_headsign` overrides `trip_headsign`), else the name of the
/// trip's last stop; a headsign that begins with the route's own short name ("109 Maryland Pkwy Northbound" on
/// route 109) is shown without the repeat.
public enum TripDestination {
    public static func named(headsign: String, lastStopName: String?, route: RouteInfo) -> String {
        let given = headsign.trimmingCharacters(in: .whitespaces)
        if !given.isEmpty { return withoutRoutePrefix(given, shortName: route.shortName) }
        if let last = lastStopName?.trimmingCharacters(in: .whitespaces), !last.isEmpty { return last }
        return route.longName ?? route.label
    }

    /// "109 Maryland Pkwy Northbound" → "Maryland Pkwy Northbound" for route 109; a headsign that is only the
    /// short name, or that merely starts with the same letters ("10" before "109 …"), is kept.
    static func withoutRoutePrefix(_ headsign: String, shortName: String?) -> String {
        guard let shortName, !shortName.isEmpty,
            headsign.count > shortName.count,
            headsign.lowercased().hasPrefix(shortName.lowercased())
        else { return headsign }
        let rest = headsign.dropFirst(shortName.count)
        guard let separator = rest.first, " -–—:·/".contains(separator) else { return headsign }
        let trimmed = rest.drop { " -–—:·/".contains($0) }.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? headsign : trimmed
    }
}

/// The departures of one route to one destination, as a stop board shows them in one row: the next few times.
public struct DepartureGroup: Sendable, Equatable {
    public var route: RouteInfo
    public var destination: String
    public var directionID: Int?
    /// In the order of the view (the next first), at most the limit given to `DepartureGroup.grouping`.
    public var departures: [Departure]

    public init(route: RouteInfo, destination: String, directionID: Int?, departures: [Departure]) {
        self.route = route
        self.destination = destination
        self.directionID = directionID
        self.departures = departures
    }

    /// Groups departures by route (of their feed) and destination, in the order of each group's first departure
    /// in `departures` (a view's departures are in time order, so the group leaving next comes first), keeping
    /// at most `timesPerGroup` departures per group.
    public static func grouping(_ departures: [Departure], timesPerGroup: Int = 3) -> [DepartureGroup] {
        struct Key: Hashable {
            var feed: String?
            var route: String
            var destination: String
        }
        var groups: [DepartureGroup] = []
        var index: [Key: Int] = [:]
        for departure in departures {
            let key = Key(feed: departure.feedID, route: departure.route.id, destination: departure.destination)
            if let at = index[key] {
                if groups[at].departures.count < timesPerGroup { groups[at].departures.append(departure) }
            } else {
                index[key] = groups.count
                groups.append(
                    DepartureGroup(
                        route: departure.route, destination: departure.destination,
                        directionID: departure.directionID, departures: [departure]))
            }
        }
        return groups
    }
}

extension StopView {
    /// The view's departures grouped as a board shows them (`DepartureGroup.grouping`).
    public func departureGroups(timesPerGroup: Int = 3) -> [DepartureGroup] {
        DepartureGroup.grouping(departures, timesPerGroup: timesPerGroup)
    }
}
