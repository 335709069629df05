import Foundation
import GRDB
import KioskTesting
import SampleData
import Testing

@testable import TransitStore

@Suite struct GTFSImporterTests {
    func importFeed(_ feed: URL) throws -> (ImportSummary, DatabaseQueue) {
        let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        let summary = try GTFSImporter(feedPath: feed.path, databasePath: db).run()
        return (summary, try DatabaseQueue(path: db))
    }

    func importError(_ changes: [String: String?]) -> ImportError? {
        let feed = TestSupport.feed(replacing: changes)
        do {
            _ = try importFeed(feed)
            return nil
        } catch let error as ImportError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: Messy but valid feeds

    @Test func minimalFeedImports() throws {
        let (summary, db) = try importFeed(TestSupport.writeFeed(TestSupport.minimalFeed))
        #expect(summary.count("stops") == 3)
        #expect(summary.count("stop_times") == 6)
        #expect(summary.serviceStart?.yyyymmdd == 20260101)
        #expect(summary.serviceEnd?.yyyymmdd == 20261231)
        #expect(summary.warnings.total == 0)
        let departures = try db.read {
            try Int.fetchAll($0, sql: "SELECT departure_time FROM stop_times ORDER BY trip_idx, stop_sequence")
        }
        #expect(departures == [28_800, 29_400, 30_000, 32_400, 33_000, 33_600])
    }

    @Test func messyFormattingIsAccepted() throws {
        let feed = TestSupport.feed(replacing: [
            // BOM, CRLF, header names with spaces, columns in another order, an unknown column, no final newline
            "stops.txt":
                "\u{FEFF} stop_lat , stop_id,stop_name ,extra_column,stop_lon\r\n-0.20,S1,\"Primera, \"\"la\"\" parada\",x,-78.50\r\n-0.21,S2,Segunda,y,-78.50\r\n\r\n-0.22,S3,\"Tercera\nlínea\",z,-78.50",
            // times without a leading zero and past 24:00; rows shorter than the header; mixed line endings
            "stop_times.txt":
                "trip_id,stop_id,stop_sequence,arrival_time,departure_time,pickup_type\nT1,S1,1,6:00:00,6:00:00\r\nT1,S2,2,23:59:00,24:05:00,0\nT1,S3,3,25:10:00,25:10:00\nT2,S1,1,09:00:00,09:00:00\nT2,S3,2,09:20:00,09:20:00,1\n",
            // extended route type
            "routes.txt": "route_id,route_type,route_short_name\nR1,800,T\n",
        ])
        let (summary, db) = try importFeed(feed)
        #expect(summary.count("stops") == 3)
        #expect(summary.count("stop_times") == 5)
        try db.read { (db: Database) throws in
            #expect(
                try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S1'")
                    == "Primera, \"la\" parada")
            #expect(
                try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S3'") == "Tercera\nlínea")
            #expect(
                try Int.fetchAll(db, sql: "SELECT departure_time FROM stop_times ORDER BY trip_idx, stop_sequence") == [
                    21_600, 86_700, 90_600, 32_400, 33_600,
                ])
            #expect(
                try Int.fetchOne(db, sql: "SELECT pickup_type FROM stop_times WHERE trip_idx = 2 AND stop_sequence = 2")
                    == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT route_type FROM routes") == 800)
            #expect(try String.fetchOne(db, sql: "SELECT name_key FROM stops WHERE stop_id = 'S3'") == "tercera linea")
        }
    }

    @Test func tripsWithoutHeadsignsStillListRoutesAtStops() throws {
        let feed = TestSupport.feed(replacing: ["trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\n"])
        let (summary, db) = try importFeed(feed)
        #expect(summary.count("stop_routes") == 2)  // S1 and S2 board route R1; S3 only ends trips
        // Named by where they end (`TripDestination`): the last stop, S3.
        #expect(
            try db.read { try String.fetchAll($0, sql: "SELECT headsigns FROM stop_routes") } == ["Tercera", "Tercera"])
    }

    @Test func calendarDatesWithoutCalendar() throws {
        let feed = TestSupport.feed(replacing: [
            "calendar.txt": nil,
            "calendar_dates.txt": "service_id,date,exception_type\nWK,20261125,1\nWK,20261126,1\n",
        ])
        let (summary, _) = try importFeed(feed)
        #expect(summary.count("calendar") == 0)
        #expect(summary.count("calendar_dates") == 2)
        #expect(summary.serviceStart?.yyyymmdd == 20261125)
        #expect(summary.serviceEnd?.yyyymmdd == 20261126)
    }

    @Test func missingTimesAreInterpolated() throws {
        let feed = TestSupport.feed(replacing: [
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,,,S2,2\nT1,08:20:00,08:20:00,S3,3\nT2,09:00:00,09:00:00,S1,1\nT2,09:20:00,09:20:00,S3,2\n"
        ])
        let (summary, db) = try importFeed(feed)
        #expect(summary.interpolatedStopTimes == 1)
        #expect(
            try db.read {
                try Int.fetchOne(
                    $0, sql: "SELECT departure_time FROM stop_times WHERE trip_idx = 1 AND stop_sequence = 2")
            } == 29_400)
    }

    @Test func recoverableOdditiesBecomeCountedWarnings() throws {
        let feed = TestSupport.feed(replacing: [
            "stops.txt":
                "stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding\nS1,Primera,-0.20,-78.50,7\nS2,Segunda,,,\nS3,Tercera,-0.22,-78.50,1\n",
            "routes.txt": "route_id,route_type,route_short_name,route_color\nR1,42,1,GREEN\n",
        ])
        let (summary, _) = try importFeed(feed)
        let messages = summary.warnings.kinds.map(\.message)
        #expect(messages.contains { $0.contains("unknown wheelchair_boarding") })
        #expect(messages.contains { $0.contains("stop without coordinates") })
        #expect(messages.contains { $0.contains("stop time at a stop without coordinates") })
        #expect(messages.contains { $0.contains("unknown route_type") })
        #expect(messages.contains { $0.contains("colour") })
        #expect(
            summary.warnings.kinds.first { $0.message.contains("stop time at a stop without coordinates") }?.count == 2)
    }

    // MARK: Errors name file, line, column and value

    @Test func missingRequiredFile() {
        guard case let .missingFile(file, _)? = importError(["stops.txt": nil]) else {
            Issue.record("no error"); return
        }
        #expect(file == "stops.txt")
        guard case let .missingFile(file2, _)? = importError(["calendar.txt": nil]) else {
            Issue.record("no error"); return
        }
        #expect(file2 == "calendar.txt or calendar_dates.txt")
    }

    @Test func missingRequiredColumn() {
        #expect(
            importError(["trips.txt": "route_id,trip_id\nR1,T1\n"])
                == .missingColumn(file: "trips.txt", column: "service_id"))
    }

    @Test func unparsableTime() {
        let error = importError([
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,8:61:00,08:10:00,S2,2\n"
        ])
        #expect(
            error
                == .invalidValue(
                    file: "stop_times.txt", line: 3, column: "arrival_time", value: "8:61:00",
                    expected: "a time HH:MM:SS"))
        #expect(error?.description == "stop_times.txt line 3, column 'arrival_time': '8:61:00' is not a time HH:MM:SS")
    }

    @Test func unparsableDate() {
        let error = importError([
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,2026-01-01,20261231\n"
        ])
        #expect(
            error
                == .invalidValue(
                    file: "calendar.txt", line: 2, column: "start_date", value: "2026-01-01",
                    expected: "a date YYYYMMDD"))
    }

    @Test func unknownTripAndStop() {
        #expect(
            importError([
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT9,08:10:00,08:10:00,S2,1\n"
            ])
                == .unknownReference(
                    file: "stop_times.txt", line: 3, column: "trip_id", value: "T9", target: "trips.txt"))
        #expect(
            importError([
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S7,2\n"
            ])
                == .unknownReference(
                    file: "stop_times.txt", line: 3, column: "stop_id", value: "S7", target: "stops.txt"))
        #expect(
            importError(["trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,SAT,T2\n"])
                == .unknownReference(
                    file: "trips.txt", line: 3, column: "service_id", value: "SAT",
                    target: "calendar.txt or calendar_dates.txt"))
    }

    @Test func duplicatePrimaryKeys() {
        #expect(
            importError([
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon\nS1,A,-0.2,-78.5\nS2,B,-0.2,-78.5\nS1,C,-0.2,-78.5\nS3,D,-0.2,-78.5\n"
            ])
                == .duplicateKey(file: "stops.txt", line: 4, key: "stop_id", value: "S1", firstLine: 2))
        #expect(
            importError([
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,1\n"
            ])
                == .duplicateKey(
                    file: "stop_times.txt", line: 3, key: "trip_id and stop_sequence", value: "T1 1", firstLine: nil))
    }

    /// Stop times go in many rows per statement where no row can repeat an earlier one; a repeat is still refused at
    /// its own line whether it comes within a trip's run of rows or in a later run of the same trip, after enough rows
    /// for several statements, and a feed whose trips come in several runs imports every row.
    @Test func stopTimesInManyRowsPerStatementKeepTheirChecks() throws {
        func rows(_ trip: String, _ sequences: ClosedRange<Int>) -> String {
            sequences.map { sequence in
                let time = String(format: "%02d:%02d:00", 8 + sequence / 60, sequence % 60)
                return "\(trip),\(time),\(time),S\(sequence % 3 + 1),\(sequence)\n"
            }.joined()
        }
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        // T1's first 80 rows, T2's 40, then T1's sequence 50 again (line 1 + 80 + 40 + 1), then more of T2's.
        #expect(
            importError([
                "stop_times.txt": header + rows("T1", 1...80) + rows("T2", 1...40) + rows("T1", 50...50)
                    + rows("T2", 41...80)
            ])
                == .duplicateKey(
                    file: "stop_times.txt", line: 122, key: "trip_id and stop_sequence", value: "T1 50", firstLine: nil)
        )
        // Within one run: 70 rows, then sequence 35 again.
        #expect(
            importError(["stop_times.txt": header + rows("T1", 1...70) + rows("T1", 35...35) + rows("T2", 1...40)])
                == .duplicateKey(
                    file: "stop_times.txt", line: 72, key: "trip_id and stop_sequence", value: "T1 35", firstLine: nil))
        // T1 in two runs around T2's, and T2's sequences out of order: every row is stored, none twice.
        let feed = TestSupport.feed(replacing: [
            "stop_times.txt": header + rows("T1", 1...40) + rows("T2", 41...100) + rows("T2", 1...40)
                + rows("T1", 41...100)
        ])
        let (summary, db) = try importFeed(feed)
        #expect(summary.count("stop_times") == 200)
        let perTrip = try db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.trip_id, COUNT(*), MIN(stop_sequence), MAX(stop_sequence) FROM stop_times s
                    JOIN trips t USING (trip_idx) GROUP BY t.trip_id ORDER BY t.trip_id
                    """
            ).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int) \($0[3] as Int)" }
        }
        #expect(perTrip == ["T1 100 1 100", "T2 100 1 100"])
    }

    @Test func badZipAndMissingFeed() throws {
        let dir = TemporaryFolder.make("zip")
        let zip = dir.appendingPathComponent("broken.zip")
        try Data("this is not a zip".utf8).write(to: zip)
        #expect(throws: ImportError.self) {
            try GTFSImporter(feedPath: zip.path, databasePath: dir.appendingPathComponent("x.sqlite").path).run()
        }
        #expect(throws: ImportError.unreadableFeed(path: "/nonexistent/feed.zip", reason: "no such file or directory"))
        {
            try GTFSImporter(
                feedPath: "/nonexistent/feed.zip", databasePath: dir.appendingPathComponent("x.sqlite").path
            ).run()
        }
    }

    // MARK: The sample network

    @Test func sampleNetworkExactCounts() throws {
        let (summary, db) = try importFeed(SampleData.sampleNetworkFeed)
        let expected: [String: Int] = [
            "agency": 2, "stops": 94, "routes": 7, "services": 4, "calendar": 3, "calendar_dates": 31,
            "trips": 2368, "stop_times": 19_784, "frequencies": 18, "transfers": 32, "feed_info": 1,
        ]
        for (table, rows) in expected { #expect(summary.count(table) == rows, "\(table)") }
        #expect(summary.warnings.total == 0)
        #expect(summary.timeZone == "America/Guayaquil")
        #expect(summary.serviceStart?.yyyymmdd == 20260101 && summary.serviceEnd?.yyyymmdd == 20271231)
        try db.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_code = '1091'") == "El Ejido")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stops WHERE location_type = 1") == 17)
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(departure_time) FROM stop_times") ?? 0 > 86_400)
            // The latest departure is recorded from per-stop seeks; it is what a scan of every stop time (and
            // the frequency trips' last runs) gives.
            let scanned = try Int.fetchOne(
                db,
                sql: """
                    SELECT MAX(t) FROM (SELECT MAX(departure_time) AS t FROM stop_times UNION ALL
                    SELECT f.end_time + (SELECT MAX(departure_time) - MIN(departure_time) FROM stop_times s WHERE s.trip_idx = f.trip_idx) FROM frequencies f)
                    """)
            #expect(
                try String.fetchOne(db, sql: "SELECT value FROM feed_metadata WHERE key = 'latest_departure_seconds'")
                    == scanned.map(String.init))
            #expect(
                try String.fetchOne(db, sql: "SELECT value FROM feed_metadata WHERE key = 'feed_hash'")?.count == 64)
        }
    }

    // MARK: Real feeds (../shared/data/gtfs), skipped on a clone without them

    @Test(
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)),
        arguments: [
            (
                "google-sample.zip",
                [
                    "stops": 9, "stop_times": 28, "trips": 11, "routes": 5, "frequencies": 11, "calendar": 2,
                    "calendar_dates": 1,
                ]
            ),
            (
                "carta.zip",
                ["stops": 1163, "stop_times": 82_644, "routes": 14, "trips": 1848, "calendar": 3, "calendar_dates": 5]
            ),
            (
                "vilnius.zip",
                [
                    "stops": 1293, "stop_times": 445_217, "routes": 101, "trips": 23_398, "calendar": 8,
                    "calendar_dates": 72,
                ]
            ),
        ])
    func realFeedsImportWithExactCounts(file: String, expected: [String: Int]) throws {
        let shared = try #require(SharedData.folder)
        let (summary, _) = try importFeed(shared.appendingPathComponent("gtfs/\(file)"))
        for (table, rows) in expected { #expect(summary.count(table) == rows, "\(file) \(table)") }
    }
}
