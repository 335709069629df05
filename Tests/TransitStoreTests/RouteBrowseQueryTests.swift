import Foundation
import KioskTesting
import Testing
import TransitModel
import TransitStore

/// What the browse surfaces read besides `routeDetail` (issue 25): a route's stop patterns, its map's geometry and
/// its day types over a week, on `RouteCatalogTests.handFeed` with a Saturday service that a Thursday holiday
/// (2026-03-05) also runs instead of the weekday one: T10, route 2 direction 0, P1 → P4 at 08:00.
@Suite struct RouteBrowseQueryTests {
    static let feed: [String: String] = {
        var files = RouteCatalogTests.handFeed
        files["calendar.txt"]! += "SA,0,0,0,0,0,1,0,20260301,20260331\n"
        files["calendar_dates.txt"] = "service_id,date,exception_type\nWK,20260305,2\nSA,20260305,1\n"
        files["trips.txt"]! += "R2,SA,T10,Terminal Norte,0\n"
        files["stop_times.txt"]! += """
            T10,08:00:00,08:00:00,P1,1
            T10,08:05:00,08:05:00,P2,2
            T10,08:10:00,08:10:00,P3,3
            T10,08:15:00,08:15:00,P4,4

            """
        return files
    }()

    static let database = Result { try RouteCatalogTests.database(TemporaryFolder.make("browse", files: feed)) }

    @Test func patternsComeMainFirstPerDirectionWithEveryStopOnce() throws {
        let routes = try Self.database.get()
        let found = try routes.routePatterns("2")
        #expect(found.route.id == "R2")
        let summary = found.patterns.map { "\($0.directionID ?? -1) \($0.main) \($0.trips) \($0.stopIDs.joined(separator: "-"))" }
        #expect(
            summary == [
                "0 true 6 P1-P2-P3-P4", "0 false 1 P1-P2-P3", "0 false 1 P1-P2-P5", "1 true 1 P4-P3-P2-P1",
                "1 false 1 P3-P2-P1",
            ], "\(summary)")
        #expect(found.patterns[1].headsign == "Colegio" && found.patterns[2].headsign == "Hospital")
        #expect(found.patterns.allSatisfy { $0.shapeID == nil })  // the hand feed has no shapes
        #expect(found.stops.map(\.id) == ["P1", "P2", "P3", "P4", "P5"])
        // The main patterns are the ones `routeDetail` lists its stops from.
        let detail = try routes.routeDetail("R2", date: ServiceDate(parsing: "2026-03-04"))
        #expect(detail.directions.map { $0.stops.map(\.id) } == [["P1", "P2", "P3", "P4"], ["P4", "P3", "P2", "P1"]])
    }

    @Test func theMapHasEveryPathTerminalsAndTheViewersStop() throws {
        let routes = try Self.database.get()
        let viewer = try routes.resolveStop(.idOrCode("P2"))
        let map = try routes.routeMap("R2", viewer: viewer)
        #expect(map.lines.count == 5)
        #expect(map.lines.filter(\.pattern.main).count == 2)
        #expect(map.lines.allSatisfy { !$0.fromShape })
        #expect(map.lines[0].points.count == 4)
        #expect(map.stops.map(\.stop.id) == ["P1", "P2", "P3", "P4", "P5"])
        #expect(map.stops.filter(\.terminal).map(\.stop.id) == ["P1", "P4"])
        #expect(map.stops.filter { !$0.onMain }.map(\.stop.id) == ["P5"])
        #expect(map.highlighted.contains("P2") && map.viewer?.id == "P2")
        #expect(try routes.routeMap("R2").highlighted.isEmpty)
        #expect(throws: RouteQueryError.self) { try routes.routeMap("no such route") }
    }

    @Test func daysRunningTheSameTripsFormOneDayType() throws {
        let routes = try Self.database.get()
        let week = try routes.routeWeek("R2", around: try #require(ServiceDate(parsing: "2026-03-04")))
        #expect(week.weekStart == "2026-03-02")
        #expect(week.dayTypes.map(\.weekdays) == [[1, 2, 3, 5], [4, 6], [7]])
        #expect(week.dayTypes[1].dates == ["2026-03-05", "2026-03-07"])
        let weekdays = week.dayTypes[0].directions
        #expect(
            weekdays == [
                RouteDayService(directionID: 0, trips: 7, firstDeparture: "06:00:00", lastDeparture: "25:30:00"),
                RouteDayService(directionID: 1, trips: 2, firstDeparture: "07:00:00", lastDeparture: "07:30:00"),
            ])
        // T1–T7 (the short working T3 and the branch T4 included) on weekdays; the holiday runs Saturday's T10.
        #expect(week.dayTypes[1].directions == [
            RouteDayService(directionID: 0, trips: 1, firstDeparture: "08:00:00", lastDeparture: "08:00:00")
        ])
        #expect(week.dayTypes[2].directions.isEmpty && week.dayTypes[2].inFeed)
    }

    @Test func daysOutsideTheCalendarAreTheirOwnDayType() throws {
        let routes = try Self.database.get()
        let week = try routes.routeWeek("R2", around: try #require(ServiceDate(parsing: "2026-03-31")))
        #expect(week.dayTypes.map(\.weekdays) == [[1, 2], [3, 4, 5, 6, 7]])
        #expect(week.dayTypes.map(\.inFeed) == [true, false])
        #expect(week.dayTypes[1].directions.isEmpty)
        // Frequency-based service counts one departure per headway: route 10, 07:00–08:00 every 10 minutes.
        let frequent = try routes.routeWeek("10", around: try #require(ServiceDate(parsing: "2026-03-04")))
        #expect(frequent.dayTypes[0].directions.first?.trips == 6)
    }
}
