import Dispatch
import Foundation
import GRDB
import Synchronization

/// A route database's read-only connections, lent one per read, so reads on several threads run at once.
///
/// With one shared connection every read waited for the one before: the server's stop views, searches and plans
/// run on a pool of threads, one per core, and queued behind each other on the connection, so they used about one
/// core of two.
///
/// All the connections are opened together, when the database is, and each is checked to hold the same import
/// (`feed_hash`, `imported_at`). A connection opened later by path would open whatever file is there by then, and
/// `kiosk import` replaces the file under a running server: one `RouteDatabase` must never answer from two imports.
final class ReadConnections: Sendable {
    private let idle: Mutex<[DatabaseQueue]>
    private let available: DispatchSemaphore
    let count: Int

    /// Connections for the reads that can run at once: the server's blocking-work and planner threads, one per core
    /// each, and at least four.
    static var defaultCount: Int { max(4, 2 * ProcessInfo.processInfo.activeProcessorCount) }

    /// `afterOpeningFirst`: tests replace the file there.
    init(
        path: String, configuration: Configuration, count: Int = ReadConnections.defaultCount,
        afterOpeningFirst: () throws -> Void = {}
    ) throws {
        let first = try DatabaseQueue(path: path, configuration: configuration)
        var connections = [first]
        if count > 1 {
            let identity = try first.read(Self.importIdentity)
            try afterOpeningFirst()
            for _ in 1..<count {
                let connection = try DatabaseQueue(path: path, configuration: configuration)
                guard try connection.read(Self.importIdentity) == identity else {
                    throw ReplacedWhileOpening()
                }
                connections.append(connection)
            }
        }
        self.count = connections.count
        idle = Mutex(connections)
        available = DispatchSemaphore(value: connections.count)
    }

    /// Thrown when the file was replaced between two of the connections' opening; `RouteDatabase` opens again.
    struct ReplacedWhileOpening: Error {}

    private static func importIdentity(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: "SELECT key || '=' || value FROM feed_metadata WHERE key IN ('feed_hash', 'imported_at') ORDER BY key")
    }

    /// Runs `body` on an idle connection, waiting for one when all are lent.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        available.wait()
        let connection = idle.withLock { $0.removeLast() }
        defer {
            idle.withLock { $0.append(connection) }
            available.signal()
        }
        return try connection.read(body)
    }
}
