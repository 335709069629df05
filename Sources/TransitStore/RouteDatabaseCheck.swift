import Foundation
import GRDB
import Synchronization

/// Failed reads of one open route database: how many, and SQLite's first error. A file that opened fine can fail
/// later (a disk error, bytes written over it in place); the server reports it on `/health` and `/metrics`.
public final class DatabaseReadHealth: Sendable {
    private struct State {
        var failures = 0
        var firstError: String?
        var onFirstFailure: (@Sendable (String) -> Void)?
    }
    private let state = Mutex(State())

    public init() {}

    /// Failed reads so far (a failed check of the file counts as one).
    public var failures: Int { state.withLock { $0.failures } }
    /// SQLite's message for the first failure; nil while every read succeeded.
    public var firstError: String? { state.withLock { $0.firstError } }

    /// Counts a failed read; the first one is passed to the handler set with `onFirstFailure`.
    public func record(_ error: String) {
        let handler: (@Sendable (String) -> Void)? = state.withLock { state in
            state.failures += 1
            guard state.firstError == nil else { return nil }
            state.firstError = error
            return state.onFirstFailure
        }
        handler?(error)
    }

    /// Calls `handler` once, with SQLite's message, when the first read fails (at once if one already has).
    public func onFirstFailure(_ handler: @escaping @Sendable (String) -> Void) {
        let already: String? = state.withLock { state in
            if state.firstError == nil { state.onFirstFailure = handler }
            return state.firstError
        }
        if let already { handler(already) }
    }
}

extension RouteDatabase {
    /// Checks that the file is whole and is a finished import, reading all of it (seconds for a big feed: call it
    /// off any request path). Throws `LookupError.notARouteDatabase` naming SQLite's first complaint:
    ///
    /// - `PRAGMA quick_check` (every page, every record's format; not index against table) answers "ok";
    /// - the marks `kiosk import` writes in its last transaction are there: `feed_metadata` names the schema
    ///   version, feed hash, import time and time zone, and `table_counts` lists the tables it counted, whose rows
    ///   are still all there (`SELECT COUNT(*)` equals the count the import recorded).
    ///
    /// `separateConnection`: check through a connection of its own (the database may be serving requests, which
    /// must not wait behind the check); otherwise through the database's own, for a file nobody reads yet.
    public func verify(separateConnection: Bool) throws {
        var separate: DatabaseQueue?
        if separateConnection {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.label = "routes-check"
            do {
                separate = try DatabaseQueue(path: path, configuration: configuration)
            } catch let error as DatabaseError {
                throw LookupError.notARouteDatabase(path: path, reason: error.message ?? "\(error.resultCode)")
            }
        }
        defer { try? separate?.close() }
        let path = self.path
        func refuse(_ reason: String) -> LookupError {
            LookupError.notARouteDatabase(path: path, reason: reason)
        }
        func check(_ db: Database) throws {
            // quick_check(1): stop at the first problem; that one is what the log names.
            let check = try String.fetchAll(db, sql: "PRAGMA quick_check(1)")
            guard check == ["ok"] else {
                // e.g. "*** in database main ***\nPage 204: btreeInitPage() returns error code 11": one line.
                let first = (check.first ?? "no answer").split(whereSeparator: \.isNewline).joined(separator: " ")
                throw refuse("PRAGMA quick_check: \(first)")
            }
            let metadata = Set(try String.fetchAll(db, sql: "SELECT key FROM feed_metadata WHERE value <> ''"))
            for key in ["schema_version", "feed_hash", "imported_at", "timezone"] where !metadata.contains(key) {
                throw refuse("feed_metadata has no \(key): not a finished import")
            }
            let counts = try Row.fetchAll(db, sql: "SELECT table_name, row_count FROM table_counts")
            guard !counts.isEmpty else { throw refuse("table_counts is empty: not a finished import") }
            for row in counts {
                let table: String = row[0]
                // Only the import's own table names reach SQL.
                guard Schema.countedTables.contains(table) else { continue }
                let recorded: Int = row[1]
                let found = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1
                guard found == recorded else {
                    throw refuse("\(table) has \(found) rows, the import wrote \(recorded)")
                }
            }
        }
        do {
            if let separate { try separate.read(check) } else { try connections.read(check) }
        } catch let error as DatabaseError {
            throw refuse(error.message ?? "\(error.resultCode)")
        }
    }
}
