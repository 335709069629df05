import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The import's last check of the finished staging file: everything `PRAGMA integrity_check` verifies, and the row
/// counts the import recorded. On vilnius ×3 (1.3 M stop times, two cores) it takes 0.33 s, integrity_check 0.83 s.
///
/// integrity_check reads every page and record, then looks every row of every table up in each of its indexes. For
/// `stop_times` that is one B-tree seek per stop time into `stop_times_by_stop_time`: 0.7 s of the 0.83 s. Here the
/// same checks are made in two parts, on two connections at once:
/// - **The file and the small tables.** `PRAGMA quick_check` of the whole file (every page used exactly once,
///   every B-tree's keys in order, every record well formed, NOT NULL and CHECK constraints), then
///   `PRAGMA integrity_check(T)` of every table but `stop_times` (their indexes against their rows, UNIQUE
///   constraints), then the recorded row counts.
/// - **`stop_times` against its index, as two sequential scans** instead of 1.3 M seeks: the table in primary-key
///   order, each key greater than the one before (the key's uniqueness), then the index. The number of entries and
///   the sum of a 64-bit hash of each entry (`stop_idx`, `departure_time`, `trip_idx`, `stop_sequence`: every column
///   the index holds) must agree. They agree exactly when the index holds the table's rows, save for damage that
///   cancels out by chance (odds about 2⁻⁶⁴).
///
/// A `stop_times` with any other index than that one (a later schema) gets `PRAGMA integrity_check` itself.
enum ImportIntegrityCheck {
    /// The index the scans compare with the table, and the columns of its entries.
    static let stopTimeIndex = "stop_times_by_stop_time"
    private static let entryColumns = "stop_idx, departure_time, trip_idx, stop_sequence"

    /// Checks the closed database file at `path`, which the import recorded as `recordedRows` rows in all. Throws
    /// `ImportError.database` naming every problem found (at most three of each part).
    static func run(path: String, recordedRows: Int) throws {
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var found: [String]
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                found = try queue.read { db in
                    part == 0 ? try fileAndOtherTables(db, recordedRows: recordedRows) : try stopTimes(db)
                }
                try queue.close()
            } catch {
                found = ["\(error)"]
            }
            problems.withLock { $0 += found }
        }
        let found = problems.withLock { $0 }
        guard found.isEmpty else {
            throw ImportError.database(path: path, reason: "integrity check failed: \(found.joined(separator: "; "))")
        }
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "import-check"
        return configuration
    }

    /// SQLite's answer to a check pragma, as problems (none when it says "ok").
    private static func problems(_ pragma: String, _ db: Database) throws -> [String] {
        let answer = try String.fetchAll(db, sql: pragma)
        return answer == ["ok"] ? [] : answer.prefix(3).map { "\(pragma): \($0)" }
    }

    private static func fileAndOtherTables(_ db: Database, recordedRows: Int) throws -> [String] {
        var found = try problems("PRAGMA quick_check", db)
        let tables = try String.fetchAll(
            db,
            sql:
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'stop_times'"
        )
        for table in tables where found.isEmpty {
            found += try problems("PRAGMA integrity_check(\(table.quotedDatabaseIdentifier))", db)
        }
        let stored = try Int.fetchOne(db, sql: "SELECT SUM(row_count) FROM table_counts")
        if stored != recordedRows {
            found.append(
                "row counts do not match after writing (\(stored ?? 0) in table_counts, \(recordedRows) counted)")
        }
        return found
    }

    private static func stopTimes(_ db: Database) throws -> [String] {
        let indexes = try Row.fetchAll(db, sql: "PRAGMA index_list(stop_times)")
            .filter { ($0["origin"] as String?) != "pk" }.map { $0["name"] as String }
        guard indexes == [stopTimeIndex] else { return try problems("PRAGMA integrity_check(stop_times)", db) }
        let table = try scan(
            "SELECT \(entryColumns) FROM stop_times ORDER BY trip_idx, stop_sequence", checksKeyOrder: true, db)
        // The primary key's scan reads the table's B-tree in its order (no sort), so a repeated key shows here.
        if let key = table.firstKeyOutOfOrder {
            return ["stop_times: the key (trip_idx, stop_sequence) = \(key) is not above the one before it"]
        }
        let index = try scan(
            "SELECT \(entryColumns) FROM stop_times INDEXED BY \(stopTimeIndex)", checksKeyOrder: false, db)
        guard index.count == table.count, index.hashSum == table.hashSum else {
            return [
                "index \(stopTimeIndex) does not hold the rows of stop_times (\(index.count) entries against \(table.count) rows"
                    + (index.count == table.count ? ", with other values)" : ")")
            ]
        }
        return []
    }

    private struct Scan {
        var count = 0
        var hashSum: UInt64 = 0
        var firstKeyOutOfOrder: String?
    }

    /// Steps through `sql`'s entries (the four `entryColumns`, `departure_time` may be NULL), summing a hash of each;
    /// with `checksKeyOrder`, also checks that (trip_idx, stop_sequence) strictly increases from row to row.
    private static func scan(_ sql: String, checksKeyOrder: Bool, _ db: Database) throws -> Scan {
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var scan = Scan()
        var previousKey: (Int64, Int64)?
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                    sql: sql)
            }
            let stop = sqlite3_column_int64(handle, 0)
            let departure = sqlite3_column_type(handle, 1) == SQLITE_NULL ? Int64.min : sqlite3_column_int64(handle, 1)
            let trip = sqlite3_column_int64(handle, 2)
            let sequence = sqlite3_column_int64(handle, 3)
            scan.count += 1
            scan.hashSum &+= entryHash(stop, departure, trip, sequence)
            if checksKeyOrder {
                if let previousKey, previousKey >= (trip, sequence), scan.firstKeyOutOfOrder == nil {
                    scan.firstKeyOutOfOrder = "(\(trip), \(sequence))"
                }
                previousKey = (trip, sequence)
            }
        }
        return scan
    }

    /// A 64-bit hash of one entry: each value folded in through SplitMix64's finalizer, so that entries differing
    /// in any column, or with values swapped between columns, hash apart.
    @inline(__always)
    private static func entryHash(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> UInt64 {
        @inline(__always) func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var hash = mix(UInt64(bitPattern: a))
        hash = mix(hash ^ UInt64(bitPattern: b))
        hash = mix(hash ^ UInt64(bitPattern: c))
        return mix(hash ^ UInt64(bitPattern: d))
    }
}
