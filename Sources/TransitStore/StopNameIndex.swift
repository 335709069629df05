import GRDB

/// The name search's index (`stop_name_index`, built by `kiosk import` from the folded names in `stops`), so a
/// search reads the few names that can rank first instead of every stop's:
///
/// - kind 0: one row per boarding stop or station, `term` its folded name without spaces — a name equal to the
///   query, or starting with it, with or without spaces ("lay" for "La Y"), is a range of this B-tree;
/// - kind 1: one row per word after the first, `term` the folded name from that word on — a name with a word
///   starting with the query is a range too.
///
/// Each row carries the folded name, the stop the search shows for it (`target`: a platform's station) and that
/// stop's place in the order results are listed in within a rank (`target_order`: by name, then ID, as Swift
/// compares them), so a search reads the stops themselves only for the few it returns. Names that merely contain
/// the query are found by reading every kind-0 row, and only when the first two kinds give fewer matches than
/// asked for. A database imported before the index existed has no such table; its searches read `stops` as they
/// always did, with the same answers.
enum StopNameIndex {
    static let table = """
        CREATE TABLE stop_name_index (
            kind INTEGER NOT NULL, term TEXT NOT NULL, stop_idx INTEGER NOT NULL, name_key TEXT NOT NULL,
            target INTEGER NOT NULL, target_order INTEGER NOT NULL, PRIMARY KEY (kind, term, stop_idx)) WITHOUT ROWID;
        """

    /// The stop a name row stands for in search results: a platform's station, else the stop itself.
    static let target = "COALESCE(CASE WHEN location_type = 0 THEN parent_idx END, stop_idx)"

    /// Fills the index from `stops` (at the end of an import, once every stop has its `name_key`).
    static func build(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM stop_name_index")
        // Every stop a search can show, in the order it lists them within a rank (a target that is not a stop
        // is never shown, and gets no rows).
        let shown = try Row.fetchAll(
            db,
            sql: """
                SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx IN
                (SELECT \(target) FROM stops WHERE location_type IN (0, 1))
                """
        ).map { (index: $0[0] as Int, stop: RouteDatabase.stopInfo($0)) }
            .sorted { ($0.stop.name, $0.stop.id) < ($1.stop.name, $1.stop.id) }
        var order: [Int: Int] = [:]
        for (position, entry) in shown.enumerated() { order[entry.index] = position }
        let insert = try db.makeStatement(
            sql: """
                INSERT OR IGNORE INTO stop_name_index (kind, term, stop_idx, name_key, target, target_order)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        let rows = try Row.fetchCursor(
            db, sql: "SELECT name_key, stop_idx, \(target) FROM stops WHERE location_type IN (0, 1)")
        while let row = try rows.next() {
            let name: String = row[0]
            let stop: Int = row[1]
            let shownAs: Int = row[2]
            guard let place = order[shownAs] else { continue }
            try insert.execute(arguments: [0, name.replacingOccurrences(of: " ", with: ""), stop, name, shownAs, place])
            let bytes = Array(name.utf8)
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: " ") && offset + 1 < bytes.count {
                let suffix = String(decoding: bytes[(offset + 1)...], as: UTF8.self)
                try insert.execute(arguments: [1, suffix, stop, name, shownAs, place])
            }
        }
    }

    /// Whether `db` has the index (databases imported before it do not).
    static func exists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stop_name_index')"))
            ?? false
    }

    struct Entry {
        /// The folded name without its spaces.
        var squeezed: String
        var name: String
        var target: Int
        var order: Int
    }

    /// The rows of `kind` whose term starts with `prefix` (byte-wise, which every name that starts with it as
    /// text does).
    static func rows(_ db: Database, kind: Int, prefix: String) throws -> [Entry] {
        // U+10FFFF sorts after every character, so [prefix, prefix + U+10FFFF) holds every term starting with it.
        try Row.fetchAll(
            db,
            sql:
                "SELECT name_key, target, target_order, replace(name_key, ' ', '') FROM stop_name_index WHERE kind = ? AND term >= ? AND term < ?",
            arguments: [kind, prefix, prefix + "\u{10FFFF}"]
        ).map { Entry(squeezed: $0[3], name: $0[0], target: $0[1], order: $0[2]) }
    }

    /// A stop a search can show, as the index ranks it: the best rank any of its rows gives (`exact` for a name
    /// equal to the query without spaces, else the range it was found in), its place in the listing order, and the
    /// folded name of one row giving that rank (so the search can check the rank in Swift).
    struct Candidate {
        var target: Int
        var order: Int
        var name: String
        var exact: Bool
    }

    /// The first `count` stops with a name that, without its spaces, equals or starts with `compact` (byte-wise):
    /// those equal to it first, then by listing order.
    static func startingWith(_ db: Database, compact: String, count: Int) throws -> [Candidate] {
        try firstStops(
            db,
            sql: """
                SELECT target, target_order, name_key, term <> ?1 AS inexact FROM stop_name_index
                WHERE kind = 0 AND term >= ?1 AND term < ?2 ORDER BY inexact, target_order LIMIT ?3
                """, arguments: [compact, compact + "\u{10FFFF}"], count: count
        ).map { Candidate(target: $0[0], order: $0[1], name: $0[2], exact: $0[3] as Int == 0) }
    }

    /// The first `count` stops, in listing order, with a word after the first starting with `key` (byte-wise).
    static func withWordStartingWith(_ db: Database, key: String, count: Int) throws -> [Candidate] {
        try firstStops(
            db,
            sql: """
                SELECT target, target_order, name_key FROM stop_name_index
                WHERE kind = 1 AND term >= ?1 AND term < ?2 ORDER BY target_order LIMIT ?3
                """, arguments: [key, key + "\u{10FFFF}"], count: count
        ).map { Candidate(target: $0[0], order: $0[1], name: $0[2], exact: false) }
    }

    /// The first `count` stops, in listing order, with a name containing `key` (or, without spaces, `compact`):
    /// `(target, order)`. `key` and `compact` are LIKE patterns. When `compact` is `key` without its spaces, as it
    /// is for every query, a name containing `key` also contains `compact` without its spaces, and only the folded
    /// names without spaces (`term`) are compared, which takes half the time.
    static func containing(_ db: Database, key: String, compact: String, count: Int) throws -> [(Int, Int)] {
        let squeezed = key.utf8.filter { $0 != UInt8(ascii: " ") }.elementsEqual(compact.utf8)
        let withSpaces = squeezed ? "" : " OR name_key LIKE ?1 ESCAPE '\\'"
        return try firstStops(
            db,
            sql: """
                SELECT target, target_order FROM stop_name_index
                WHERE kind = 0 AND (term LIKE ?2 ESCAPE '\\'\(withSpaces)) ORDER BY target_order LIMIT ?3
                """, arguments: [key, compact], count: count
        ).map { ($0[0], $0[1]) }
    }

    /// The rows of `sql`, a query of `stop_name_index` whose first column is `target`, ordered so that each stop's
    /// first row is the one that ranks it, and ending in a LIMIT whose parameter follows `arguments`: the first row
    /// of each of the first `count` stops. SQLite keeps only the rows it returns while it reads the range (grouping
    /// the rows by stop would sort every one of them first, thousands for a common word); when a stop's several
    /// rows (a station's platforms) leave fewer than `count` stops in them, it reads more.
    private static func firstStops(
        _ db: Database, sql: String, arguments: StatementArguments, count: Int
    ) throws -> [Row] {
        guard count > 0 else { return [] }
        let statement = try db.cachedStatement(sql: sql)
        var reading = max(2 * count, 16)
        while true {
            var limited = arguments
            limited += [reading]
            let rows = try Row.fetchAll(statement, arguments: limited)
            var seen: Set<Int> = []
            var first: [Row] = []
            for row in rows where seen.insert(row[0]).inserted {
                first.append(row)
                if first.count == count { return first }
            }
            if rows.count < reading { return first }
            reading *= 4
        }
    }
}
