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
/// the query are found by reading the kind-0 rows, and only when the first two kinds give fewer matches than
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
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stop_name_index')")
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

    /// The first `count` stops, in listing order, with a name containing `key` (or, without spaces, `compact`):
    /// `(target, order)`. `key` and `compact` are LIKE patterns.
    static func containing(_ db: Database, key: String, compact: String, count: Int) throws -> [(Int, Int)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT target, MIN(target_order) AS place FROM stop_name_index
                WHERE kind = 0 AND (name_key LIKE ? ESCAPE '\\' OR term LIKE ? ESCAPE '\\')
                GROUP BY target ORDER BY place LIMIT ?
                """, arguments: [key, compact, count]
        ).map { ($0[0], $0[1]) }
    }
}
