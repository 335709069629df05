import Foundation
import KioskTesting
import NIOCore
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
