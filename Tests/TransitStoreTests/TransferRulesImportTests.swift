import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// transfers.txt as hostile and careless feeds write it (issue 36): a negative min_transfer_time is refused
/// naming the file, line, column and value; a file of hundreds of thousands of rules imports; a region's
/// transfers file says which feeds a bare id two of them have belongs to.
@Suite struct TransferRulesImportTests {
    static let header = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n"

    /// GTFS: min_transfer_time is a "Non-negative integer". -5 used to pass the import and then fail building the
    /// planning timetable with `durationOutOfRange(seconds: -5)`, naming nothing a person could find.
    @Test func aNegativeMinimumTransferTimeIsRefusedWithItsFileAndLine() throws {
        let feed = TestSupport.feed(replacing: [
            "transfers.txt": Self.header + "S1,S2,2,120\nS2,S3,2,-5\n"
        ])
        for lenient in [false, true] {
            let path = TemporaryFolder.make("negative").appendingPathComponent("r.sqlite").path
            let error = #expect(throws: ImportError.self) {
                try GTFSImporter(feedPath: feed.path, databasePath: path, lenient: lenient).run()
            }
            #expect(
                error?.description
                    == "transfers.txt line 3, column 'min_transfer_time': '-5' is not a non-negative whole number of seconds",
                "lenient \(lenient)")
            #expect(!FileManager.default.fileExists(atPath: path), "nothing is written")
        }

        // The command: exit 2, the same words, and the database in service is left as it was.
        let db = TemporaryFolder.make("negative-cli").appendingPathComponent("routes.sqlite").path
        var result = try Programs.runKiosk(["import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", db])
        try #require(result.status == 0, "\(result)")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        result = try Programs.runKiosk(["import", feed.path, "--db", db])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "transfers.txt line 3, column 'min_transfer_time': '-5' is not a non-negative whole number of seconds"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("durationOutOfRange"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    /// The region's file between feeds (`kiosk import --transfers`) is read by the same rules, and its errors name
    /// that file.
    @Test func aNegativeTimeInTheRegionsTransfersFileNamesThatFile() throws {
        let dir = TemporaryFolder.make("negative-region")
        let rules = dir.appendingPathComponent("between.txt")
        try (Self.header + "metro:2,bus:1,2,300\nbus:2,metro:1,2,-5\n").write(to: rules, atomically: true, encoding: .utf8)
        let inputs = [("metro", MultiFeedImportTests.metro), ("bus", MultiFeedImportTests.bus)].map {
            FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path)
        }
        var importer = GTFSImporter(feeds: inputs, databasePath: dir.appendingPathComponent("region.sqlite").path)
        importer.regionTransfers = rules.path
        let error = #expect(throws: ImportError.self) { try importer.run() }
        #expect(
            error?.description
                == "the transfers between feeds, \(rules.path): transfers.txt line 3, column 'min_transfer_time': '-5' is not a non-negative whole number of seconds"
        )
    }

    /// A bare id two feeds both have, in the region's file, is ambiguous, not "not defined": the error lists the
    /// candidates as a lookup does, in strict and lenient imports alike (which feed is meant is not a repair).
    @Test func aBareIdTwoFeedsHaveInTheRegionsFileIsAmbiguous() throws {
        let dir = TemporaryFolder.make("ambiguous-region")
        let rules = dir.appendingPathComponent("between.txt")
        try (Self.header + "metro:2,bus:1,2,300\n2,metro:1,3,\n").write(to: rules, atomically: true, encoding: .utf8)
        let inputs = [("metro", MultiFeedImportTests.metro), ("bus", MultiFeedImportTests.bus)].map {
            FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path)
        }
        for lenient in [false, true] {
            var importer = GTFSImporter(
                feeds: inputs, databasePath: dir.appendingPathComponent("region.sqlite").path, lenient: lenient)
            importer.regionTransfers = rules.path
            let error = #expect(throws: ImportError.self) { try importer.run() }
            #expect(
                error?.description
                    == "the transfers between feeds, \(rules.path): transfers.txt line 3, column 'from_stop_id': '2' is defined in several feeds' stops.txt: metro:2, bus:2; give it with its feed, e.g. metro:2",
                "lenient \(lenient)")
        }

        // The region's interchanges file reads bare ids by the same rule.
        let places = dir.appendingPathComponent("interchanges.txt")
        try "from_stop_id,to_stop_id\nmetro:1,1\n".write(to: places, atomically: true, encoding: .utf8)
        var joining = GTFSImporter(feeds: inputs, databasePath: dir.appendingPathComponent("places.sqlite").path)
        joining.regionInterchanges = places.path
        let placesError = #expect(throws: ImportError.self) { try joining.run() }
        #expect(
            placesError?.description.hasSuffix(
                "interchanges.txt line 2, column 'to_stop_id': '1' is defined in several feeds' stops.txt: metro:1, bus:1; give it with its feed, e.g. metro:1"
            ) == true, "\(String(describing: placesError))")

        // Through the command: exit 2 with the same words.
        let result = try Programs.runKiosk([
            "import", "metro=\(inputs[0].path)", "bus=\(inputs[1].path)", "--transfers", rules.path, "--db",
            dir.appendingPathComponent("cli.sqlite").path,
        ])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("'2' is defined in several feeds' stops.txt: metro:2, bus:2"), "\(result.stderr)")
    }

    /// Stop ids that contain ':' themselves (a feed named after its agency whose ids carry the agency's prefix,
    /// IDFM:42 in feed IDFM; or `metro:9` as a stop of feed `bus`) resolve bare when one feed has them.
    @Test func aBareIdContainingAColonThatOneFeedHasResolves() throws {
        var idfm = MultiFeedImportTests.metro
        idfm["stops.txt"] =
            "stop_id,stop_name,stop_lat,stop_lon\nIDFM:42,Châtelet,-0.200,-78.500\nIDFM:43,Norte,-0.2005,-78.510\n"
        idfm["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,IDFM:42,1\nT1,08:10:00,08:10:00,IDFM:43,2\n"
        var bus = MultiFeedImportTests.bus
        bus["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nIDFM:9,Plaza,-0.300,-78.500\n2,Sur,-0.3005,-78.510\n"
        bus["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,IDFM:9,1\nT1,08:10:00,08:10:00,2,2\n"
        let dir = TemporaryFolder.make("colon")
        let path = dir.appendingPathComponent("region.sqlite").path
        let inputs = [("IDFM", idfm), ("bus", bus)].map {
            FeedInput(id: $0.0, path: TestSupport.writeFeed($0.1, name: $0.0).path)
        }
        // The region's file may name them bare too.
        let rules = dir.appendingPathComponent("between.txt")
        try (Self.header + "IDFM:42,IDFM:9,2,240\n").write(to: rules, atomically: true, encoding: .utf8)
        var importer = GTFSImporter(feeds: inputs, databasePath: path)
        importer.regionTransfers = rules.path
        _ = try importer.run()

        let db = try RouteDatabase(path: path)
        #expect(try db.resolveStop(.id("IDFM:42")).stop.id == "IDFM:IDFM:42")
        #expect(try db.resolveStop(.idOrCode("IDFM:42")).stop.name == "Châtelet")
        #expect(try db.resolveStop(.id("IDFM:9")).stop.id == "bus:IDFM:9", "feed bus's stop whose id starts IDFM:")
        #expect(try db.resolveStop(.id("IDFM:IDFM:42")).stop.name == "Châtelet", "the full form still works")
        #expect(throws: LookupError.self) { try db.resolveStop(.id("IDFM:77")) }
        let stored = try db.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT a.stop_id || '>' || b.stop_id || ' ' || min_transfer_time FROM transfers
                    JOIN stops a ON a.stop_idx = from_stop_idx JOIN stops b ON b.stop_idx = to_stop_idx
                    """)
        }
        #expect(stored == ["IDFM:IDFM:42>bus:IDFM:9 240"])

        let result = try Programs.runKiosk(["lookup", "IDFM:42", "--db", path, "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\"IDFM:IDFM:42\""), "\(result.stdout)")
    }

    /// 200,000 rules (the attack was 2 million: 645 MB and 17 s) import, and the planning timetable is built
    /// from them row by row; what is stored is what the file says, in its order.
    @Test func aLargeTransfersFileImportsEveryRule() throws {
        let stops = ["S1", "S2", "S3"]
        var text = Self.header
        text.reserveCapacity(200_000 * 12)
        for i in 0..<200_000 {
            let from = stops[i % 3], to = stops[(i / 3) % 3]
            text += i % 10 == 9 ? "\(from),\(to),3,\n" : "\(from),\(to),2,\(60 + i % 500)\n"
        }
        let feed = TestSupport.feed(replacing: ["transfers.txt": text])
        let db = TemporaryFolder.make("large-transfers").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk(["import", feed.path, "--db", db])
        try #require(result.status == 0, "\(result)")
        #expect(result.stdout.contains(try Regex(#"\n  transfers +200000\n"#)), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: db + ".timetable"), "the planning image is built")

        let database = try RouteDatabase(path: db)
        var count = 0, forbidden = 0, last: StopTransferRule?
        try database.forEachStopTransferRule { rule in
            count += 1
            if rule.type == 3 { forbidden += 1 }
            last = rule
        }
        #expect(count == 200_000 && forbidden == 20_000)
        // The file's last row (i = 199,999): S2 → S1, type 3.
        let s1 = try database.resolveStop(.id("S1")).stopIndex, s2 = try database.resolveStop(.id("S2")).stopIndex
        #expect(last == StopTransferRule(fromStopIndex: s2, toStopIndex: s1, type: 3, minSeconds: nil))
        #expect(try database.stopTransferRules().count == 200_000)
    }
}
