import Foundation
import GRDB
import KioskTesting
import Testing

@testable import TransitStore

/// The import's last check, split over two connections (`ImportSession.checkIntegrity`), still finds what the
/// whole `PRAGMA integrity_check` finds: an index that disagrees with its table, in stop_times or in any other
/// table, and row counts that differ from those the import recorded.
@Suite struct ImportIntegrityCheckTests {
    /// A small file shaped like a route database: stop_times and another table, each with an index, and the
    /// recorded row counts.
    func database(rows: Int = 50) throws -> String {
        let path = TemporaryFolder.make("integrity").appendingPathComponent("routes.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE stop_times (trip INTEGER, stop INTEGER, seconds INTEGER);
                    CREATE INDEX stop_times_by_stop ON stop_times(stop, seconds);
                    CREATE TABLE trips (trip INTEGER PRIMARY KEY, route INTEGER, service INTEGER);
                    CREATE INDEX trips_by_route ON trips(route);
                    CREATE TABLE table_counts (table_name TEXT PRIMARY KEY, row_count INTEGER NOT NULL) WITHOUT ROWID;
                    """)
            for i in 0..<rows {
                try db.execute(sql: "INSERT INTO stop_times VALUES (?, ?, ?)", arguments: [i % 7, i % 11, i * 60])
                try db.execute(sql: "INSERT INTO trips VALUES (?, ?, ?)", arguments: [i, i % 3, i % 5])
            }
            try db.execute(sql: "INSERT INTO table_counts VALUES ('stop_times', ?), ('trips', ?)", arguments: [rows, rows])
        }
        try queue.close()
        return path
    }

    /// Declares `index` over other columns than it was built on: its entries no longer match the table's rows.
    func corrupt(_ path: String, index: String, as definition: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE name = ?", arguments: [definition, index])
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        try queue.close()
    }

    @Test func aSoundFilePasses() throws {
        try ImportSession.checkIntegrity(try database(), rows: 100)
    }

    @Test(arguments: [
        ("stop_times_by_stop", "CREATE INDEX stop_times_by_stop ON stop_times(trip, seconds)"),
        ("trips_by_route", "CREATE INDEX trips_by_route ON trips(service)"),
    ])
    func anIndexThatDisagreesWithItsTableIsFound(index: String, definition: String) throws {
        let path = try database()
        try corrupt(path, index: index, as: definition)
        let error = #expect(throws: ImportError.self) { try ImportSession.checkIntegrity(path, rows: 100) }
        let text = error?.description ?? ""
        #expect(text.contains("integrity check failed") && text.contains(index), "\(text)")
    }

    @Test func rowCountsThatDifferFromTheRecordedOnesAreFound() throws {
        let error = #expect(throws: ImportError.self) { try ImportSession.checkIntegrity(try database(), rows: 99) }
        #expect(error?.description.contains("row counts do not match after writing") == true)
    }
}
