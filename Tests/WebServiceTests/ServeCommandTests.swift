import Foundation
import KioskTesting
import NIOCore
import SampleData
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `kiosk serve` as a process: loopback by default, the access log, exit 0 on SIGTERM, bad settings refused.
@Suite struct ServeCommandTests {
    @Test func servesOnLoopbackLogsAccessAndStopsOnSIGTERM() async throws {
        let (server, address) = try TestSupport.startServer([
            "serve", "--port", "0", "--db", TestSupport.sampleDatabase,
        ])
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        #expect(base.hasPrefix("http://127.0.0.1:"))
        let (data, response) = try await URLSession.shared.data(from: URL(string: base + "/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"status\":\"ok\""))
        #expect(server.waitForOutput(limit: 600) { $0.contains("GET '/health' 200") }, "\(server.output)")
        server.signal(SIGTERM)
        let result = server.wait(limit: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.signal == nil)
    }

    @Test func atStartsTheServersClockAtThatLocalTime() async throws {
        let (server, address) = try TestSupport.startServer(
            ["serve", "--port", "0", "--db", TestSupport.sampleDatabase, "--at", "2026-11-25T08:00"])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        let (data, _) = try await URLSession.shared.data(from: URL(string: base + "/api/v1/stops/1091")!)
        let view = try TestSupport.json(ByteBuffer(bytes: data))
        // The clock runs on from 08:00: a slow machine may have reached 08:01.
        let at = try #require(view["at"] as? String)
        #expect(at.hasPrefix("2026-11-25T08:0"), "\(at)")
    }

    /// Issue 36: an operator copies a file over the timetable image in place, or truncates it, while the server plans
    /// on it. The server died of SIGBUS; now it keeps answering the same plans from the image as it opened it, and
    /// its log says what happened.
    @Test func serverKeepsPlanningWhenItsImageIsWrittenOverInPlace() async throws {
        let folder = TemporaryFolder.make("serve-image")
        let database = folder.appendingPathComponent("routes.sqlite").path
        let imported = try Programs.runKiosk(["import", SampleData.sampleNetworkFeed.path, "--db", database])
        #expect(imported.status == 0, "\(imported)")
        let image = database + ".timetable"
        try FileManager.default.copyItem(atPath: image, toPath: image + ".copy")
        let (server, address) = try TestSupport.startServer(["serve", "--port", "0", "--db", database])
        defer { server.signal(SIGTERM); _ = server.wait(limit: 60) }
        let base = try #require(address, "no 'listening on' line: \(server.output)")
        // Today's morning in the feed's zone: a day the image covers (it is made for the import's day onwards).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Guayaquil")!
        let day = calendar.dateComponents([.year, .month, .day], from: Date())
        let at = String(format: "%04d-%02d-%02dT08%%3A00", day.year!, day.month!, day.day!)
        let plans = ["from=1091&to=Cumbay%C3%A1", "from=5007&to=3007", "from=1122&to=3004"].map {
            URL(string: base + "/api/v1/plan?\($0)&at=\(at)")!
        }
        func answers() async throws -> [String] {
            var bodies: [String] = []
            for url in plans {
                let (data, response): (Data, URLResponse)
                do {
                    (data, response) = try await URLSession.shared.data(from: url)
                } catch {
                    Issue.record("\(url): \(error)\nthe server said:\n\(server.output)")
                    throw error
                }
                let status = (response as? HTTPURLResponse)?.statusCode
                #expect(status == 200, "\(url): \(String(decoding: data, as: UTF8.self))")
                bodies.append(String(decoding: data, as: UTF8.self))
            }
            return bodies
        }
        let before = try await answers()
        #expect(before.allSatisfy { $0.contains("\"options\"") })
        let attacks = [
            "cp '\(image).copy' '\(image)'", "head -c 4096 '\(image).copy' > '\(image)'",
            Programs.truncateCommand(image, size: 0),
        ]
        for attack in attacks {
            let writer = try Programs.run(URL(fileURLWithPath: "/bin/sh"), ["-c", attack])
            #expect(writer.status == 0, "\(attack): \(writer)")
            #expect(try await answers() == before, "\(attack)")
        }
        #expect(server.output.contains("the timetable image was changed in place"), "\(server.output)")
        #expect(server.isRunning, "\(server.output)")
    }

    @Test func badSettingsAreRefusedWithStatusTwo() throws {
        let at = try Programs.runKiosk(["serve", "--db", TestSupport.sampleDatabase, "--at", "never"])
        #expect(at.status == 2)
        #expect(at.stderr.contains("cannot read the time 'never'"), "\(at.stderr)")
        let port = try Programs.runKiosk(["serve", "--port", "70000"])
        #expect(port.status == 2)
        #expect(port.stderr.contains("--port must be between 0 and 65535"))
        let missing = try Programs.runKiosk(["serve", "--db", "/nonexistent/routes.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/routes.sqlite does not exist"))
        let folder = TemporaryFolder.make("serve-config", files: ["kiosk.toml": "[server]\nport = \"eighty\"\n"])
        let config = try Programs.runKiosk(["serve", "--config", folder.appendingPathComponent("kiosk.toml").path])
        #expect(config.status == 2)
        #expect(config.stderr.contains("server.port: must be a whole number"), "\(config.stderr)")
    }
}
