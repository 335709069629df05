import Foundation
import GRDB
import KioskTesting
import SampleData
import Testing
import TransitModel

@testable import TransitStore

/// The name search through `stop_name_index` (issue 26) answers exactly what the search without it answered:
/// the same stops, ranks and order, for every prefix, word, squeezed name and random piece of every stop name of
/// the sample network and of real feeds, and for the hostile queries; a database without the index (imported
/// before it existed) gives the same answers too.
@Suite struct StopSearchIndexTests {
    /// The search as it was before the index, verbatim: every name containing the query, ranked in Swift, each
    /// match's stop read on its own.
    static func reference(_ database: RouteDatabase, _ text: String, limit: Int = 8) throws -> [StopMatch] {
        let key = TextFolding.searchKey(text)
        guard !key.isEmpty else { return [] }
        let compact = key.replacingOccurrences(of: " ", with: "")
        func like(_ value: String) -> String {
            "%"
                + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        return try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.name_key, COALESCE(CASE WHEN s.location_type = 0 THEN s.parent_idx END, s.stop_idx) AS target
                    FROM stops s WHERE (s.name_key LIKE ? ESCAPE '\\' OR replace(s.name_key, ' ', '') LIKE ? ESCAPE '\\') AND s.location_type IN (0, 1)
                    """, arguments: [like(key), like(compact)])
            var best: [Int: StopMatch.Rank] = [:]
            for row in rows {
                let name: String = row[0]
                let squeezed = name.replacingOccurrences(of: " ", with: "")
                let rank: StopMatch.Rank =
                    name == key || squeezed == compact
                    ? .exact
                    : name.hasPrefix(key) || squeezed.hasPrefix(compact)
                        ? .prefix
                        : name.contains(" " + key) ? .wordPrefix : .contains
                let target: Int = row[1]
                best[target] = min(best[target] ?? rank, rank)
            }
            var matches: [StopMatch] = []
            for (index, rank) in best {
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
                else { continue }
                matches.append(StopMatch(stop: RouteDatabase.stopInfo(row), rank: rank, index: index))
            }
            matches.sort { ($0.rank, $0.stop.name, $0.stop.id) < ($1.rank, $1.stop.name, $1.stop.id) }
            return Array(matches.prefix(limit))
        }
    }

    /// Queries made from the feed's own names: every prefix (up to 6 characters) of each folded name and of each
    /// of its words, the name without spaces, and `randomPieces` random substrings (seeded), plus hostile ones.
    static func queries(_ database: RouteDatabase, randomPieces: Int, seed: UInt64) throws -> [String] {
        let names = try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT stop_name FROM stops WHERE stop_name IS NOT NULL")
        }
        var queries: Set<String> = [
            "a", "e", "o", "la y", "lay", "%", "_", "%a", "a%", "\\", "zzzz", "ñ", "  ", "-", "1", "de la", "é",
        ]
        var random = SplitMix64(seed: seed)
        for name in names {
            let key = TextFolding.searchKey(name)
            let characters = Array(key)
            for length in 1...min(6, max(1, characters.count)) where !characters.isEmpty {
                queries.insert(String(characters.prefix(length)))
            }
            for word in key.split(separator: " ") { queries.insert(String(word.prefix(4))) }
            queries.insert(key.replacingOccurrences(of: " ", with: ""))
            queries.insert(name.uppercased())
        }
        let keys = names.map { Array(TextFolding.searchKey($0)) }.filter { !$0.isEmpty }
        for _ in 0..<randomPieces where !keys.isEmpty {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            let start = Int(random.next() % UInt64(key.count))
            let length = 1 + Int(random.next() % UInt64(min(5, key.count - start)))
            queries.insert(String(key[start..<(start + length)]))
        }
        return queries.sorted()
    }

    /// Compares the search with the reference for `queries`, at the default limit and at 3 and 1.
    static func expectSame(_ database: RouteDatabase, _ queries: [String], label: String) throws {
        var differences = 0
        for query in queries {
            // The reference ranks every match and then keeps the first `limit`: one ranking serves all three limits.
            let ranked = try reference(database, query, limit: .max)
            for limit in [8, 3, 1] {
                let found = try database.searchStops(query, limit: limit)
                let expected = Array(ranked.prefix(limit))
                if found != expected {
                    differences += 1
                    if differences <= 5 {
                        Issue.record(
                            "\(label) '\(query)' limit \(limit): \(found.map { "\($0.stop.id) \($0.rank)" }) instead of \(expected.map { "\($0.stop.id) \($0.rank)" })"
                        )
                    }
                }
            }
        }
        #expect(differences == 0, "\(label): \(differences) of \(queries.count * 3) searches differ")
    }

    /// `feed` imported into a fresh database; with `withoutIndex`, a copy whose index table is dropped.
    static func imported(_ feed: String, withoutIndex: Bool = false) throws -> RouteDatabase {
        let path = TemporaryFolder.make("name-index").appendingPathComponent("routes.sqlite").path
        _ = try GTFSImporter(feedPath: feed, databasePath: path).run()
        if withoutIndex {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "DROP TABLE stop_name_index") }
            try queue.close()
        }
        return try RouteDatabase(path: path)
    }

    @Test func theSampleNetworksSearchesAreUnchanged() throws {
        let database = try Self.imported(SampleData.sampleNetworkFeed.path)
        #expect(try database.read { try StopNameIndex.exists($0) })
        let indexRows = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM stop_name_index") }
        #expect((indexRows ?? 0) > 0)
        try Self.expectSame(database, try Self.queries(database, randomPieces: 400, seed: 26), label: "sample")
    }

    @Test func aDatabaseWithoutTheIndexSearchesAsBefore() throws {
        let database = try Self.imported(SampleData.sampleNetworkFeed.path, withoutIndex: true)
        #expect(try database.read { try StopNameIndex.exists($0) } == false)
        try Self.expectSame(database, try Self.queries(database, randomPieces: 100, seed: 7), label: "no index")
    }

    @Test(
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missing)),
        arguments: ["carta.zip", "vilnius.zip"])
    func realFeedsSearchesAreUnchanged(file: String) throws {
        let shared = try #require(SharedData.folder)
        let database = try Self.imported(shared.appendingPathComponent("gtfs/\(file)").path)
        try Self.expectSame(database, try Self.queries(database, randomPieces: 300, seed: 2026), label: file)
    }
}
