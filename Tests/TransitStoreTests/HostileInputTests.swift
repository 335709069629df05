import Foundation
import GRDB
import KioskTesting
import Testing
import TransitModel
import ZIPFoundation

@testable import TransitStore

/// Issue 12: feeds that are broken or built to hurt — FIFOs and devices where tables should be, corrupted and
/// ambiguous zips, zip bombs, endless records, NUL bytes, bad UTF-8, valid CSV that is wrong GTFS. Each is
/// refused with a message naming the cause (exit 2 from the command, the previous database untouched) or,
/// where the README says so, imported with a counted warning.
@Suite struct HostileInputTests {
    // MARK: Helpers

    func importFeed(
        _ feed: URL, lenient: Bool = false, limits: FeedLimits = FeedLimits()
    ) throws -> (ImportSummary, DatabaseQueue) {
        let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        let summary = try GTFSImporter(feedPath: feed.path, databasePath: db, lenient: lenient, limits: limits).run()
        return (summary, try DatabaseQueue(path: db))
    }

    func importError(_ feed: URL, lenient: Bool = false, limits: FeedLimits = FeedLimits()) -> ImportError? {
        do {
            _ = try importFeed(feed, lenient: lenient, limits: limits)
            Issue.record("the feed was imported")
            return nil
        } catch let error as ImportError {
            return error
        } catch {
            Issue.record("not an ImportError: \(error)")
            return nil
        }
    }

    /// A database built from the minimal feed, and its exact bytes.
    func existingDatabase() throws -> (path: String, bytes: Data) {
        let path = TemporaryFolder.make("cli").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk([
            "import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", path,
        ])
        try #require(result.status == 0, "\(result.stderr)")
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Runs `kiosk import FEED` over an existing database and checks the refusal: exit 2, the message, the
    /// database byte for byte as it was, no staging file left.
    func expectRefusedByCommand(
        _ feed: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (db, bytes) = try existingDatabase()
        let image = try Data(contentsOf: URL(fileURLWithPath: db + ".timetable"))
        let result = try Programs.runKiosk(["import", feed, "--db", db])
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: db)) == bytes, "the previous database changed",
            sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: db + ".timetable")) == image, "the previous timetable changed",
            sourceLocation: sourceLocation)
        // The database and the planning timetable compiled beside it (issue 23), and nothing else.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (db as NSString).deletingLastPathComponent)
        #expect(leftovers.sorted() == ["routes.sqlite", "routes.sqlite.timetable"], sourceLocation: sourceLocation)
    }

    /// Writes a zip of `entries` (path → contents), stored or deflated.
    func writeZip(_ entries: [(String, Data)], compressed: Bool = false) throws -> URL {
        let url = TemporaryFolder.make("zip").appendingPathComponent("feed.zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count),
                compressionMethod: compressed ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return url
    }

    func minimalEntries(prefix: String = "") -> [(String, Data)] {
        TestSupport.minimalFeed.sorted { $0.key < $1.key }.map { (prefix + $0.key, Data($0.value.utf8)) }
    }

    // MARK: 1. CSV records

    @Test func oversizedRecordIsRefusedWithFileAndLine() throws {
        let huge = String(repeating: "x", count: (1 << 20) + 10)
        let feed = TestSupport.feed(replacing: [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,-0.2,-78.5\nS2,\(huge),-0.2,-78.5\n"
        ])
        let error = importError(feed)
        #expect(error == .recordTooLong(file: "stops.txt", line: 3, limit: 1 << 20))
        #expect(error?.description.hasPrefix("stops.txt line 3: record longer than 1 MB") == true)
        try expectRefusedByCommand(feed.path, "stops.txt line 3: record longer than 1 MB")
    }

    @Test func strayQuoteAtTheEndOfAFileIsAnError() throws {
        let feed = TestSupport.feed(replacing: [
            "stops.txt": TestSupport.minimalFeed["stops.txt"]! + "S4,\"Cuarta,-0.2,-78.5\n"
        ])
        #expect(importError(feed) == .unterminatedQuote(file: "stops.txt", line: 5))
        try expectRefusedByCommand(feed.path, "stops.txt line 5: a quoted field opened on this line is never closed")
    }

    // MARK: 4. Zip archives

    @Test func corruptedZipEntryIsRefusedByName() throws {
        let zip = try writeZip(minimalEntries())
        var bytes = try Data(contentsOf: zip)
        // Damage one byte of stops.txt's stored data so that it still parses as CSV: only the CRC can tell.
        let range = try #require(bytes.range(of: Data("Primera".utf8)))
        bytes[range.upperBound - 1] = UInt8(ascii: "b")
        try bytes.write(to: zip)
        let error = importError(zip)
        guard case let .corruptZipEntry(archive, entry, reason)? = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(archive == "feed.zip" && entry == "stops.txt")
        #expect(reason.contains("CRC-32 mismatch"))
        try expectRefusedByCommand(zip.path, "feed.zip: the entry stops.txt is corrupted: CRC-32 mismatch")
    }

    @Test func damagedDeflateDataIsACorruptedEntryToo() throws {
        var stops = "stop_id,stop_code,stop_name,stop_lat,stop_lon\n"
        for i in 1...2000 { stops += "S\(i),\(100 + i),Parada número \(i),-0.2\(i % 10),-78.5\(i % 7)\n" }
        var entries = minimalEntries().filter { $0.0 != "stops.txt" }
        entries.append(("stops.txt", Data(stops.utf8)))
        let zip = try writeZip(entries, compressed: true)
        var bytes = try Data(contentsOf: zip)
        // The local header of stops.txt: 30 bytes, the name, then (no extra field here) the deflate stream.
        let name = try #require(bytes.range(of: Data("stops.txt".utf8)))
        let extraLength = Int(bytes[name.lowerBound - 2]) | Int(bytes[name.lowerBound - 1]) << 8
        let middle = name.upperBound + extraLength + 2000
        for offset in 0..<8 { bytes[middle + offset] ^= 0x5A }
        try bytes.write(to: zip)
        let error = importError(zip)
        guard case let .corruptZipEntry(_, entry, _)? = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(entry == "stops.txt")
        try expectRefusedByCommand(zip.path, "feed.zip: the entry stops.txt is corrupted")
    }

    @Test func ambiguousArchivesAreRefusedAndMacResourceForksIgnored() throws {
        let twice = try writeZip(
            minimalEntries() + [("gtfs/stops.txt", Data(TestSupport.minimalFeed["stops.txt"]!.utf8))])
        #expect(
            importError(twice)
                == .ambiguousArchive(archive: "feed.zip", file: "stops.txt", paths: ["gtfs/stops.txt", "stops.txt"]))
        try expectRefusedByCommand(
            twice.path, "feed.zip: ambiguous archive: stops.txt appears 2 times (gtfs/stops.txt, stops.txt)")

        // __MACOSX/ and dot-files are never tables: this archive has one of each table, in a folder.
        let junk = Data("not csv \u{0}\u{1}".utf8)
        let mac = try writeZip(
            minimalEntries(prefix: "feed/") + [
                ("__MACOSX/feed/stops.txt", junk), ("feed/._stops.txt", junk), (".git/stops.txt", junk),
            ])
        let (summary, _) = try importFeed(mac)
        #expect(summary.count("stops") == 3)
        #expect(summary.skippedFiles.isEmpty)
    }

    @Test func zipBombsAreRefusedWithTheNumbers() throws {
        // 20 MB of line breaks deflate to about 20 KB: a ratio of about 1000 to 1.
        var entries = minimalEntries().filter { $0.0 != "stop_times.txt" }
        let bomb = Data(TestSupport.minimalFeed["stop_times.txt"]!.utf8) + Data(repeating: 0x0A, count: 20 << 20)
        entries.append(("stop_times.txt", bomb))
        let zip = try writeZip(entries, compressed: true)
        let error = importError(zip)
        guard case let .compressionRatioTooHigh(_, entry, compressed, uncompressed, limit)? = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(
            entry == "stop_times.txt" && uncompressed == Int64(bomb.count) && limit == 100
                && compressed < uncompressed / 100)
        try expectRefusedByCommand(
            zip.path, "feed.zip: the entry stop_times.txt inflates from \(compressed) to \(uncompressed) bytes")

        // The total of all tables is capped too (a small cap here, 8 GiB by default).
        var limits = FeedLimits()
        limits.maximumUncompressedBytes = 600
        let plain = try writeZip(minimalEntries(), compressed: true)
        guard case let .archiveTooLarge(_, _, bytes, limit)? = importError(plain, limits: limits) else {
            Issue.record("no size error"); return
        }
        #expect(limit == 600 && bytes > 600)
        #expect(
            ImportError.archiveTooLarge(archive: "f.zip", entry: "stops.txt", bytes: 9 << 30, limit: 8 << 30)
                .description
                == "f.zip: the tables inflate to more than 8 GiB (8589934592 bytes; reached 9663676416 bytes at stops.txt): refused as a possible zip bomb"
        )
    }

    // MARK: 5. Folder feeds

    @Test func fifoOrDirectoryWhereATableShouldBeIsRefusedWithoutBlocking() throws {
        let fifoFeed = TestSupport.feed(replacing: ["stops.txt": nil])
        let fifo = fifoFeed.appendingPathComponent("stops.txt").path
        try #require(mkfifo(fifo, 0o644) == 0)
        #expect(importError(fifoFeed) == .notARegularFile(path: fifo, kind: "FIFO (named pipe)"))
        try expectRefusedByCommand(fifoFeed.path, "\(fifo) is a FIFO (named pipe) where a file was expected")

        let dirFeed = TestSupport.feed(replacing: ["routes.txt": nil])
        try FileManager.default.createDirectory(
            at: dirFeed.appendingPathComponent("routes.txt"), withIntermediateDirectories: false)
        try expectRefusedByCommand(dirFeed.path, "\(dirFeed.path)/routes.txt is a directory where a file was expected")

        // A FIFO given as the feed itself.
        let lone = TemporaryFolder.make("fifo").appendingPathComponent("feed.zip").path
        try #require(mkfifo(lone, 0o644) == 0)
        try expectRefusedByCommand(lone, "\(lone) is a FIFO (named pipe) where a file was expected")
    }

    @Test func filesTheImporterDoesNotUseAreNeverOpened() throws {
        let feed = TestSupport.writeFeed(TestSupport.minimalFeed)
        // A FIFO and a dangling link among the files not imported: opening either would block or fail.
        try #require(mkfifo(feed.appendingPathComponent("fare_rules.txt").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: feed.appendingPathComponent("pathways.txt").path, withDestinationPath: "/nonexistent/pathways.txt")
        let (summary, _) = try importFeed(feed)
        #expect(summary.skippedFiles == ["fare_rules.txt", "pathways.txt"])
        // Unused files are not in the feed hash either.
        let (plain, _) = try importFeed(TestSupport.writeFeed(TestSupport.minimalFeed))
        #expect(summary.feedHash == plain.feedHash)
    }

    @Test func aDanglingLinkForATableIsNamed() throws {
        let feed = TestSupport.feed(replacing: ["trips.txt": nil])
        try FileManager.default.createSymbolicLink(
            atPath: feed.appendingPathComponent("trips.txt").path, withDestinationPath: "/nonexistent/trips.txt")
        try expectRefusedByCommand(
            feed.path, "trips.txt: a dangling symbolic link (to /nonexistent/trips.txt, which does not exist)")
    }

    /// Permission problems say so, with the path. Root reads anything, so as root the command runs as nobody.
    @Test func permissionDeniedIsReportedAsSuch() throws {
        let base = TemporaryFolder.make("perm")
        chmod(base.path, 0o777)
        let feed = base.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: false)
        for (name, text) in TestSupport.minimalFeed { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        chmod(feed.path, 0o755)
        for name in TestSupport.minimalFeed.keys { chmod(feed.appendingPathComponent(name).path, 0o644) }
        chmod(feed.appendingPathComponent("stops.txt").path, 0o000)
        let db = base.appendingPathComponent("routes.sqlite").path
        func run(_ feedPath: String) throws -> ProcessResult {
            if getuid() != 0 { return try Programs.runKiosk(["import", feedPath, "--db", db]) }
            return try Programs.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", Programs.kiosk.path, "import", feedPath, "--db",
                    db,
                ])
        }
        let file = try run(feed.path)
        #expect(file.status == 2)
        #expect(file.stderr.contains("cannot read \(feed.path)/stops.txt: permission denied"), "\(file.stderr)")
        chmod(feed.path, 0o300)  // no read permission: the listing fails
        let folder = try run(feed.path)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("cannot read \(feed.path): permission denied"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("no GTFS"))
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    // MARK: 6. Valid CSV, wrong GTFS

    @Test func nulBytesAreRefusedWithTheColumn() throws {
        let feed = TestSupport.feed(replacing: [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,-0.2,-78.5\nS\u{0}2,B,-0.2,-78.5\n"
        ])
        let error = importError(feed)
        #expect(
            error
                == .invalidValue(
                    file: "stops.txt", line: 3, column: "stop_id", value: "S\u{0}2",
                    expected: "text without NUL bytes (a NUL byte: is the file UTF-16 or binary?)"))
        try expectRefusedByCommand(
            feed.path, "stops.txt line 3, column 'stop_id': 'S\\u{0}2' is not text without NUL bytes")
    }

    @Test func invalidUTF8IsReplacedAndCountedWithFileAndLine() throws {
        let feed = TestSupport.writeFeed(TestSupport.minimalFeed)
        var stops =
            Data("stop_id,stop_name,stop_lat,stop_lon\nS1,Caf".utf8) + Data([0xE9])
            + Data(",-0.2,-78.5\nS2,Dos,-0.2,-78.5\nS3,Tr".utf8)
        stops += Data([0xE8, 0xFF]) + Data("s,-0.2,-78.5\n".utf8)
        try stops.write(to: feed.appendingPathComponent("stops.txt"))
        let (summary, db) = try importFeed(feed)
        let kind = try #require(summary.warnings.kinds.first { $0.message.contains("not UTF-8") })
        #expect(kind.count == 2)
        #expect(kind.examples == ["stops.txt:2", "stops.txt:4"])
        #expect(
            try db.read { try String.fetchOne($0, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S1'") }
                == "Caf\u{FFFD}")
    }

    @Test func headerOnlyStopTimesIsAWarning() throws {
        let feed = TestSupport.feed(replacing: [
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        ])
        let (summary, _) = try importFeed(feed)
        #expect(
            summary.warnings.kinds.contains {
                $0.message == "stop_times.txt: no stop times: the kiosk will show no departures"
            })
        let db = TemporaryFolder.make("cli").appendingPathComponent("r.sqlite").path
        let result = try Programs.runKiosk(["import", feed.path, "--db", db])
        #expect(result.status == 0)
        #expect(result.stdout.contains("no stop times: the kiosk will show no departures"))
    }

    @Test func timesBeyond48HoursAndGoingBackwardsAreCountedWarnings() throws {
        let feed = TestSupport.feed(replacing: [
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,47:50:00,47:50:00,S1,1
            T1,48:10:00,48:10:00,S2,2
            T1,49:00:00,49:00:00,S3,3
            T2,09:00:00,09:00:00,S1,1
            T2,08:50:00,08:50:00,S2,2
            T2,09:20:00,09:20:00,S3,3

            """
        ])
        let (summary, _) = try importFeed(feed)
        let late = try #require(summary.warnings.kinds.first { $0.message.contains("beyond 48:00:00") })
        #expect(late.count == 2)
        #expect(late.examples == ["stop_times.txt:3 'T1' 48:10:00", "stop_times.txt:4 'T1' 49:00:00"])
        let backwards = try #require(summary.warnings.kinds.first { $0.message.contains("go backwards") })
        #expect(backwards.count == 1 && backwards.examples == ["stop_times.txt:6 'T2'"])
    }

    static let twoZoneAgencies = """
        agency_id,agency_name,agency_url,agency_timezone
        A,Agencia,https://a.example,America/Guayaquil
        B,Otra,https://b.example,Europe/Madrid

        """

    @Test func strictRefusesAgenciesInDifferentZonesAndLenientRepairsThem() throws {
        let feed = TestSupport.feed(replacing: ["agency.txt": Self.twoZoneAgencies])
        let error = importError(feed)
        guard case let .invalidValue(file, line, column, value, expected)? = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(file == "agency.txt" && line == 3 && column == "agency_timezone" && value == "Europe/Madrid")
        #expect(expected.hasPrefix("America/Guayaquil, the time zone of agency 'A' on line 2"))

        let (summary, db) = try importFeed(feed, lenient: true)
        #expect(summary.timeZone == "America/Guayaquil")
        let repair = try #require(summary.repairs.kinds.first)
        #expect(repair.message == "agency.txt: agency_timezone replaced by the zone of the agencies that run trips")
        #expect(repair.examples == ["agency.txt:3 'B' Europe/Madrid → America/Guayaquil"])
        #expect(
            try db.read { try String.fetchAll($0, sql: "SELECT DISTINCT agency_timezone FROM agency") } == [
                "America/Guayaquil"
            ])

        // The zone chosen is the one of the agency that runs the trips, not the first one listed.
        let flipped = TestSupport.feed(replacing: [
            "agency.txt": Self.twoZoneAgencies,
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,B,1,Uno,3\n",
        ])
        #expect(try importFeed(flipped, lenient: true).0.timeZone == "Europe/Madrid")
    }

    @Test func lenientDropsRowsThatNameUnknownStopsOrTripsAndListsThem() throws {
        let changes: [String: String?] = [
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S7,2
            T1,08:20:00,08:20:00,S3,3
            T9,09:00:00,09:00:00,S1,1
            T9,09:10:00,09:10:00,S2,2

            """
        ]
        #expect(
            importError(TestSupport.feed(replacing: changes))
                == .unknownReference(
                    file: "stop_times.txt", line: 3, column: "stop_id", value: "S7", target: "stops.txt"))
        let (summary, _) = try importFeed(TestSupport.feed(replacing: changes), lenient: true)
        #expect(summary.count("stop_times") == 2)
        #expect(summary.repairs.total == 3)
        #expect(
            summary.repairs.kinds.first { $0.message.contains("stop_id is not in stops.txt") }?.examples == [
                "stop_times.txt:3 'S7'"
            ])
        #expect(
            summary.repairs.kinds.first { $0.message.contains("trip_id is not in trips.txt") }?.examples == [
                "stop_times.txt:5 'T9'", "stop_times.txt:6 'T9'",
            ])

        let db = TemporaryFolder.make("cli").appendingPathComponent("r.sqlite").path
        let result = try Programs.runKiosk([
            "import", TestSupport.feed(replacing: changes).path, "--db", db, "--lenient",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Repaired (--lenient): 3"))
        #expect(result.stdout.contains("      stop_times.txt:6 'T9'"))
    }

    @Test func lenientDropsABrokenAgencyNoRouteUses() throws {
        let agencies = TestSupport.minimalFeed["agency.txt"]! + "X,,https://x.example,America/Guayaquil\n"
        let feed = TestSupport.feed(replacing: ["agency.txt": agencies])
        #expect(
            importError(feed)
                == .invalidValue(
                    file: "agency.txt", line: 3, column: "agency_name", value: "", expected: "a non-empty value"))
        let (summary, db) = try importFeed(feed, lenient: true)
        #expect(summary.count("agency") == 1)
        let repair = try #require(summary.repairs.kinds.first)
        #expect(repair.message == "agency.txt: dropped a broken agency row that no route uses")
        #expect(repair.examples.first?.hasPrefix("agency.txt:3 'X'") == true)
        #expect(try db.read { try String.fetchAll($0, sql: "SELECT agency_id FROM agency") } == ["A"])
        // Used by a route, the same row cannot be dropped: lenient refuses it too.
        let used = TestSupport.feed(replacing: [
            "agency.txt": agencies, "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,X,1,3\n",
        ])
        #expect(
            importError(used, lenient: true)
                == .invalidValue(
                    file: "agency.txt", line: 3, column: "agency_name", value: "", expected: "a non-empty value"))
    }
}

/// Issue 12, smaller items: LIKE wildcards in stop searches, and `--at` times that do not exist.
@Suite struct HostileQueryTests {
    /// One-character stop codes: the worst case for "did you mean" on `%` or `_`.
    func shortCodeDatabase() throws -> RouteDatabase {
        let feed = TestSupport.feed(replacing: [
            "stops.txt":
                "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,1,Primera,-0.20,-78.50\nS2,2,Segunda,-0.21,-78.50\nS3,a,Tercera,-0.22,-78.50\n"
        ])
        let path = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    @Test func wildcardsNeverListArbitraryStops() throws {
        let db = try shortCodeDatabase()
        for query in ["%", "_", "%%", "_%_", "\\"] {
            #expect(throws: LookupError.noSuchStop(query: query, suggestions: []), "query \(query)") {
                try db.resolveStop(.idOrCode(query))
            }
            #expect(try db.searchStops(query).isEmpty, "query \(query)")
        }
        // Real typos still get suggestions, and a '%' in a name search matches nothing more than its letters do.
        guard case let .noSuchStop(_, suggestions)? = throwing({ _ = try db.resolveStop(.idOrCode("Primer")) }) else {
            Issue.record("no error for a typo"); return
        }
        #expect(suggestions.map(\.name) == ["Primera"])
        #expect(try db.searchStops("Prim%").map(\.stop.name) == ["Primera"])
        #expect(try db.searchStops("%a").isEmpty == false)  // the letter a, as typed without the '%'
        #expect(try db.searchStops("%a").count == (try db.searchStops("a").count))
    }

    @Test func lookupOfWildcardsExitsTwoWithNoSuggestions() throws {
        let path = TemporaryFolder.make("cli").appendingPathComponent("r.sqlite").path
        let feed = TestSupport.feed(replacing: [
            "stops.txt":
                "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,1,Primera,-0.20,-78.50\nS2,2,Segunda,-0.21,-78.50\nS3,3,Tercera,-0.22,-78.50\n"
        ])
        try #require(try Programs.runKiosk(["import", feed.path, "--db", path]).status == 0)
        for query in ["%", "_"] {
            let result = try Programs.runKiosk(["lookup", query, "--db", path])
            #expect(result.status == 2)
            #expect(result.stderr == "error: no such stop: '\(query)'\n")
        }
    }

    /// 2026-03-08 02:30 does not exist in New York (clocks jump from 02:00 to 03:00): refused, not moved to 03:30.
    @Test func atTimeInADaylightSavingGapIsRefused() throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(LocalTime.interpret("2026-03-08T02:30", in: newYork) == .nonexistent)
        #expect(LocalTime.parse("2026-03-08T02:30", in: newYork) == nil)
        #expect(LocalTime.parse("2026-03-08T03:30", in: newYork) != nil)
        #expect(LocalTime.interpret("2026-03-08T0x:30", in: newYork) == .unreadable)
        // The repeated hour in November exists (twice): it is accepted.
        #expect(LocalTime.parse("2026-11-01T01:30", in: newYork) != nil)

        let path = TemporaryFolder.make("cli").appendingPathComponent("ny.sqlite").path
        try #require(
            try Programs.runKiosk(["import", TestSupport.writeFeed(StopViewTests.ruleFeed).path, "--db", path]).status
                == 0)
        let gap = try Programs.runKiosk(["lookup", "1", "--db", path, "--at", "2026-03-08T02:30"])
        #expect(gap.status == 2)
        #expect(
            gap.stderr.contains(
                "'2026-03-08T02:30' does not exist in America/New_York: the clocks skip it when daylight saving time starts"
            ), "\(gap.stderr)")
        let plan = try Programs.runKiosk(["plan", "1", "3", "--db", path, "--at", "2026-03-08T02:15"])
        #expect(plan.status == 2)
        #expect(plan.stderr.contains("does not exist in America/New_York"))
        #expect(try Programs.runKiosk(["lookup", "1", "--db", path, "--at", "2026-03-08T03:30"]).status == 0)
    }
}

private func throwing(_ body: () throws -> Void) -> LookupError? {
    do { try body(); return nil } catch { return error as? LookupError }
}
