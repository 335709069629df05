import Foundation
import KioskTesting
import Testing

/// What an import leaves behind when the machine, not the feed, stops it: a hang-up, the file-size limit, a
/// database owned by the service account. The previous database must stay byte-identical, and no staging file
/// may remain.
@Suite struct ImportOutputSafetyTests {
    let commands = ImportCommandTests()

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func leftovers(besides db: String) -> [String] {
        let directory = (db as NSString).deletingLastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") }
    }

    @Test func hangUpRemovesTheStagingFileAndSaysSo() throws {
        let (db, _) = try commands.existingDatabase()
        let before = try bytes(db)
        let process = try Programs.startKiosk(["import", commands.largeFeed().path, "--db", db])
        let directory = (db as NSString).deletingLastPathComponent
        // No time limit: the import ends on its own. It registers its staging file for removal before creating it,
        // so once the file exists a signal finds it registered.
        var staged = false
        while process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if names.contains(where: { $0.hasPrefix(".routes.sqlite.import-\(process.pid)") }) { staged = true; break }
            usleep(2000)
        }
        #expect(staged, "the import finished before it could be stopped")
        process.signal(SIGHUP)
        let stopped = process.wait()
        #expect(stopped.status == 128 + SIGHUP && stopped.signal == nil, "\(stopped)")
        #expect(
            stopped.stderr.contains(
                "kiosk import: stopped by hangup; unfinished output removed, previous files unchanged"), "\(stopped)")
        #expect(leftovers(besides: db).isEmpty)
        #expect(try bytes(db) == before)
    }

    @Test func fileSizeLimitIsReportedByNameNotASignalDeath() throws {
        let (db, _) = try commands.existingDatabase()
        let before = try bytes(db)
        // 256 blocks of 512 bytes (dash) or 1 KB (bash): far less than the sample network's database needs.
        let script = "ulimit -f 256; exec \"$0\" import \"$1\" --db \"$2\""
        let result = try Programs.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, Programs.kiosk.path, SampleNetwork.feed.path, db],
            environment: ["XDG_CACHE_HOME": Programs.sampleCache.path])
        #expect(result.signal == nil && result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(
                "file size limit (ulimit -f) reached while writing \(db); the previous file is unchanged"), "\(result)")
        #expect(leftovers(besides: db).isEmpty)
        #expect(try bytes(db) == before)
    }

    @Test func replacingADatabaseKeepsItsModeAndOwner() throws {
        let (db, _) = try commands.existingDatabase()
        #expect(chmod(db, 0o640) == 0)
        let owner: uid_t = getuid() == 0 ? 65534 : getuid()  // root hands it to nobody, as a service account would own it
        #expect(chown(db, owner, getgid()) == 0)
        let result = try Programs.runKiosk(["import", SampleNetwork.feed.path, "--db", db])
        #expect(result.status == 0, "\(result)")
        let attributes = try FileManager.default.attributesOfItem(atPath: db)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
        #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == owner)
    }
}

/// Time and memory must not depend on how the input is broken: a 32 MB record or a quote left open before
/// 32 MB of rows is refused after reading the 1 MB cap, whatever follows. Checked as a memory bound on the real
/// process (peak resident set), not a timing: the quadratic reader this replaced took hundreds of megabytes.
@Suite struct PathologicalCSVMemoryTests {
    static func feed(stops: Data) throws -> URL {
        let folder = TestSupport.writeFeed(TestSupport.minimalFeed)
        try stops.write(to: folder.appendingPathComponent("stops.txt"))
        return folder
    }

    @Test(arguments: ["one-line", "open-quote"])
    func refusedWithinBoundedMemory(_ shape: String) throws {
        var stops = Data("stop_id,stop_code,stop_name,stop_lat,stop_lon\n".utf8)
        if shape == "one-line" {
            stops.append(Data(repeating: UInt8(ascii: "x"), count: 32 << 20))
        } else {
            stops.append(Data("S1,101,\"Primera,-0.20,-78.50\n".utf8))
            let row = Data("S2,102,Segunda,-0.21,-78.50\n".utf8)
            for _ in 0..<(32 << 20) / row.count { stops.append(row) }
        }
        let db = TemporaryFolder.make("mem").appendingPathComponent("routes.sqlite").path
        let result = try Programs.runKiosk(["import", try Self.feed(stops: stops).path, "--db", db, "--verbose"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("stops.txt line 2: record longer than 1 MB"), "\(result)")
        // The importer's own high-water mark (VmHWM): a child's ru_maxrss would include this test process's size.
        let line = try #require(
            result.stderr.split(separator: "\n").first { $0.hasPrefix("kiosk import: peak resident memory ") })
        let peak = try #require(Int(line.split(separator: " ")[5]))
        #expect(peak < 120, "peak resident memory \(peak) MB for a refused \(shape) file")
        #expect(!FileManager.default.fileExists(atPath: db))
    }
}
