import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// The import's last check (`ImportIntegrityCheck`) finds what `PRAGMA integrity_check` finds, including the damage
/// only the full check sees and `quick_check` does not: an index that no longer holds its table's rows, in
/// `stop_times` (compared by scans) or in another table, and a primary key that is not unique. Each damaged copy is
/// made from the sample database, and each test first shows that SQLite's own checks see the damage as described.
@Suite final class ImportIntegrityCheckTests {
    private let directory = TemporaryFolder.make("integrity").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A copy of the sample database, and the row count its import recorded.
    private func sampleCopy() throws -> (path: String, rows: Int) {
        let path = directory + "/routes.sqlite"
        try FileManager.default.copyItem(atPath: try SampleNetwork.databasePath(), toPath: path)
        let rows = try DatabaseQueue(path: path).read {
            try Int.fetchOne($0, sql: "SELECT SUM(row_count) FROM table_counts") ?? 0
        }
        return (path, rows)
    }

    /// Runs `change` on `path` with the schema writable and with SQLite unaware of `hiding` (a schema entry) while
    /// it runs: the rows change, and the hidden index does not follow them.
    private func damage(_ path: String, hiding: String? = nil, _ change: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: path)
        let hidden = try queue.writeWithoutTransaction { db -> Row? in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            guard let hiding else { return nil }
            guard
                let entry = try Row.fetchOne(
                    db, sql: "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE name = ?",
                    arguments: [hiding])
            else { throw DatabaseError(message: "no schema entry named \(hiding)") }
            try db.execute(sql: "DELETE FROM sqlite_schema WHERE name = ?", arguments: [hiding])
            return entry
        }
        try queue.close()
        let again = try DatabaseQueue(path: path)
        try again.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try change(db)
            if let hidden {
                try db.execute(
                    sql: "INSERT INTO sqlite_schema VALUES (?, ?, ?, ?, ?)",
                    arguments: [hidden[0], hidden[1], hidden[2], hidden[3], hidden[4]])
            }
        }
        try again.close()
    }

    /// Expects `path`'s damage to be of the kind only the full check sees: `integrity_check` reports it and
    /// `quick_check` does not.
    private func expectOnlyTheFullCheckSeesTheDamage(
        _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (full, quick) = try DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try String.fetchAll(db, sql: "PRAGMA quick_check"))
        }
        #expect(
            full != ["ok"] && quick == ["ok"], "integrity_check: \(full); quick_check: \(quick)",
            sourceLocation: sourceLocation)
    }

    /// What our check says of `path`: nil when it passes.
    private func ourCheck(_ path: String, rows: Int) -> String? {
        do {
            try ImportIntegrityCheck.run(path: path, recordedRows: rows)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aSoundImportPasses() throws {
        let (path, rows) = try sampleCopy()
        #expect(ourCheck(path, rows: rows) == nil)
    }

    @Test func aStopTimeIndexThatMissedAnUpdateIsFound() throws {
        let (path, rows) = try sampleCopy()
        try damage(path, hiding: ImportIntegrityCheck.stopTimeIndex) { db in
            try db.execute(
                sql:
                    "UPDATE stop_times SET departure_time = departure_time + 60 WHERE trip_idx = (SELECT MIN(trip_idx) FROM stop_times)"
            )
            #expect(db.changesCount > 0)
        }
        try expectOnlyTheFullCheckSeesTheDamage(path)
        let ours = ourCheck(path, rows: rows) ?? "passed"
        #expect(
            ours.contains("integrity check failed")
                && ours.contains("index stop_times_by_stop_time does not hold the rows of stop_times")
                && ours.contains("with other values"), "\(ours)")
    }

    @Test func aStopTimeIndexThatMissedADeletionIsFound() throws {
        let (path, rows) = try sampleCopy()
        try damage(path, hiding: ImportIntegrityCheck.stopTimeIndex) { db in
            try db.execute(
                sql:
                    "DELETE FROM stop_times WHERE (trip_idx, stop_sequence) = (SELECT trip_idx, stop_sequence FROM stop_times LIMIT 1)"
            )
        }
        try expectOnlyTheFullCheckSeesTheDamage(path)
        let ours = ourCheck(path, rows: rows) ?? "passed"
        #expect(ours.contains("index stop_times_by_stop_time does not hold the rows of stop_times"), "\(ours)")
    }

    /// The primary key's uniqueness: a second row under an existing (trip_idx, stop_sequence), written while the
    /// table was declared with a wider key.
    @Test func aRepeatedStopTimeKeyIsFound() throws {
        let (path, rows) = try sampleCopy()
        let declared = try DatabaseQueue(path: path).read {
            try String.fetchOne($0, sql: "SELECT sql FROM sqlite_schema WHERE name = 'stop_times'")
        }
        let original = try #require(declared)
        let wider = original.replacingOccurrences(
            of: "PRIMARY KEY (trip_idx, stop_sequence)", with: "PRIMARY KEY (trip_idx, stop_sequence, stop_idx)")
        try #require(wider != original)
        func declare(_ sql: String) throws {
            try damage(path) { db in
                try db.execute(sql: "UPDATE sqlite_schema SET sql = ? WHERE name = 'stop_times'", arguments: [sql])
            }
        }
        try declare(wider)
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO stop_times (trip_idx, stop_sequence, stop_idx, departure_time)
                    SELECT trip_idx, stop_sequence, stop_idx + 1000000, departure_time FROM stop_times LIMIT 1
                    """)
        }
        try declare(original)
        try expectOnlyTheFullCheckSeesTheDamage(path)
        let ours = ourCheck(path, rows: rows) ?? "passed"
        #expect(ours.contains("stop_times: the key (trip_idx, stop_sequence) = ("), "\(ours)")
        #expect(ours.contains("is not above the one before it"), "\(ours)")
    }

    @Test func anIndexOfAnotherTableThatMissedAnUpdateIsFound() throws {
        let (path, rows) = try sampleCopy()
        try damage(path, hiding: "trips_by_route") { db in
            try db.execute(
                sql: "UPDATE trips SET route_idx = route_idx + 1 WHERE trip_idx = (SELECT MIN(trip_idx) FROM trips)")
        }
        try expectOnlyTheFullCheckSeesTheDamage(path)
        let ours = ourCheck(path, rows: rows) ?? "passed"
        #expect(ours.contains("PRAGMA integrity_check(\"trips\")") && ours.contains("trips_by_route"), "\(ours)")
    }

    /// A schema with another index on stop_times than the one the scans compare: the full check runs on it.
    @Test func anotherStopTimeIndexGetsTheFullCheck() throws {
        let (path, rows) = try sampleCopy()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE INDEX stop_times_by_trip_stop ON stop_times(trip_idx, stop_idx)")
        }
        #expect(ourCheck(path, rows: rows) == nil)
        try damage(path, hiding: "stop_times_by_trip_stop") { db in
            try db.execute(
                sql:
                    "UPDATE stop_times SET stop_idx = stop_idx + 1 WHERE trip_idx = (SELECT MIN(trip_idx) FROM stop_times)"
            )
        }
        let ours = ourCheck(path, rows: rows) ?? "passed"
        #expect(
            ours.contains("PRAGMA integrity_check(stop_times)") && ours.contains("stop_times_by_trip_stop"), "\(ours)")
    }

    @Test func rowCountsThatDifferFromTheRecordedOnesAreFound() throws {
        let (path, rows) = try sampleCopy()
        let ours = ourCheck(path, rows: rows - 1) ?? "passed"
        #expect(
            ours.contains("row counts do not match after writing (\(rows) in table_counts, \(rows - 1) counted)"),
            "\(ours)")
    }

    /// Damage to the file itself (a page of random bytes in the stop-time table) is reported, whichever part meets
    /// it first.
    @Test func aDamagedPageIsFound() throws {
        let (path, rows) = try sampleCopy()
        try DatabaseDamage.corruptedCopy(of: path, to: path + ".damaged")
        let ours = ourCheck(path + ".damaged", rows: rows) ?? "passed"
        #expect(ours.contains("integrity check failed"), "\(ours)")
    }
}
