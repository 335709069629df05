import Foundation
import Testing

@testable import TransitModel

/// The one rule that names where a departure goes, on every surface.
@Suite struct TripDestinationTests {
    func route(_ shortName: String?, longName: String? = nil) -> RouteInfo {
        RouteInfo(
            id: "R", shortName: shortName, longName: longName, mode: .bus, color: nil, textColor: nil, agency: "A")
    }

    @Test(arguments: [
        ("109 Maryland Pkwy Northbound", "109", "Maryland Pkwy Northbound"),
        ("109 - Maryland Pkwy", "109", "Maryland Pkwy"),
        ("L1: El Labrador", "l1", "El Labrador"),
        // Another route's number that merely begins with this one's is the headsign's own text.
        ("109 Maryland Pkwy Northbound", "10", "109 Maryland Pkwy Northbound"),
        ("10th Street", "10", "10th Street"),
        // Only the route number: nothing would be left, so it stays.
        ("109", "109", "109"),
        ("Quitumbe", "109", "Quitumbe"),
    ])
    func headsignWithoutTheRoutesOwnNumber(headsign: String, shortName: String, shown: String) {
        #expect(TripDestination.named(headsign: headsign, lastStopName: "Last", route: route(shortName)) == shown)
    }

    @Test func emptyHeadsignNamesTheLastStop() {
        let ave = route("AVE")
        #expect(TripDestination.named(headsign: "", lastStopName: "Barcelona-Sants", route: ave) == "Barcelona-Sants")
        #expect(
            TripDestination.named(headsign: "  ", lastStopName: " Barcelona-Sants ", route: route("AVE"))
                == "Barcelona-Sants")
        // A headsign wins over the last stop: a stop time's stop_headsign reaches here as the headsign (GTFS: it
        // overrides the trip's at that stop).
        #expect(
            TripDestination.named(headsign: "Barcelona por Zaragoza", lastStopName: "Barcelona-Sants", route: ave)
                == "Barcelona por Zaragoza")
    }

    @Test func withoutHeadsignOrLastStopTheRouteNamesItself() {
        let named = route("AVE", longName: "Madrid - Sevilla")
        #expect(TripDestination.named(headsign: "", lastStopName: nil, route: named) == "Madrid - Sevilla")
        #expect(TripDestination.named(headsign: "", lastStopName: "", route: route("AVE")) == "AVE")
    }

    @Test func departuresGroupByRouteAndDestination() {
        func departure(_ destination: String, _ minute: Int) -> Departure {
            Departure(
                route: route("AVE"), headsign: "", directionID: 0,
                time: Date(timeIntervalSince1970: Double(minute * 60)),
                minutesFromNow: minute, tripID: "T\(minute)", serviceDate: "2026-11-23", scheduledTime: "08:00:00",
                wheelchairAccessible: .unknown, stopID: "MAD", platformCode: nil, approximate: false,
                destination: destination, tripShortName: String(minute))
        }
        let groups = DepartureGroup.grouping(
            [departure("Barcelona-Sants", 1), departure("Zaragoza", 2), departure("Barcelona-Sants", 3)])
        #expect(groups.map(\.destination) == ["Barcelona-Sants", "Zaragoza"])
        #expect(groups.first?.departures.map(\.tripShortName) == ["1", "3"])
    }
}
