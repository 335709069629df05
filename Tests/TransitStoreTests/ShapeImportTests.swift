import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// shapes.txt: sorted per shape whatever the row order, simplified, stored compactly, bad rows refused (or
/// repaired with `--lenient`) like any other table, and memory bounded by one shape.
@Suite struct ShapeImportTests {
    /// The minimal feed with T1 on shape SH (an L: south along -78.50, then east) and T2 on a shape the feed
    /// does not have. Rows are deliberately out of order and interleaved with a shape no trip uses.
    static let shapes = """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
        SH,-0.2200,-78.5000,30,
        UNUSED,1.0,1.0,1,
        SH,-0.2000,-78.5000,10,
        SH,-0.2100,-78.5000,20,
        SH,-0.2000,-78.5000,0,
        SH,-0.2200,-78.4900,40,
        SH,-0.2150,-78.5000,25,
        UNUSED,1.1,1.0,2,

        """
    static let trips =
        "route_id,service_id,trip_id,trip_headsign,shape_id\nR1,WK,T1,Tercera,SH\nR1,WK,T2,Tercera,MISSING\n"

    func importFeed(_ changes: [String: String?], lenient: Bool = false) throws -> (ImportSummary, DatabaseQueue) {
        var files: [String: String?] = ["shapes.txt": Self.shapes, "trips.txt": Self.trips]
        for (name, contents) in changes { files[name] = contents }
        let feed = TestSupport.feed(replacing: files)
        let db = TemporaryFolder.make("db").appendingPathComponent("routes.sqlite").path
        let summary = try GTFSImporter(feedPath: feed.path, databasePath: db, lenient: lenient).run()
        return (summary, try DatabaseQueue(path: db))
    }

    func importError(_ changes: [String: String?]) -> ImportError? {
        do {
            _ = try importFeed(changes)
            return nil
        } catch let error as ImportError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func shapesAreSortedSimplifiedAndStoredPerShape() throws {
        let (summary, queue) = try importFeed([:])
        #expect(summary.count("shapes") == 1)  // UNUSED is not kept: no trip names it
        #expect(!summary.skippedFiles.contains("shapes.txt"))
        let row = try #require(
            try queue.read {
                try Row.fetchOne($0, sql: "SELECT shape_id, point_count, source_point_count, points FROM shapes")
            })
        #expect(row[0] as String == "SH")
        #expect(row[2] as Int == 6)
        // In sequence order: 0 and 10 repeat a point, 20 and 25 lie on the line from 10 to 30: four points remain
        // after the first; the corner at 30 and the end at 40 stay.
        let points = try #require(ShapeCoding.decode([UInt8](row[3] as Data)))
        #expect(row[1] as Int == points.count)
        #expect(points.map(\.latitude) == [-0.2, -0.22, -0.22])
        #expect(points.map(\.longitude) == [-78.5, -78.5, -78.49])
        // A trip whose shape_id is missing is a counted warning, and drawn stop to stop.
        #expect(summary.warnings.kinds.contains { $0.message.hasPrefix("trips.txt: shape_id not in shapes.txt") })
    }

    /// The same points grouped and in order are stored as they stream by; out of order, through the staging table:
    /// the same shapes either way, the feed's hash over the whole file, no warning counted twice.
    @Test func orderedAndUnorderedFilesGiveTheSameShapes() throws {
        let ordered = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            UNUSED,1.0,1.0,1,
            SH,-0.2000,-78.5000,0,5
            SH,-0.2000,-78.5000,10,4
            SH,-0.2100,-78.5000,20,
            SH,-0.2150,-78.5000,25,
            SH,-0.2200,-78.5000,30,
            SH,-0.2200,-78.4900,40,
            UNUSED,1.1,1.0,2,

            """
        let unordered = ordered.replacingOccurrences(
            of: "SH,-0.2200,-78.5000,30,\n", with: ""
        ).replacingOccurrences(
            of: "UNUSED,1.1,1.0,2,\n", with: "UNUSED,1.1,1.0,2,\nSH,-0.2200,-78.5000,30,\n")
        func stored(_ shapes: String) throws -> (Data, ImportSummary) {
            let (summary, queue) = try importFeed(["shapes.txt": shapes])
            let blob = try queue.read { try Data.fetchOne($0, sql: "SELECT points FROM shapes WHERE shape_id = 'SH'") }
            return (try #require(blob), summary)
        }
        let (first, orderedSummary) = try stored(ordered)
        let (second, unorderedSummary) = try stored(unordered)
        #expect(first == second)
        for summary in [orderedSummary, unorderedSummary] {
            let decreasing = summary.warnings.kinds.filter { $0.message.contains("shape_dist_traveled decreases") }
            #expect(decreasing.map(\.count) == [1], "\(summary.warnings.kinds)")
        }
        // The last row, read after the file turned out unordered, still counts in the feed's hash.
        let (_, changedLast) = try stored(unordered.replacingOccurrences(of: "-78.5000,30,", with: "-78.5001,30,"))
        #expect(changedLast.feedHash != unorderedSummary.feedHash)
    }

    @Test func encodingRoundTripsMicrodegrees() {
        let points: [(lat: Int32, lon: Int32)] = [
            (0, 0), (-90_000_000, 180_000_000), (89_999_999, -179_999_999), (1, -1),
        ]
        let decoded = ShapeCoding.decode(ShapeCoding.encode(points))
        #expect(decoded?.map { Int32(($0.latitude * 1e6).rounded()) } == points.map(\.lat))
        #expect(decoded?.map { Int32(($0.longitude * 1e6).rounded()) } == points.map(\.lon))
        #expect(ShapeCoding.decode([0x80]) == nil)  // truncated
    }

    @Test func simplificationKeepsPointsFartherThanTheTolerance() {
        // A 3 m bump at 600 m along a 1 km line (kept); before it, points within half a metre of the line from
        // the start to the bump (dropped).
        let metre = 1 / 111_195.0
        let latitudes = [0, 0.5 * metre, 2 * metre, 3 * metre, 0]
        let longitudes = [0, 200 * metre, 400 * metre, 600 * metre, 1000 * metre]
        let kept = LineSimplification.keptIndexes(latitudes: latitudes, longitudes: longitudes, tolerance: 1)
        #expect(kept == [0, 3, 4])
    }

    @Test func aRepeatedSequenceIsRefusedWithBothLines() {
        let shapes = Self.shapes + "SH,-0.3,-78.5,20,\n"
        let error = importError(["shapes.txt": shapes])
        #expect(
            error?.description
                == "shapes.txt line 10: duplicate shape_id and shape_pt_sequence 'SH 20' (first defined on line 5)")
    }

    @Test func badCoordinatesAreRefusedWithFileLineAndColumn() {
        #expect(
            importError(["shapes.txt": Self.shapes + "SH,,-78.5,50,\n"])?.description
                == "shapes.txt line 10, column 'shape_pt_lat': '' is not a latitude between -90 and 90")
        #expect(
            importError(["shapes.txt": Self.shapes + "SH,-0.3,-200,50,\n"])?.description
                == "shapes.txt line 10, column 'shape_pt_lon': '-200' is not a longitude between -180 and 180")
        #expect(
            importError(["shapes.txt": Self.shapes + "SH,-0.3,-78.5,x,\n"])?.description
                == "shapes.txt line 10, column 'shape_pt_sequence': 'x' is not a whole number")
        #expect(
            importError(["shapes.txt": "shape_id,shape_pt_lat,shape_pt_sequence\nSH,1,1\n"])?.description
                == "shapes.txt: the header has no 'shape_pt_lon' column, which GTFS requires")
    }

    @Test func lenientDropsBadPointsAndSaysWhere() throws {
        let shapes = Self.shapes + "SH,-0.3,-78.5,20,\nSH,,-78.5,50,\n"
        let (summary, queue) = try importFeed(["shapes.txt": shapes], lenient: true)
        #expect(summary.repairs.total == 2)
        #expect(
            summary.repairs.kinds.map(\.message) == [
                "shapes.txt: dropped a point whose shape_id and shape_pt_sequence repeat an earlier row",
                "shapes.txt: dropped a point without valid coordinates or sequence",
            ])
        #expect(summary.repairs.kinds[0].examples == ["shapes.txt:10 'SH 20' (first on line 5)"])
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT source_point_count FROM shapes") } == 6)
    }

    @Test func decreasingDistancesAreACountedWarning() throws {
        let shapes = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH,-0.20,-78.50,1,0
            SH,-0.21,-78.50,2,1.2
            SH,-0.22,-78.50,3,0.5

            """
        let (summary, _) = try importFeed(["shapes.txt": shapes])
        let kind = try #require(summary.warnings.kinds.first { $0.message.contains("shape_dist_traveled decreases") })
        #expect(kind.examples == ["shapes.txt:4 'SH'"])
    }

    @Test func aFeedWithoutShapesStillImports() throws {
        let (summary, _) = try importFeed(["shapes.txt": nil])
        #expect(summary.count("shapes") == 0)
        #expect(summary.warnings.kinds.contains { $0.message.hasPrefix("trips.txt: shape_id not in shapes.txt") })
    }

    /// 2 million points in 1,000 interleaved shapes (the worst order: every row changes shape), about 72 MB:
    /// the importer's peak memory stays far below the file's size.
    @Test func memoryIsBoundedWhateverTheFileSize() throws {
        let folder = TestSupport.feed(replacing: [
            "trips.txt": "route_id,service_id,trip_id,trip_headsign,shape_id\n"
                + (0..<1000).map { "R1,WK,T\($0),Tercera,shape-\($0)\n" }.joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + (0..<1000).map { "T\($0),08:00:00,08:00:00,S1,1\nT\($0),08:10:00,08:10:00,S2,2\n" }.joined(),
        ])
        let path = folder.appendingPathComponent("shapes.txt").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.write(Data("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n".utf8))
        var random = SplitMix64(seed: 17)
        // Coordinates in whole microdegrees, written with six decimals (String(format:) took most of this test's
        // time writing 4 million of them).
        func decimal(_ micro: Int) -> String {
            let fraction = String(abs(micro) % 1_000_000)
            return (micro < 0 ? "-" : "") + "\(abs(micro) / 1_000_000)."
                + String(repeating: "0", count: 6 - fraction.count) + fraction
        }
        for sequence in 0..<2000 {
            var chunk = ""
            chunk.reserveCapacity(40_000)
            for shape in 0..<1000 {
                let lat = -200_000 + sequence * 100 + Int(random.next() % 100)
                let lon = -78_500_000 + shape * 1000 + Int(random.next() % 100)
                chunk += "shape-\(shape),\(decimal(lat)),\(decimal(lon)),\(sequence)\n"
            }
            handle.write(Data(chunk.utf8))
        }
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 64 << 20)
        let db = TemporaryFolder.make("mem").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk(["import", folder.path, "--db", db, "--verbose"])
        #expect(result.status == 0, "\(result)")
        let line = try #require(
            result.stderr.split(separator: "\n").first { $0.hasPrefix("kiosk import: peak resident memory ") })
        let peak = try #require(Int(line.split(separator: " ")[5]))
        #expect(peak < 120, "peak resident memory \(peak) MB importing a \(size >> 20) MB shapes.txt")
        let queue = try DatabaseQueue(path: db)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM shapes") } == 1000)
    }
}
