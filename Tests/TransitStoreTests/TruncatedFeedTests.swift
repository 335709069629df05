import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// Issue 27: a feed cut short. A real agency zip ended in the middle of its last stop_times record
/// (`"30204006006011","10:45:15","10:45:15"`: no stop_id, no stop_sequence, no final newline). Strict import
/// refuses it saying the file looks truncated; `--lenient` drops that one record and lists it. Only a file's
/// last record, shorter than the header and with no line break after it, qualifies, in every file read.
@Suite struct TruncatedFeedTests {
    static let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    /// The minimal feed's stop times with T2's last record cut as the agency's file was: three of five fields,
    /// quoted, no final newline (line 7).
    static let cutStopTimes =
        header
        + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\n"
        + "T2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\n\"T2\",\"09:20:00\",\"09:20:00\""

    func importFeed(_ feed: URL, lenient: Bool = false) throws -> (ImportSummary, DatabaseQueue) {
        let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        let summary = try GTFSImporter(feedPath: feed.path, databasePath: db, lenient: lenient).run()
        return (summary, try DatabaseQueue(path: db))
    }

    func importError(
        _ feed: URL, lenient: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> ImportError?
    {
        do {
            _ = try importFeed(feed, lenient: lenient)
            Issue.record("the feed was imported", sourceLocation: sourceLocation)
            return nil
        } catch let error as ImportError {
            return error
        } catch {
            Issue.record("not an ImportError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The parser marks the record the input ended in, whatever the chunking and however the record ends
    /// (an unquoted field, a closing quote, a trailing comma); a record followed by a line break is not marked.
    @Test func theParserMarksTheRecordTheInputEndsIn() throws {
        func marks(_ text: String, chunkSize: Int) throws -> [Bool] {
            var parser = CSVStreamParser()
            var marks: [Bool] = []
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try bytes[start..<min(bytes.count, start + chunkSize)].withUnsafeBytes {
                    try parser.consume($0) { marks.append($0.endsWithoutNewline) }
                }
            }
            try parser.finish { marks.append($0.endsWithoutNewline) }
            return marks
        }
        for chunkSize in [1, 2, 3, 1 << 20] {
            #expect(try marks("a,b\n1,2\n\"3\",\"4\"", chunkSize: chunkSize) == [false, false, true])
            #expect(try marks("a,b\n1,2\n3,4", chunkSize: chunkSize) == [false, false, true])
            #expect(try marks("a,b\n1,2\n3,", chunkSize: chunkSize) == [false, false, true])
            #expect(try marks("a,b\r\n1,2\r\n3", chunkSize: chunkSize) == [false, false, true])
            #expect(try marks("a,b\n1,2\n3\n", chunkSize: chunkSize) == [false, false, false])
            #expect(try marks("a,b\n1,2\r", chunkSize: chunkSize) == [false, false])
            #expect(try marks("a,b\n1,2\n\n", chunkSize: chunkSize) == [false, false])
        }
    }

    @Test func strictSaysTheFileLooksTruncatedNamingFileAndLine() throws {
        let error = importError(TestSupport.feed(replacing: ["stop_times.txt": Self.cutStopTimes]))
        #expect(
            error
                == .truncatedRecord(
                    file: "stop_times.txt", line: 7, fields: 3, columns: 5,
                    cause: .invalidValue(
                        file: "stop_times.txt", line: 7, column: "stop_id", value: "", expected: "a non-empty value")))
        let message = try #require(error?.description)
        #expect(message.hasPrefix("stop_times.txt line 7: the file looks truncated: "), "\(message)")
        #expect(message.contains("its last record has 3 of the header's 5 fields and no final newline"), "\(message)")
        #expect(message.contains("--lenient"), "\(message)")
    }

    @Test func lenientDropsTheCutRecordAndListsIt() throws {
        let (summary, db) = try importFeed(
            TestSupport.feed(replacing: ["stop_times.txt": Self.cutStopTimes]), lenient: true)
        #expect(summary.count("stop_times") == 5)
        #expect(summary.repairs.total == 1)
        let repair = try #require(summary.repairs.kinds.first)
        #expect(
            repair.message
                == "stop_times.txt: dropped the last record: shorter than the header and no final newline (the file looks cut short)"
        )
        #expect(repair.examples == ["stop_times.txt:7 (3 of 5 fields)"])
        #expect(summary.warnings.total == 0)
        try db.read { (db: Database) throws in
            #expect(
                try String.fetchOne(db, sql: "SELECT value FROM feed_metadata WHERE key = 'lenient_repairs'") == "1")
            // T2 keeps the two stop times before the cut; the stop view's summary is built from them.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stop_times WHERE trip_idx = 2") == 2)
        }
    }

    /// The agency's own line, in a feed whose trip has that ID.
    @Test func theAgencysRecordAsItWasCut() throws {
        let feed = TestSupport.feed(replacing: [
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,30204006006011\n",
            "stop_times.txt":
                Self.header
                + "\"30204006006011\",\"10:44:00\",\"10:44:00\",\"S1\",\"1\"\n\"30204006006011\",\"10:45:15\",\"10:45:15\"",
        ])
        #expect(
            importError(feed)
                == .truncatedRecord(
                    file: "stop_times.txt", line: 3, fields: 3, columns: 5,
                    cause: .invalidValue(
                        file: "stop_times.txt", line: 3, column: "stop_id", value: "", expected: "a non-empty value")))
        let (summary, _) = try importFeed(feed, lenient: true)
        #expect(summary.count("stop_times") == 1)
        #expect(summary.repairs.kinds.map(\.examples) == [["stop_times.txt:3 (3 of 5 fields)"]])
    }

    /// A short record that is not the last stays an error, lenient or not, even when the file also lacks its
    /// final newline.
    @Test func aShortRecordInTheMiddleIsStillAnError() throws {
        let middle =
            Self.header + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00\nT1,08:20:00,08:20:00,S3,3"
        let expected = ImportError.invalidValue(
            file: "stop_times.txt", line: 3, column: "stop_id", value: "", expected: "a non-empty value")
        let feed = TestSupport.feed(replacing: ["stop_times.txt": middle])
        #expect(importError(feed) == expected)
        #expect(importError(feed, lenient: true) == expected)
    }

    /// With a final newline the file was not cut inside that record: today's behaviour is kept — the short
    /// record is read like any other (missing fields are empty), so this one is refused for its empty
    /// stop_id, without talk of truncation, lenient or not.
    @Test func aShortLastRecordWithAFinalNewlineIsNotTruncation() throws {
        let feed = TestSupport.feed(replacing: ["stop_times.txt": Self.cutStopTimes + "\n"])
        let expected = ImportError.invalidValue(
            file: "stop_times.txt", line: 7, column: "stop_id", value: "", expected: "a non-empty value")
        #expect(importError(feed) == expected)
        #expect(importError(feed, lenient: true) == expected)
    }

    /// A short last record without a final newline that imports as it stands (the columns it lacks are
    /// optional) is kept by a strict import, with a warning to check the file; lenient drops it and lists it.
    @Test func aShortLastRecordThatImportsIsKeptWithAWarning() throws {
        let stopTimes =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type\n"
            + "T1,08:00:00,08:00:00,S1,1,0\nT1,08:10:00,08:10:00,S2,2,0\nT1,08:20:00,08:20:00,S3,3"
        let feed = TestSupport.feed(replacing: [
            "stop_times.txt": stopTimes, "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
        ])
        let (strict, _) = try importFeed(feed)
        #expect(strict.count("stop_times") == 3)
        #expect(strict.repairs.total == 0)
        #expect(
            strict.warnings.kinds.map(\.message) == [
                "stop_times.txt: the last record is shorter than the header and has no final newline (imported; check that the file was not cut short)"
            ])
        #expect(strict.warnings.kinds.first?.examples == ["stop_times.txt:4 (5 of 6 fields)"])
        let (lenient, _) = try importFeed(feed, lenient: true)
        #expect(lenient.count("stop_times") == 2)
        #expect(lenient.repairs.kinds.first?.examples == ["stop_times.txt:4 (5 of 6 fields)"])
    }

    /// Every file the importer streams is read the same way: a last record cut short is refused (strict) or
    /// dropped and listed (lenient).
    @Test(arguments: [
        ("agency.txt", TestSupport.minimalFeed["agency.txt"]! + "B,Otra,https://b.example", 3, 3, 4),
        ("stops.txt", TestSupport.minimalFeed["stops.txt"]! + "S4,104,Cuarta,-", 5, 4, 5),
        ("routes.txt", TestSupport.minimalFeed["routes.txt"]! + "R2,A,2,Dos", 3, 4, 5),
        ("calendar.txt", TestSupport.minimalFeed["calendar.txt"]! + "SA,0,0,0,0,0,1,1,20260101", 3, 9, 10),
        ("calendar_dates.txt", "service_id,date,exception_type\nWK,20261225,2\nWK,20261226", 3, 2, 3),
        ("trips.txt", TestSupport.minimalFeed["trips.txt"]! + "R1,WK", 4, 2, 4),
        ("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,600\nT2,06:00:00", 3, 2, 4),
        ("transfers.txt", "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S2,2,60\nS2,S", 3, 2, 4),
        ("feed_info.txt", "feed_lang,feed_start_date,feed_publisher_name\nes,2026010", 2, 2, 3),
        (
            "shapes.txt",
            "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH,-0.20,-78.50,1\nSH,-0.21,-78.50,2\nSH,-0.22", 4,
            2, 4
        ),
    ])
    func everyFileIsReadTheSameWay(file: String, contents: String, line: Int, fields: Int, columns: Int) throws {
        var changes: [String: String?] = [file: contents]
        if file == "shapes.txt" {
            changes["trips.txt"] = "route_id,service_id,trip_id,shape_id\nR1,WK,T1,SH\nR1,WK,T2,SH\n"
        }
        let feed = TestSupport.feed(replacing: changes)
        guard case let .truncatedRecord(errorFile, errorLine, errorFields, errorColumns, cause) = importError(feed)
        else {
            Issue.record("\(file): not refused as truncated")
            return
        }
        #expect(
            [errorFile, "\(errorLine)", "\(errorFields)", "\(errorColumns)"]
                == [file, "\(line)", "\(fields)", "\(columns)"])
        #expect(cause.description.hasPrefix("\(file) line \(line)"), "\(cause)")
        let (summary, _) = try importFeed(feed, lenient: true)
        #expect(summary.repairs.total == 1, "\(summary.repairs)")
        #expect(summary.repairs.kinds.first?.examples == ["\(file):\(line) (\(fields) of \(columns) fields)"])
    }

    /// shapes.txt read twice (not grouped by shape, so it goes through the staging table): the cut record is
    /// refused on the reading that uses it, and listed once by lenient.
    @Test func shapesReadTwiceListTheCutRecordOnce() throws {
        let shapes =
            "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH,-0.20,-78.50,1\nSH2,-0.20,-78.40,1\nSH,-0.21,-78.50,2\nSH,-0.22"
        let feed = TestSupport.feed(replacing: [
            "shapes.txt": shapes,
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,SH\nR1,WK,T2,SH2\n",
        ])
        guard case .truncatedRecord(file: "shapes.txt", line: 5, fields: 2, columns: 4, _) = importError(feed) else {
            Issue.record("shapes.txt: not refused as truncated")
            return
        }
        let (summary, db) = try importFeed(feed, lenient: true)
        #expect(summary.repairs.total == 1)
        #expect(summary.repairs.kinds.first?.examples == ["shapes.txt:5 (2 of 4 fields)"])
        #expect(
            try db.read { try Int.fetchOne($0, sql: "SELECT source_point_count FROM shapes WHERE shape_id = 'SH'") }
                == 2)
    }

    @Test func theImportCommandSaysSo() throws {
        let feed = TestSupport.feed(replacing: ["stop_times.txt": Self.cutStopTimes])
        let db = TemporaryFolder.make("cli").appendingPathComponent("r.sqlite").path
        let strict = try Programs.runKiosk(["import", feed.path, "--db", db])
        #expect(strict.status == 2, "\(strict)")
        #expect(
            strict.stderr.contains(
                "stop_times.txt line 7: the file looks truncated: its last record has 3 of the header's 5 fields and no final newline"
            ), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))

        let lenient = try Programs.runKiosk(["import", feed.path, "--db", db, "--lenient"])
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.stdout.contains("Repaired (--lenient): 1"), "\(lenient.stdout)")
        #expect(
            lenient.stdout.contains(
                "  1 × stop_times.txt: dropped the last record: shorter than the header and no final newline (the file looks cut short):\n      stop_times.txt:7 (3 of 5 fields)"
            ), "\(lenient.stdout)")
        #expect(lenient.stdout.contains(try Regex(#"\n  stop_times +5\n"#)), "\(lenient.stdout)")
    }
}

/// Issue 27, import speed: the checks that keep a faster import's output the same.
@Suite struct ImportSpeedEquivalenceTests {
    /// Coordinates and distances are read without a String when they are plain decimals; the value must be
    /// the very double `Double(String)` gives (bit for bit), or the fast path must decline.
    @Test func plainDecimalsReadAsDoubleParsesThem() {
        var random = SplitMix64(seed: 27)
        var samples = [
            "0", "-0", "0.0", "-0.0", "1", "007.5", "54.67053", "25.28296", "-78.50", "-0.2200", "9007199254740993",
            "9007199254740992", "0.1", "0.30000000000000004", "123456789.123456789", "1.", ".5", "+1", "1e5", "--1",
            "1.2.3", "-", "nan", "inf", "12345678901234567890",
        ]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &random)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            let point = Int.random(in: 0...digits, using: &random)
            if point > 0 && point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &random) { text = "-" + text }
            samples.append(text)
        }
        var fast = 0
        for text in samples {
            let bytes = Array(text.utf8)
            let value = bytes.withUnsafeBufferPointer { GTFSRow.plainDecimal($0) }
            guard let value else { continue }
            fast += 1
            let reference = Double(text)
            #expect(
                reference?.bitPattern == value.bitPattern, "\(text): \(value) against \(String(describing: reference))")
        }
        #expect(fast > samples.count / 2, "the fast path should take most plain decimals")
    }

    /// Rows written on the writer thread: a repeated trip and sequence is reported as before (file, line,
    /// value), and a bad row after it does not hide it.
    @Test func aRepeatedStopSequenceIsStillReportedWithItsLine() throws {
        let stopTimes =
            TruncatedFeedTests.header
            + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,1\nT1,08:xx:00,08:20:00,S3,3\n"
        let feed = TestSupport.feed(replacing: ["stop_times.txt": stopTimes])
        let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        #expect(
            throws: ImportError.duplicateKey(
                file: "stop_times.txt", line: 3, key: "trip_id and stop_sequence", value: "T1 1", firstLine: nil)
        ) {
            try GTFSImporter(feedPath: feed.path, databasePath: db).run()
        }
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    /// The same with an error that is not a row's own (a NUL byte, a quote never closed) after the repeated
    /// row: the earlier line is still the one reported.
    @Test func aRepeatedStopSequenceComesBeforeALaterErrorOfTheFile() throws {
        for later in ["T1,08:20:00,08:20:00,S\u{0}3,3\n", "T1,08:20:00,\"08:20:00,S3,3\n"] {
            let stopTimes =
                TruncatedFeedTests.header + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,1\n" + later
            let feed = TestSupport.feed(replacing: ["stop_times.txt": stopTimes])
            let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
            #expect(
                throws: ImportError.duplicateKey(
                    file: "stop_times.txt", line: 3, key: "trip_id and stop_sequence", value: "T1 1", firstLine: nil)
            ) {
                try GTFSImporter(feedPath: feed.path, databasePath: db).run()
            }
        }
    }
}
