import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing

/// `kiosk doctor`'s feed check: reachable, decodable, age, trip match rate (near zero for another agency's feed).
@Suite struct DoctorFeedTests {
    static func doctor(tripUpdates: String, alerts: String? = nil) throws -> ProcessResult {
        let folder = TemporaryFolder.make("doctor-feed")
        let config = folder.appendingPathComponent("kiosk.toml")
        var text = "[realtime]\ntrip_updates = \"\(tripUpdates)\"\n"
        if let alerts { text += "alerts = \"\(alerts)\"\n" }
        try Data(text.utf8).write(to: config)
        return try Programs.runKiosk(["doctor", "--config", config.path, "--no-camera"])
    }

    static func line(_ output: String, _ area: String) -> String {
        output.split(separator: "\n").filter { $0.contains(area) }.joined(separator: "\n")
    }

    @Test func theSampleScenarioMatchesTheSampleNetwork() throws {
        let scenario = Repository.root.appendingPathComponent("assets/realtime/quito-scenario.pb").path
        let result = try Self.doctor(tripUpdates: scenario, alerts: scenario)
        let trips = Self.line(result.stdout, "realtime trip_updates")
        #expect(trips.contains("trip match rate 100.0% (3 matched, 0 unknown)"), "\(result.stdout)")
        #expect(Self.line(result.stdout, "realtime alerts").contains("5 entities"), "\(result.stdout)")
    }

    @Test func anotherAgencysFeedShowsAMatchRateNearZero() throws {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = UInt64(Date().timeIntervalSince1970)
        for n in 0..<20 {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "e\(n)"
            entity.tripUpdate.trip.tripID = "BART-\(n)WKDY"
            var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
            stop.stopID = "MONT"
            stop.departure.delay = 60
            entity.tripUpdate.stopTimeUpdate = [stop]
            message.entity.append(entity)
        }
        let file = TemporaryFolder.make("foreign").appendingPathComponent("bart.pb")
        try message.serializedData().write(to: file)
        let result = try Self.doctor(tripUpdates: file.path)
        let trips = Self.line(result.stdout, "realtime trip_updates")
        #expect(trips.contains("trip match rate 0.0% (0 matched, 20 unknown)"), "\(result.stdout)")
        #expect(result.stdout.contains("a feed for another agency"), "\(result.stdout)")
    }

    @Test func aDeadServerAndAnHTMLPageAreWarningsNamingTheCause() throws {
        let port = try LocalPorts.unused()
        let down = try Self.doctor(tripUpdates: "http://127.0.0.1:\(port)/tu")
        // Refused at once, or (on a starved machine) cut off by the fetch timeout: either way a warning naming the URL.
        let line = Self.line(down.stdout, "realtime trip_updates")
        #expect(
            line.contains("[warn]")
                && (line.contains("cannot fetch http://127.0.0.1:\(port)/tu")
                    || line.contains("http://127.0.0.1:\(port)/tu did not answer")),
            "\(down.stdout)")
        let html = TemporaryFolder.make("html").appendingPathComponent("tu.html")
        try Data("<html><body>Service Unavailable</body></html>".utf8).write(to: html)
        let page = try Self.doctor(tripUpdates: html.path)
        #expect(page.stdout.contains("is this the GTFS-Realtime (protobuf) URL?"), "\(page.stdout)")
    }
}
