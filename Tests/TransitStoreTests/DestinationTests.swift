import Foundation
import GRDB
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// Every departure names where it goes (`TripDestination`), also in a feed without headsigns (Renfe's): the
/// store records each trip's last stop at import and the stop view, the stop summaries, route directions, maps
/// and plans name it.
@Suite struct DestinationTests {
    static let imported = Result { () throws -> String in
        let path = TemporaryFolder.make("destinations").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: HeadsignlessFeed.folder().path, databasePath: path).run()
        return path
    }

    func database() throws -> RouteDatabase { try RouteDatabase(path: try Self.imported.get()) }

    func view(_ db: RouteDatabase, _ stop: String, at: String = HeadsignlessFeed.morning) throws -> StopView {
        try db.stopView(
            for: try db.resolveStop(.idOrCode(stop)), at: try #require(LocalTime.parse(at, in: db.timeZone)),
            windowMinutes: 120)
    }

    @Test func departuresWithoutHeadsignsNameTheirLastStopAndTrainNumber() throws {
        let db = try database()
        let departures = try view(db, "MAD").departures
        let seen = departures.map {
            "\($0.route.label) \($0.tripShortName ?? "-") [\($0.headsign)] → \($0.destination)"
        }
        #expect(
            seen == [
                "AVE 03083 [] → Barcelona-Sants",
                "ALVIA 00601 [] → Zaragoza-Delicias",
                // GTFS: a stop time's stop_headsign overrides the trip's at that stop.
                "AVE 03163 [Barcelona por Zaragoza] → Barcelona por Zaragoza",
            ])
        // Further along the same train has no stop_headsign: its last stop again.
        let atZaragoza = try view(db, "ZAR", at: "2026-11-23T10:00").departures
        #expect(atZaragoza.map(\.destination) == ["Barcelona-Sants"])
        #expect(atZaragoza.map(\.tripShortName) == ["03163"])
    }

    @Test func aHeadsignRepeatingTheRouteNumberLosesIt() throws {
        let db = try database()
        let bus = try #require(try view(db, "LV1").departures.first)
        #expect(bus.headsign == "109 Maryland Pkwy Northbound")  // as the feed gives it
        #expect(bus.destination == "Maryland Pkwy Northbound")
        #expect(bus.tripShortName == nil)
    }

    @Test func routesAndServiceSpansListDestinations() throws {
        let view = try view(try database(), "MAD")
        let byRoute = Dictionary(
            uniqueKeysWithValues: view.routes.map { ($0.route.id, $0.directions.flatMap(\.headsigns)) })
        #expect(byRoute["AVE"] == ["Barcelona por Zaragoza", "Barcelona-Sants"])
        #expect(byRoute["ALVIA"] == ["Zaragoza-Delicias"])
        #expect(view.serviceSpans.first { $0.route.id == "ALVIA" }?.headsigns == ["Zaragoza-Delicias"])
        let bus = try self.view(try database(), "LV1")
        #expect(bus.routes.first?.directions.first?.headsigns == ["Maryland Pkwy Northbound"])
    }

    @Test func importRecordsEachTripsLastStop() throws {
        let queue = try DatabaseQueue(path: try Self.imported.get())
        let lastStops = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.trip_id, s.stop_id FROM trips t JOIN stops s ON s.stop_idx = t.last_stop_idx
                    ORDER BY t.trip_id
                    """
            ).map { "\($0[0] as String)→\($0[1] as String)" }
        }
        #expect(lastStops == ["BUS1→LV3", "T00601→ZAR", "T03083→BCN", "T03163→BCN"])
    }

    /// A file written before `trips.last_stop_idx` existed: readers find the last stop from the stop times.
    @Test func olderFilesWithoutTheColumnStillNameTheLastStop() throws {
        let copy = TemporaryFolder.make("older").appendingPathComponent("routes.sqlite").path
        try FileManager.default.copyItem(atPath: try Self.imported.get(), toPath: copy)
        try DatabaseQueue(path: copy).write { db in
            try db.execute(sql: "ALTER TABLE trips DROP COLUMN last_stop_idx")
        }
        let db = try RouteDatabase(path: copy)
        #expect(try view(db, "MAD").departures.map(\.destination).prefix(2) == ["Barcelona-Sants", "Zaragoza-Delicias"])
        #expect(try db.trip(atIndex: 1)?.lastStopName == "Barcelona-Sants")
    }

    /// What the posters' headings say (`StopPosterComposer`, `RoutePosterComposer` print these as given).
    @Test func timetablesNameDestinationsByTheSameRule() throws {
        let db = try database()
        let monday = ServiceDate(yyyymmdd: 20261123)!
        let stop = try db.stopTimetable(for: try db.resolveStop(.idOrCode("ZAR")), span: .day(monday))
        #expect(stop.sections.map { "\($0.route.label) \($0.headsign)" } == ["AVE Barcelona-Sants"])
        #expect(try db.routeTimetable("ALVIA", date: monday).headsign == "Zaragoza-Delicias")
        let bus = try db.routeTimetable("B109", date: monday)
        #expect(bus.headsign == "Maryland Pkwy Northbound")
        #expect(bus.trips.map(\.headsign) == ["Maryland Pkwy Northbound"])
    }

    @Test func routeDirectionsAndMapsNameTheLastStop() throws {
        let db = try database()
        let detail = try db.routeDetail("ALVIA", date: ServiceDate(yyyymmdd: 20261123))
        #expect(detail.directions.map(\.headsign) == ["Zaragoza-Delicias"])
        #expect(try db.routePatterns("AVE").patterns.map(\.headsign) == ["Barcelona-Sants"])
        #expect(try db.routeDiagram(route: "B109").headsign == "Maryland Pkwy Northbound")
        let map = try db.stopMap(for: try db.resolveStop(.idOrCode("MAD")), radiusMeters: 400)
        let legend = map.lines.map { "\($0.route.label) \($0.headsign ?? "?")" }
        #expect(legend.sorted() == ["ALVIA Zaragoza-Delicias", "AVE Barcelona-Sants"])
        #expect(map.lines.allSatisfy { $0.headsign != nil })
    }
}
