import Foundation
import KioskTesting
import Testing

@testable import TransitStore

/// `kiosk lookup --json` on a database of several feeds (issue 24): each stop, route and trip names its feed with
/// `feed_id` beside its id; a database of one feed prints no `feed_id` (the golden files pin its bytes).
@Suite struct MultiFeedLookupJSONTests {
    @Test func lookupJSONNamesTheFeedOfEveryId() throws {
        let dir = TemporaryFolder.make("multi-json")
        let path = dir.appendingPathComponent("region.sqlite").path
        let inputs = [("metro", MultiFeedImportTests.metro), ("bus", MultiFeedImportTests.bus)].map {
            FeedInput(id: $0.0, path: TemporaryFolder.make($0.0, files: $0.1).path)
        }
        _ = try GTFSImporter(feeds: inputs, databasePath: path).run()

        let run = try Programs.runKiosk(["lookup", "bus:1", "--db", path, "--at", "2026-11-25T07:55", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let view = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let stop = try #require(view["stop"] as? [String: Any])
        #expect(stop["id"] as? String == "bus:1" && stop["feed_id"] as? String == "bus")
        let platforms = try #require(view["platforms"] as? [[String: Any]])
        #expect(platforms.map { $0["feed_id"] as? String } == ["bus"])
        let departure = try #require((view["departures"] as? [[String: Any]])?.first, "\(run.stdout)")
        #expect(departure["trip_id"] as? String == "bus:T1" && departure["feed_id"] as? String == "bus")
        let route = try #require(departure["route"] as? [String: Any])
        #expect(route["id"] as? String == "bus:A" && route["feed_id"] as? String == "bus")
        let spans = try #require(view["service_spans"] as? [[String: Any]])
        #expect(!spans.isEmpty && spans.allSatisfy { ($0["route"] as? [String: Any])?["feed_id"] as? String == "bus" })
        let routes = try #require(view["routes"] as? [[String: Any]])
        #expect(routes.map { ($0["route"] as? [String: Any])?["feed_id"] as? String } == ["bus"])
    }

    @Test func oneFeedLookupJSONNamesNoFeed() throws {
        let path = TemporaryFolder.make("one-json").appendingPathComponent("one.sqlite").path
        let feed = TemporaryFolder.make("metro", files: MultiFeedImportTests.metro).path
        _ = try GTFSImporter(feeds: [FeedInput(id: "metro", path: feed)], databasePath: path).run()
        let run = try Programs.runKiosk(["lookup", "1", "--db", path, "--at", "2026-11-25T07:55", "--json"])
        #expect(run.status == 0 && run.stdout.contains("\"trip_id\" : \"T1\""), "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("feed_id"))
    }
}
