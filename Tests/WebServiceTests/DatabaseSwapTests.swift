import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Logging
import SampleData
import Synchronization
import Testing
import WebService

@testable import TransitStore

/// `kiosk import` replacing the database under a running server: once the new file passed its check the next
/// request answers from it, a request that already took the old one finishes with it, and a replacement that
/// cannot be opened or fails its check (a corrupted copy) is not used. A database in service that starts failing
/// reads is reported by `/health` and `/metrics`.
@Suite struct DatabaseSwapTests {
    static let smallFeed: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://small.example,America/Guayaquil\n",
        "stops.txt":
            "stop_id,stop_name,stop_lat,stop_lon\nS1,Primera,-0.20,-78.50\nS2,Segunda,-0.21,-78.50\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Uno,3\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Segunda\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:10:00,08:10:00,S1,1\nT1,08:20:00,08:20:00,S2,2\n",
    ]

    /// A copy of the sample database that the test may replace.
    func privateSample() throws -> String {
        let path = TemporaryFolder.make("swap").appendingPathComponent("routes.sqlite").path
        try FileManager.default.copyItem(atPath: TestSupport.sampleDatabase, toPath: path)
        return path
    }

    @Test func importUnderARunningServerSwitchesToTheNewFeed() async throws {
        let path = try privateSample()
        let service = try TestSupport.service(database: path)
        let app = service.application(host: "127.0.0.1", port: 0)
        // In process (the app's router and services, no socket): under a full parallel test run the live test
        // client's fixed 20 s timeout is reached while other suites hold both cooperative threads.
        try await app.test(.router) { client in
            let before = try await client.execute(uri: "/api/v1/feed", method: .get) { response in
                try TestSupport.json(response.body)
            }
            #expect(before["database_generation"] as? Int == 0)
            try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                #expect(response.status == .ok)
            }
            // A request that took the old database before the import keeps it to the end.
            let held = service.databases.current()

            // `kiosk import` writes a new file and renames it over the old one.
            let feed = TemporaryFolder.make("small-feed", files: Self.smallFeed)
            _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
            // The new file is checked off the request path; wait for that check.
            service.databases.checkNow()

            let after = try await client.execute(uri: "/api/v1/feed", method: .get) { response in
                try TestSupport.json(response.body)
            }
            #expect(after["database_generation"] as? Int == 1)
            #expect(after["feed_hash"] as? String != before["feed_hash"] as? String)
            #expect(after["feed_id"] as? String == "small.example")
            try await client.execute(uri: "/api/v1/stops/S1", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                #expect((body["stop"] as? [String: Any])?["name"] as? String == "Primera")
            }
            try await client.execute(uri: "/api/v1/stops/1091", method: .get) { response in
                #expect(response.status == .notFound)
            }
            // The old file, renamed away, still answers through the handle that request holds.
            #expect(held.feedHash == before["feed_hash"] as? String)
            #expect((try? held.resolveStop(.idOrCode("1091")))?.stop.code == "1091")
        }
    }

    @Test func aReplacementThatCannotBeOpenedIsNotUsed() throws {
        let path = try privateSample()
        let events = Mutex<[LiveRouteDatabase.Event]>([])
        let databases = try LiveRouteDatabase(path: path, checkInterval: .zero) { event in
            events.withLock { $0.append(event) }
        }
        let hash = databases.current().feedHash
        let junk = path + ".new"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(rename(junk, path) == 0)
        #expect(databases.current().feedHash == hash)
        databases.waitForChecks()
        #expect(databases.current().feedHash == hash)
        #expect(databases.generation == 0)
        let recorded = events.withLock { $0 }
        #expect(recorded.count == 2)
        if case .reloadFailed(let failedPath, let reason) = recorded.last {
            #expect(failedPath == path)
            #expect(!reason.isEmpty)
        } else {
            Issue.record("expected a reloadFailed event, got \(recorded)")
        }
        // Not retried on every request: the same broken file gives one event.
        _ = databases.current()
        databases.waitForChecks()
        #expect(events.withLock { $0.count } == 2)
    }

    @Test func checksAtMostOncePerInterval() throws {
        let path = try privateSample()
        let databases = try LiveRouteDatabase(path: path, checkInterval: .seconds(3600))
        let first = databases.current()
        let feed = TemporaryFolder.make("small-feed", files: Self.smallFeed)
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        // Within the interval the open database stays in service; an explicit check switches.
        #expect(databases.current() === first)
        #expect(databases.checkNow() !== first)
        #expect(databases.current().feedID == "small.example")
    }

    // MARK: - Damaged files

    /// A service on `databases` with the fixed morning clock.
    func service(_ databases: LiveRouteDatabase) throws -> WebService {
        try WebService(
            config: KioskConfig(), databases: databases, logger: Self.quietLogger, now: { TestSupport.morning })
    }

    static let stopView = "/api/v1/stops/1091?at=2026-11-25T08:00"

    static let quietLogger: Logger = {
        var logger = Logger(label: "test.swap")
        logger.logLevel = .critical
        return logger
    }()

    /// The incident of issue 27: a copy of the database with 8 MB of random bytes in its middle, moved over the
    /// served path, opened fine and was put in service; a third of the answers became 503 while `/health` said ok.
    @Test func aCorruptedCopyIsRefusedAndThePreviousDatabaseKeepsServing() async throws {
        let path = try privateSample()
        let events = Mutex<[LiveRouteDatabase.Event]>([])
        let databases = try LiveRouteDatabase(path: path, checkInterval: .zero) { event in
            events.withLock { $0.append(event) }
        }
        databases.waitForChecks()
        let hash = databases.current().feedHash
        let app = try service(databases).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let before = try await client.execute(uri: Self.stopView, method: .get) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            let copy = path + ".copy"
            try DatabaseDamage.corruptedCopy(of: path, to: copy)
            // The damage passes the open check the server relied on before.
            #expect((try? RouteDatabase(path: copy))?.feedHash == hash)
            #expect(rename(copy, path) == 0)
            // Whether or not the check of the new file has finished, every answer comes from the previous database.
            for _ in 0..<20 {
                try await client.execute(uri: Self.stopView, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == before)
                }
            }
            databases.checkNow()
            #expect(databases.generation == 0)
            let refusals = events.withLock { $0 }.compactMap { event -> (String, String)? in
                if case .reloadFailed(let path, let reason) = event { return (path, reason) }
                return nil
            }
            // Logged once for the file, naming the path and SQLite's first complaint.
            #expect(refusals.count == 1)
            #expect(refusals.first?.0 == path)
            let reason = refusals.first?.1 ?? ""
            #expect(reason.contains("quick_check") || reason.contains("malformed"), "\(reason)")
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestSupport.json(response.body)
                #expect(body["feed_hash"] as? String == hash)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("stopkiosk_database_replacement_refused 1.0"), "\(text)")
                #expect(text.contains("stopkiosk_database_healthy 1.0"))
                #expect(text.contains("stopkiosk_database_read_failures_total 0"))
            }
            try await client.execute(uri: Self.stopView, method: .get) { response in
                #expect(response.status == .ok)
            }
            databases.waitForChecks()
            #expect(events.withLock { $0 }.count == refusals.count + 1, "one event for the open, one for the refusal")

            // The next good import is taken.
            let feed = TemporaryFolder.make("small-feed", files: Self.smallFeed)
            _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
            #expect(databases.checkNow().feedID == "small.example")
            #expect(databases.generation == 1)
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("stopkiosk_database_replacement_refused 0.0"))
            }
        }
    }

    /// A database fine when it was put in service whose file is damaged later (bytes written over it in place, as
    /// a failing disk does): its failed reads make `/health` answer 503 and `/metrics` count them.
    @Test func aDatabaseThatFailsReadsLaterIsReported() async throws {
        let path = try privateSample()
        let events = Mutex<[LiveRouteDatabase.Event]>([])
        let databases = try LiveRouteDatabase(path: path, checkInterval: .zero) { event in
            events.withLock { $0.append(event) }
        }
        databases.waitForChecks()
        let app = try service(databases).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            // Every page but the first (the header SQLite checks for changes) overwritten.
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            try DatabaseDamage.scribble(path, offset: 4096, count: size - 4096)
            for _ in 0..<3 {
                try await client.execute(uri: Self.stopView, method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                }
            }
            // Each failed answer failed at least one read; the file, written over in place, was also checked as a
            // possible replacement, and that refusal counts against the database in service too.
            databases.waitForChecks()
            let failures = databases.health.readFailures
            #expect(failures >= 4)
            #expect(databases.health.refusedReplacement != nil)
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType] == "application/problem+json")
                let problem = try TestSupport.json(response.body)
                #expect(problem["status"] as? Int == 503)
                #expect(problem["title"] as? String == "Route database failing")
                let detail = problem["detail"] as? String ?? ""
                #expect(detail.contains("malformed") && detail.contains("\(failures) failed reads"), "\(detail)")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("stopkiosk_database_healthy 0.0"), "\(text)")
                #expect(text.contains("stopkiosk_database_read_failures_total \(failures)"), "\(text)")
            }
            databases.waitForChecks()
            // Logged once, however many reads fail.
            let failing = events.withLock { $0 }.filter {
                if case .failing(let failedPath, let reason) = $0 { return failedPath == path && reason.contains("malformed") }
                return false
            }
            #expect(failing.count == 1, "\(events.withLock { $0 })")
        }
    }

    /// Only errors that say the file is damaged count against it: a busy, full or out-of-memory moment would
    /// otherwise drain a sound instance from the load balancer until the next import.
    @Test func onlyDamageCountsAsAFailedRead() {
        for code in [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_IOERR, .SQLITE_IOERR_READ, .SQLITE_FORMAT] {
            #expect(RouteDatabase.meansDamage(code), "\(code)")
        }
        for code in [ResultCode.SQLITE_BUSY, .SQLITE_FULL, .SQLITE_NOMEM, .SQLITE_INTERRUPT, .SQLITE_ERROR] {
            #expect(!RouteDatabase.meansDamage(code), "\(code)")
        }
    }

    /// The database the server starts with is checked too, in the background: a damaged one is reported before
    /// any request reads the damage.
    @Test func aDamagedDatabaseAtStartIsReported() throws {
        let path = try privateSample()
        try DatabaseDamage.corruptedCopy(of: path, to: path + ".copy")
        #expect(rename(path + ".copy", path) == 0)
        let events = Mutex<[LiveRouteDatabase.Event]>([])
        let databases = try LiveRouteDatabase(path: path, checkInterval: .zero) { event in
            events.withLock { $0.append(event) }
        }
        databases.waitForChecks()
        let health = databases.health
        #expect(!health.isHealthy)
        #expect(health.readFailures == 1)
        #expect(health.firstError?.contains("quick_check") == true, "\(health)")
        #expect(events.withLock { $0 }.contains { if case .failing = $0 { true } else { false } })
    }

    /// Checking a replacement never holds up a request: with the check queue held, requests keep getting the
    /// previous database at once, and the replacement goes into service once its check has run.
    @Test func requestsDoNotWaitForTheCheckOfAReplacement() async throws {
        let path = try privateSample()
        let databases = try LiveRouteDatabase(path: path, checkInterval: .zero)
        databases.waitForChecks()
        let release = DispatchSemaphore(value: 0)
        databases.onCheckQueue { _ = release.wait(timeout: .now() + 300) }
        let feed = TemporaryFolder.make("small-feed", files: Self.smallFeed)
        _ = try GTFSImporter(feedPath: feed.path, databasePath: path).run()
        let app = try service(databases).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for _ in 0..<5 {
                try await client.execute(uri: Self.stopView, method: .get) { response in
                    #expect(response.status == .ok)
                }
            }
            #expect(databases.generation == 0)
            release.signal()
            #expect(databases.checkNow().feedID == "small.example")
            try await client.execute(uri: "/api/v1/stops/S1", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
