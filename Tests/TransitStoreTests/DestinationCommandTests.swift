import Foundation
import KioskTesting
import Testing

/// A feed like Renfe's (no trip_headsign, train numbers in trip_short_name, no shapes) through the commands a
/// passenger's answers come from: every departure, ride and map line names where it goes, never '?'.
@Suite struct DestinationCommandTests {
    static let database = Result { () throws -> String in
        let path = TemporaryFolder.make("headsignless-cli").appendingPathComponent("routes.sqlite").path
        let run = try Programs.runKiosk(
            ["import", HeadsignlessFeed.folder().path, "--db", path, "--progress", "off"])
        guard run.status == 0 else { throw FixtureFailure("kiosk import failed: \(run.stderr)") }
        return path
    }

    func kiosk(_ arguments: [String]) throws -> ProcessResult {
        let result = try Programs.runKiosk(arguments + ["--db", try Self.database.get()])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test func lookupTextNamesLastStopsBesideTrainNumbers() throws {
        let text = try kiosk(["lookup", "MAD", "--at", HeadsignlessFeed.morning, "--lang", "en"]).stdout
        #expect(text.contains("08:30  AVE 03083   Barcelona-Sants"), "\(text)")
        #expect(text.contains("08:40  ALVIA 00601 Zaragoza-Delicias"), "\(text)")
        #expect(text.contains("09:00  AVE 03163   Barcelona por Zaragoza"), "\(text)")  // its stop_headsign here
        #expect(text.contains("ALVIA  train      → Zaragoza-Delicias"), "\(text)")
        let bus = try kiosk(["lookup", "LV1", "--at", HeadsignlessFeed.morning, "--lang", "en"]).stdout
        #expect(bus.contains("109    Maryland Pkwy Northbound"), "\(bus)")
        #expect(!bus.contains("109 Maryland"), "\(bus)")
    }

    @Test func lookupJSONKeepsTheFeedsHeadsignAndAddsTheDestination() throws {
        let json = try kiosk(["lookup", "MAD", "--at", HeadsignlessFeed.morning, "--json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let departures = try #require(object["departures"] as? [[String: Any]])
        #expect(departures.map { $0["headsign"] as? String } == ["", "", "Barcelona por Zaragoza"])
        #expect(
            departures.map { $0["destination"] as? String }
                == ["Barcelona-Sants", "Zaragoza-Delicias", "Barcelona por Zaragoza"])
        #expect(departures.map { $0["trip_short_name"] as? String } == ["03083", "00601", "03163"])
        let bus = try kiosk(["lookup", "LV1", "--at", HeadsignlessFeed.morning, "--json"]).stdout
        #expect(bus.contains("\"headsign\" : \"109 Maryland Pkwy Northbound\""))
        #expect(bus.contains("\"destination\" : \"Maryland Pkwy Northbound\""))
        #expect(!bus.contains("trip_short_name"))
    }

    @Test func planTextTakesTheTrainToItsLastStop() throws {
        let text = try kiosk(["plan", "MAD", "BCN", "--at", HeadsignlessFeed.morning, "--lang", "en"]).stdout
        #expect(text.contains("08:30  Take AVE 03083 to Barcelona-Sants at Madrid-Puerta de Atocha"), "\(text)")
        let spanish = try kiosk(["plan", "MAD", "ZAR", "--at", "2026-11-23T08:35", "--lang", "es"]).stdout
        #expect(spanish.contains("Tome ALVIA 00601 hacia Zaragoza-Delicias en Madrid-Puerta de Atocha"), "\(spanish)")
        let json = try kiosk(["plan", "MAD", "BCN", "--at", HeadsignlessFeed.morning, "--json"]).stdout
        #expect(json.contains("\"destination\" : \"Barcelona-Sants\""))
        #expect(json.contains("\"trip_short_name\" : \"03083\""))
    }

    @Test func mapLegendNamesEachRouteOnceWithItsDestination() throws {
        let svg = try kiosk(["map", "MAD", "--lang", "en", "--out", "-"]).stdout
        let desc = try #require(svg.range(of: "<desc[^>]*>[^<]*", options: .regularExpression).map { String(svg[$0]) })
        #expect(desc.contains("Route ALVIA to Zaragoza-Delicias"), "\(desc)")
        #expect(desc.contains("Route AVE to Barcelona-Sants"), "\(desc)")
        #expect(!desc.contains(" to ?"), "\(desc)")
        // No route has a shape: said once, not per route.
        #expect(desc.components(separatedBy: "no shape in the feed").count == 2, "\(desc)")
    }
}
