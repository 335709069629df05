import Foundation
import GRDB
import KioskTesting
import Testing
import TransitModel

@testable import TransitStore

/// The name search lets SQLite choose the stops it shows from `stop_name_index` (issue 26: any query ≤ 5 ms on a
/// 10,000-stop feed), reading only the ranges it needs and only the stops shown. These pin its answers where that
/// plan has choices to make: more names equal to the query than asked for, a range cut at the limit, stations
/// found through a platform's name, a station with more platforms than the rows first read, a word range after a
/// short prefix range, names merely containing the query, and a name whose characters the bytes of the index cut
/// in two (the search then ranks every row in Swift). Each answer is the search before the index
/// (`StopSearchIndexTests.reference`) at several limits, and some are spelled out.
@Suite struct StopSearchPlanTests {
    static let stops: [(id: String, name: String, type: Int, parent: String)] = {
        var stops: [(id: String, name: String, type: Int, parent: String)] = [
            ("LAY1", "La Y", 0, ""), ("LAY2", "La Y", 0, ""), ("LAY3", "la y", 0, ""), ("LAY4", "Lay", 0, ""),
            ("LAYE", "La Yerba", 0, ""), ("PLAYA", "Playa Ancha", 0, ""), ("SALAY", "Sala Y", 0, ""),
            ("CUMB", "Cumbayá", 0, ""), ("CUMB2", "Cumbaya Centro", 0, ""), ("SESK", "Šeškinė", 0, ""),
            ("ZIRM", "Žirmūnų st.", 0, ""), ("AZUO", "Ąžuolyno g.", 0, ""), ("PG", "Plaza Grande", 1, ""),
            ("PGA", "Plaza Grande A", 0, "PG"), ("PGS", "Andén Sur", 0, "PG"), ("PGX", "Stočių st.", 0, "PG"),
            ("SOL", "Calle Sol", 0, ""), ("ST", "St", 0, ""), ("STO", "Stotis", 0, ""),
            // "ka" starts this name byte-wise, but its "a" is one character with the mark after it.
            ("DEVA", "Ka\u{0903}mi", 0, ""), ("KAMI", "Kami", 0, ""), ("OKA", "Oka Kalnas", 0, ""),
        ]
        for n in 1...14 { stops.append(("ST\(n)", "Gatvė \(n) st", 0, "")) }
        for n in 1...6 { stops.append(("AS\(n)", "Aukštaičių st", 0, "")) }
        // A station with more platforms than the search first reads rows for.
        stops += [("TN", "Terminal Norte", 1, ""), ("TO", "Terminal Oeste", 0, "")]
        for n in 1...40 { stops.append(("TN\(n)", "Terminal Norte", 0, "TN")) }
        return stops
    }()

    static func database() throws -> RouteDatabase {
        var files = TestSupport.minimalFeed
        files["stops.txt"] =
            "stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
            + "S1,101,Primera,-0.20,-78.50,0,\nS2,102,Segunda,-0.21,-78.50,0,\nS3,103,Tercera,-0.22,-78.50,0,\n"
            + stops.map { "\($0.id),,\"\($0.name)\",-0.2,-78.5,\($0.type),\($0.parent)\n" }.joined()
        let path = TemporaryFolder.make("search-plan").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: TestSupport.writeFeed(files).path, databasePath: path).run()
        return try RouteDatabase(path: path)
    }

    static let queries = [
        "la y", "lay", "LA Y", "la", "l", "y", "a", "s", "st", "st.", "sto", "g", "gatve", "gatve 1", "1 st", "12",
        "cumbaya", "Cumbayá", "cumbaya centro", "seskine", "Šeškinė", "zirmunu st", "žirmūnų", "azuolyno g",
        "plaza", "plaza grande", "grande", "anden", "sur", "stociu", "ka", "kam", "kami", "mi", "oka k", "k",
        "zzzz", "qqq x", "ancha", "terminal", "terminal n", "norte", "erminal", "oeste", "t", "aukstaiciu st",
        String(repeating: "plaza grande ", count: 40), "%", "_",
    ]

    @Test func answersAreTheSearchBeforeTheIndex() throws {
        let database = try Self.database()
        #expect(try database.read { try StopNameIndex.exists($0) })
        for query in Self.queries {
            for limit in [1, 2, 3, 8, 10, 50] {
                let found = try database.searchStops(query, limit: limit)
                let expected = try StopSearchIndexTests.reference(database, query, limit: limit)
                #expect(
                    found == expected,
                    "'\(query)' limit \(limit): \(found.map { "\($0.stop.id) \($0.rank)" }) instead of \(expected.map { "\($0.stop.id) \($0.rank)" })"
                )
            }
        }
    }

    /// `(id, rank)` of each stop found.
    static func found(_ database: RouteDatabase, _ query: String, limit: Int = 8) throws -> [String] {
        try database.searchStops(query, limit: limit).map { "\($0.stop.id) \($0.rank)" }
    }

    @Test func answersSpelledOut() throws {
        let database = try Self.database()
        // Four names equal to the query without spaces, listed by name then ID ("La Y" sorts before "Lay" and
        // "la y"), before the names starting with it.
        #expect(
            try Self.found(database, "lay", limit: 5) == [
                "LAY1 exact", "LAY2 exact", "LAY4 exact", "LAY3 exact", "LAYE prefix",
            ])
        #expect(try Self.found(database, "la y", limit: 2) == ["LAY1 exact", "LAY2 exact"])
        // The station stands for its platforms, at the best rank of any of their names.
        #expect(try Self.found(database, "sur") == ["PG wordPrefix"])
        #expect(try Self.found(database, "stociu") == ["PG prefix"])
        #expect(try Self.found(database, "grande", limit: 3) == ["PG wordPrefix"])
        // A word range longer than the limit: cut in listing order, after the names starting with the query (the
        // station "Plaza Grande", found by its platform "Stočių st.", lists before "Stotis").
        #expect(
            try Self.found(database, "st", limit: 4) == ["ST exact", "PG prefix", "STO prefix", "AS1 wordPrefix"])
        // "Ka\u{0903}mi" does not start with "ka" as Swift compares characters: it merely contains it.
        #expect(try Self.found(database, "ka", limit: 8) == ["KAMI prefix", "OKA wordPrefix", "DEVA contains"])
        // 41 rows of "Terminal Norte" (the station and its platforms) before "Terminal Oeste", in either range.
        #expect(try Self.found(database, "terminal", limit: 2) == ["TN prefix", "TO prefix"])
        #expect(try Self.found(database, "erminal", limit: 2) == ["TN contains", "TO contains"])
        #expect(try Self.found(database, "zzzz") == [])
        #expect(try Self.found(database, "la y", limit: 0) == [])
    }

    /// The hostile queries of issue 26 on a real feed: one letter, common words, two words, accents, no match,
    /// very long.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)))
    func hostileQueriesOnVilnius() throws {
        let shared = try #require(SharedData.folder)
        let database = try StopSearchIndexTests.imported(shared.appendingPathComponent("gtfs/vilnius.zip").path)
        let queries = [
            "a", "s", "g", "k", "1", "st", "g.", "gatve", "stotis", "zirmunu", "Žirmūnų", "Šeškinė", "seskines st",
            "Antakalnio st", "ant st", "pilies", "zzzz", "qx", "xq zz", String(repeating: "Žirmūnų gatvė ", count: 30),
            "ukmerges st", "savanoriu pr", "e", "ai", "iu",
        ]
        for query in queries {
            for limit in [1, 3, 8, 10, 50] {
                let found = try database.searchStops(query, limit: limit)
                let expected = try StopSearchIndexTests.reference(database, query, limit: limit)
                #expect(found == expected, "vilnius '\(query.prefix(40))' limit \(limit)")
            }
        }
    }
}
