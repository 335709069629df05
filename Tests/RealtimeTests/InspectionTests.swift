import Foundation
import KioskTesting
import Realtime
import Testing
import TransitModel
import TransitStore

/// `kiosk rt inspect`: the report on the real captures, and the command as a person runs it.
@Suite struct InspectionTests {
    typealias S = RealtimeSupport

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func bartReportNamesUnknownTripsAndDisagreements() throws {
        let database = try #require(S.bart)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("bart/bart-trip-updates.pb")!.path)
        let at = try #require(feed.headerTimestamp).addingTimeInterval(20)
        let report = try FeedInspection(feed: feed, source: "bart-trip-updates.pb", database: db, at: at)
        #expect(report.ageSeconds == 20 && report.freshness == "live")
        #expect(report.tripUpdates?.tripsUnknown == 18 && report.tripUpdates?.tripsAdded == 8)
        #expect(report.oddities.contains { $0.hasPrefix("18 trip_ids are not in the timetable") })
        #expect(report.oddities.contains { $0.hasPrefix("161 stop updates have a stop_sequence") })
        #expect(report.text.contains("65 matched, 18 unknown (match rate 78.3%), 8 added"))
        let json = try report.json()
        #expect(
            json.contains("\"trips_unknown\" : 18")
                && json.contains("\"header_timestamp\" : \"2019-08-07T10:45:21-07:00\""))
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func oldCaptureIsReportedStaleAndVehiclesMatch() throws {
        let database = try #require(S.caltrain)
        let db = try database.get()
        let feed = try RealtimeFeed.read(path: S.capture("caltrain/ct-vehicle-positions.pb")!.path)
        let at = try #require(LocalTime.parse("2026-11-25T08:00", in: db.timeZone))
        let report = try FeedInspection(feed: feed, source: "ct-vehicle-positions.pb", database: db, at: at)
        #expect(report.vehiclePositions?.vehicles == 14)
        #expect(report.vehiclePositions?.tripsUnknown == 0 && (report.vehiclePositions?.tripsMatched ?? 0) > 0)
        #expect(
            report.freshness.hasPrefix("stale: the feed's header timestamp is")
                && report.freshness.hasSuffix("days behind the clock"))
        #expect(report.oddities.contains { $0.hasPrefix("data is stale") })
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func commandPrintsTheReportAndRefusesHTML() throws {
        let database = try #require(S.bart)
        let db = try database.get()
        let feed = S.capture("bart/bart-alerts.pb")!.path
        let ok = try run(["rt", "inspect", feed, "--db", db.path, "--at", "2019-08-07T10:46"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("1 alerts, 1 active now, 1 informed entities, languages: en-US"))
        let json = try run(["rt", "inspect", feed, "--db", db.path, "--at", "2019-08-07T10:46", "--json"])
        #expect(json.status == 0 && json.stdout.contains("\"alerts\" : 1"))
        let page = S.temporaryDirectory("html").appendingPathComponent("feed.pb")
        try Data("<html><body>Service unavailable</body></html>".utf8).write(to: page)
        let html = try run(["rt", "inspect", page.path, "--db", db.path])
        #expect(html.status == 2 && html.stderr.contains("an HTML page, not a GTFS-Realtime protobuf"))
    }

    func run(_ arguments: [String]) throws -> ProcessResult { try Programs.runKiosk(arguments) }
}
