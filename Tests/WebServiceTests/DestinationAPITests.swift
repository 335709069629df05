import Foundation
import KioskTesting
import Testing
import TransitStore

/// The API on a feed like Renfe's (no trip_headsign, train numbers): `headsign` stays as the feed has it,
/// `destination` names where the train goes, `trip_short_name` its number — on the board and in plans.
@Suite struct DestinationAPITests {
    static let database: String = {
        let path = TemporaryFolder.make("web-headsignless").appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feedPath: HeadsignlessFeed.folder().path, databasePath: path).run()
        return path
    }()

    @Test func stopViewAndPlanNameTheLastStop() async throws {
        let (_, view) = try await MultiFeedAPITests.get(
            "/api/v1/stops/MAD?at=2026-11-23T08%3A20&window=120", database: Self.database)
        let departures = MultiFeedAPITests.objects(view["departures"])
        #expect(departures.map { $0["headsign"] as? String } == ["", "", "Barcelona por Zaragoza"])
        #expect(
            departures.map { $0["destination"] as? String }
                == ["Barcelona-Sants", "Zaragoza-Delicias", "Barcelona por Zaragoza"])
        #expect(departures.map { $0["trip_short_name"] as? String } == ["03083", "00601", "03163"])

        let (_, plan) = try await MultiFeedAPITests.get(
            "/api/v1/plan?from=MAD&to=BCN&at=2026-11-23T08%3A20", database: Self.database)
        let legs = MultiFeedAPITests.objects(MultiFeedAPITests.objects(plan["options"]).first?["legs"])
        let ride = try #require(legs.first { $0["kind"] as? String == "ride" })
        #expect(ride["destination"] as? String == "Barcelona-Sants")
        #expect(ride["trip_short_name"] as? String == "03083")
    }

    @Test func aHeadsignRepeatingTheRouteNumberIsShownWithoutIt() async throws {
        let (_, view) = try await MultiFeedAPITests.get(
            "/api/v1/stops/LV1?at=2026-11-23T08%3A20", database: Self.database)
        let bus = try #require(MultiFeedAPITests.objects(view["departures"]).first)
        #expect(bus["headsign"] as? String == "109 Maryland Pkwy Northbound")
        #expect(bus["destination"] as? String == "Maryland Pkwy Northbound")
        #expect(bus["trip_short_name"] == nil)
    }
}
