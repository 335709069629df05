import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import SampleData
import Synchronization
import Testing
import TransitStore

/// `kiosk import` replacing the database under a running server: the next request answers from the new file,
/// a request that already took the old one finishes with it, and a replacement that cannot be opened is not used.
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
}
