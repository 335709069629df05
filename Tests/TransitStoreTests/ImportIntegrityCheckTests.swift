import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// The import's last check (`GTFSImporter.integrityProblems`) finds what `PRAGMA integrity_check` finds, including
/// an index of `stop_times` that no longer holds the table's rows, which `quick_check` alone does not look at.
@Suite struct ImportIntegrityCheckTests {
    /// A copy of the sample database whose stop-time index is stale: SQLite is made to forget the index while one
    /// trip's departures change, then the index is declared again over its old pages.
    private func staleIndexCopy(in directory: String) throws -> String {
        let copy = directory + "/routes.sqlite"
        try FileManager.default.copyItem(atPath: try SampleNetwork.databasePath(), toPath: copy)
        let index = "stop_times_by_stop_time"
        let entry = try DatabaseQueue(path: copy).write { db -> Row in
            let entry = try Row.fetchOne(
                db, sql: "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE name = ?",
                arguments: [index])
            try db.execute(sql: "PRAGMA writable_schema = ON; DELETE FROM sqlite_schema WHERE name = ?", arguments: [index])
            return try #require(entry)
        }
        try DatabaseQueue(path: copy).write { db in
            try db.execute(
                sql: "UPDATE stop_times SET departure_time = departure_time + 60 WHERE trip_idx = (SELECT MIN(trip_idx) FROM stop_times)")
            #expect(db.changesCount > 0)
            try db.execute(
                sql: "PRAGMA writable_schema = ON; INSERT INTO sqlite_schema VALUES (?, ?, ?, ?, ?)",
                arguments: [entry[0], entry[1], entry[2], entry[3], entry[4]])
        }
        return copy
    }

    @Test func aSoundImportHasNoProblems() throws {
        let problems = try DatabaseQueue(path: try SampleNetwork.databasePath()).read {
            try GTFSImporter.integrityProblems($0)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aStaleStopTimeIndexIsFound() throws {
        let directory = TemporaryFolder.make("stale-index").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = try staleIndexCopy(in: directory)
        let (full, quick, ours) = try DatabaseQueue(path: copy).read { db in
            (
                try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                try String.fetchAll(db, sql: "PRAGMA quick_check"),
                try GTFSImporter.integrityProblems(db)
            )
        }
        // The damage is the kind only the full check sees...
        #expect(full != ["ok"] && quick == ["ok"], "integrity_check: \(full); quick_check: \(quick)")
        // ...and the import's check sees it too, naming the index.
        #expect(ours.count == 1, "\(ours)")
        #expect(ours.first?.contains("index stop_times_by_stop_time does not hold the rows of stop_times") == true)
    }
}
