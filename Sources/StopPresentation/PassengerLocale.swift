import Foundation
import TransitModel

/// The passenger locale's words for the stop view's parts that carry numbers: the nearby radius, the moment the
/// view is for, the service date. One place, so `kiosk lookup`, the phone page and the kiosk screen agree.
extension PassengerLocale {
    /// "Nearby stops (within 0.2 mi)" / "Paradas cercanas (hasta 400 m)".
    public func nearbyHeading(meters: Int) -> String {
        Message.nearbyWithin(distance: distance(meters: meters)).text(language)
    }

    public func noNearbyStops(meters: Int) -> String {
        Message.noNearbyStopsWithin(distance: distance(meters: meters)).text(language)
    }

    /// A nearby stop's distance and compass point: "82 m NW", "270 ft NW".
    public func nearbyDistance(meters: Int, direction: CompassPoint) -> String {
        "\(distance(meters: meters)) \(direction.rawValue)"
    }

    /// The local date and clock time of an instant: "8/20/2026 3:00 PM", "20/08/2026 15:00", "2026-08-20 15:00".
    public func dateAndClock(_ instant: Date, in zone: TimeZone) -> String {
        date(String(LocalTime.iso8601(instant, in: zone).prefix(10))) + " " + clock(instant, in: zone)
    }

    /// The "First and last departure (8/20/2026)" heading.
    public func firstAndLastHeading(serviceDate: String) -> String {
        Message.firstAndLast(date: date(serviceDate)).text(language)
    }
}
