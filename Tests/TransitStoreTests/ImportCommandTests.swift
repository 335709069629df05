import Foundation
import GRDB
import KioskTesting
import Testing

/// `kiosk import` as its users run it: a real process, real files, a real kill.
@Suite struct ImportCommandTests {
    /// A database holding the minimal feed, to check later imports never damage it.
    func existingDatabase() throws -> (path: String, hash: String) {
        let path = TemporaryFolder.make("cli").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk([
            "import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return (path, try feedHash(path))
    }

    func feedHash(_ path: String) throws -> String {
        let queue = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration(); c.readonly = true; return c
            }())
        return try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            return try String.fetchOne(db, sql: "SELECT value FROM feed_metadata WHERE key = 'feed_hash'") ?? ""
        }
    }

    @Test func summaryListsCountsDatesAndWarnings() throws {
        let db = TemporaryFolder.make("cli").appendingPathComponent("r.sqlite").path
        let result = try Programs.runKiosk(["import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", db])
        #expect(result.status == 0)
        #expect(result.stdout.contains(try Regex(#"\n  stop_times +6\n"#)))
        #expect(result.stdout.contains("Service dates: 2026-01-01 to 2026-12-31 (America/Guayaquil)"))
        #expect(result.stdout.contains("No warnings"))
    }

    @Test func badFeedExitsTwoAndLeavesTheDatabaseAlone() throws {
        let (db, hash) = try existingDatabase()
        let bad = TestSupport.feed(replacing: [
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:xx:00,08:10:00,S2,2\n"
        ])
        let result = try Programs.runKiosk(["import", bad.path, "--db", db])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("stop_times.txt line 3, column 'arrival_time': '08:xx:00' is not a time HH:MM:SS"))
        #expect(result.stderr.contains("was not changed"))
        #expect(try feedHash(db) == hash)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (db as NSString).deletingLastPathComponent)
        #expect(
            leftovers.sorted() == ["routes.sqlite", "routes.sqlite.timetable"],
            "staging files must not be left behind: \(leftovers)")
    }

    @Test func unwritableTargetIsAClearError() throws {
        let result = try Programs.runKiosk([
            "import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", "/nonexistent-dir/routes.sqlite",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent-dir/routes.sqlite: there is no folder /nonexistent-dir"))
    }

    /// A feed big enough that an import takes a while, so it can be killed in the middle of stop_times.
    func largeFeed() -> URL {
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        var trips = "route_id,service_id,trip_id\n"
        stopTimes.reserveCapacity(16 << 20)
        for trip in 0..<12_000 {
            trips += "R1,WK,T\(trip)\n"
            for seq in 0..<25 {
                let t = 18_000 + trip + seq * 90
                let time = "\(t / 3600):\(String(format: "%02d", t / 60 % 60)):\(String(format: "%02d", t % 60))"
                stopTimes += "T\(trip),\(time),\(time),S\(seq % 3 + 1),\(seq)\n"
            }
        }
        return TestSupport.feed(replacing: ["trips.txt": trips, "stop_times.txt": stopTimes])
    }

    @Test func killedImportLeavesThePreviousDatabaseIntact() throws {
        let (db, hash) = try existingDatabase()
        let feed = largeFeed()
        let directory = (db as NSString).deletingLastPathComponent
        for killAfterBytes in [1, 2 << 20, 6 << 20] {
            let process = try Programs.startKiosk(["import", feed.path, "--db", db])
            // Wait until the staging file has grown to the chosen size (or the import finished, which fails the test);
            // no time limit: on a loaded machine the import is only slower.
            var staged = false
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                if let staging = names.first(where: { $0.hasPrefix(".routes.sqlite.import-") }),
                    let size = try? FileManager.default.attributesOfItem(atPath: "\(directory)/\(staging)")[.size]
                        as? Int,
                    size >= killAfterBytes
                {
                    staged = true
                    break
                }
                usleep(2000)
            }
            #expect(staged, "the import finished before it could be killed at \(killAfterBytes) bytes")
            process.signal(SIGKILL)
            #expect(process.wait().signal == SIGKILL)
            #expect(try feedHash(db) == hash, "killed after \(killAfterBytes) bytes")
        }
        // SIGTERM (a service stopping) removes its staging file at once.
        // The import registers its staging file for removal before creating it: once the file exists, a signal
        // finds it registered.
        let process = try Programs.startKiosk(["import", feed.path, "--db", db])
        var stagedBeforeSIGTERM = false
        while process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if names.contains(where: { $0.hasPrefix(".routes.sqlite.import-\(process.pid)") }) {
                stagedBeforeSIGTERM = true
                break
            }
            usleep(2000)
        }
        #expect(stagedBeforeSIGTERM, "the import finished before it could be stopped")
        process.signal(SIGTERM)
        let stopped = process.wait()
        #expect(
            stopped.status == 128 + SIGTERM && stopped.signal == nil,
            "the import exits on SIGTERM after cleaning up: \(stopped)")
        #expect(
            !((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains {
                $0.hasPrefix(".routes.sqlite.import-\(process.pid)")
            })
        #expect(try feedHash(db) == hash)

        // The next import cleans up what the killed ones left and replaces the database.
        let result = try Programs.runKiosk(["import", TestSupport.writeFeed(TestSupport.minimalFeed).path, "--db", db])
        #expect(result.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                == ["routes.sqlite", "routes.sqlite.timetable"])
    }
}
