import Foundation

/// A route's badge text with a trip's own number beside it (`trip_short_name`, a train number): "AVE 03083". Every
/// surface that names a departure or a ride uses it, with `Departure.destination` after it.
extension RouteInfo {
    public func label(withTripNumber number: String?) -> String {
        guard let number = number?.trimmingCharacters(in: .whitespaces), !number.isEmpty,
            number.caseInsensitiveCompare(label) != .orderedSame
        else { return label }
        return label + " " + number
    }
}

extension Departure {
    /// The route's label and, where the feed gives one, the trip's number ("AVE 03083").
    public var routeAndTripNumber: String { route.label(withTripNumber: tripShortName) }
}

extension JourneyStep {
    /// Rides: the route's label and, where the feed gives one, the trip's number ("AVE 03083"); nil for walks.
    public var routeAndTripNumber: String? { route?.label(withTripNumber: tripShortName) }
    /// Rides: where the trip goes (`destination`, else the headsign for a step made without a route).
    public var shownDestination: String { destination ?? headsign ?? "" }
}
