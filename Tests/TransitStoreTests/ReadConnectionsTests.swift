import Dispatch
import Foundation
import GRDB
import KioskTesting
import Synchronization
import Testing

@testable import TransitStore

/// A route database reads through several connections at once, and all of them read the import it opened.
@Suite struct ReadConnectionsTests {
    static func imported(_ feed: URL, to path: String) throws {
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
    }

    /// Runs one read per connection, each on a thread of its own, and returns what each read; every read waits
    /// inside its connection until all of them are inside theirs, so they can only finish if they run at once.
    /// (On a failure the reads are let go after a minute, so the test fails rather than hangs.)
    static func simultaneousReads<T: Sendable>(
        _ database: RouteDatabase, _ body: @escaping @Sendable (Database) throws -> T
    ) -> [Result<T, Error>] {
        let count = database.connections.count
        let inside = DispatchSemaphore(value: 0)
        let allInside = DispatchSemaphore(value: 0)
        let results = Mutex<[Result<T, Error>]>([])
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread.detachNewThread {
                let result = Result {
                    try database.read { db in
                        inside.signal()
                        _ = allInside.wait(timeout: .now() + 60)
                        return try body(db)
                    }
                }
                results.withLock { $0.append(result) }
                group.leave()
            }
        }
        var entered = 0
        while entered < count, inside.wait(timeout: .now() + 60) == .success { entered += 1 }
        for _ in 0..<count { allInside.signal() }
        group.wait()
        #expect(entered == count, "only \(entered) of \(count) reads ran at once")
        return results.withLock { $0 }
    }

    @Test("reads on several threads run at once, one connection each")
    func readsRunAtOnce() throws {
        let path = TemporaryFolder.make("connections").appendingPathComponent("routes.sqlite").path
        try Self.imported(TestSupport.writeFeed(TestSupport.minimalFeed), to: path)
        let database = try RouteDatabase(path: path)
        #expect(database.connections.count >= 2)
        let counts = Self.simultaneousReads(database) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stops") }
        #expect(counts.count == database.connections.count)
        #expect(counts.allSatisfy { (try? $0.get()) == 3 })
    }

    @Test("a file replaced by a new import: every connection still reads the import the database opened")
    func everyConnectionReadsOneImport() throws {
        let path = TemporaryFolder.make("connections").appendingPathComponent("routes.sqlite").path
        try Self.imported(TestSupport.writeFeed(TestSupport.minimalFeed), to: path)
        let database = try RouteDatabase(path: path)
        var renamed = TestSupport.minimalFeed
        renamed["stops.txt"] = renamed["stops.txt"]!.replacingOccurrences(of: "Primera", with: "Nueva")
        try Self.imported(TestSupport.writeFeed(renamed), to: path)
        #expect(try RouteDatabase(path: path).resolveStop(.id("S1")).stop.name == "Nueva")

        let names = Self.simultaneousReads(database) { db in
            try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S1'")
        }
        #expect(names.count == database.connections.count)
        #expect(names.allSatisfy { (try? $0.get()) == "Primera" }, "\(names)")
    }

    @Test("a file replaced while its connections are being opened is noticed, not read as one import")
    func aReplacementWhileOpeningIsNoticed() throws {
        let folder = TemporaryFolder.make("connections")
        let path = folder.appendingPathComponent("routes.sqlite").path
        let next = folder.appendingPathComponent("next.sqlite").path
        try Self.imported(TestSupport.writeFeed(TestSupport.minimalFeed), to: path)
        var renamed = TestSupport.minimalFeed
        renamed["stops.txt"] = renamed["stops.txt"]!.replacingOccurrences(of: "Primera", with: "Nueva")
        try Self.imported(TestSupport.writeFeed(renamed), to: next)
        var configuration = Configuration()
        configuration.readonly = true
        #expect(throws: ReadConnections.ReplacedWhileOpening.self) {
            _ = try ReadConnections(path: path, configuration: configuration, count: 2) {
                #expect(rename(next, path) == 0)
            }
        }
        // Opened afterwards, every connection reads the new import.
        let connections = try ReadConnections(path: path, configuration: configuration, count: 2)
        #expect(
            try connections.read { try String.fetchOne($0, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S1'") }
                == "Nueva")
    }
}
