import Foundation
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import KioskTesting
import Logging
import SampleData
import TransitModel
import TransitStore
import WebService

/// Fixtures for the web service's tests: the sample network imported once, services around it, a fixed clock.
enum TestSupport {
    /// The bundled Quito sample, imported once per test process.
    static let sampleDatabase: String = {
        let path = TemporaryFolder.make("web-sample").appendingPathComponent("routes.sqlite").path
        _ = try! GTFSImporter(feedPath: SampleData.sampleNetworkFeed.path, databasePath: path).run()
        return path
    }()

    /// 2026-11-25 08:00 in Quito: a Wednesday inside the sample's calendar.
    static let morning: Date = {
        guard
            case .instant(let date) = LocalTime.interpret(
                "2026-11-25T08:00", in: TimeZone(identifier: "America/Guayaquil")!)
        else { fatalError("unreadable fixture time") }
        return date
    }()

    static func service(
        config: KioskConfig = KioskConfig(), database: String = sampleDatabase, checkInterval: Duration = .zero,
        now: Date = morning, plans: BlockingWork = .plans()
    ) throws -> WebService {
        let databases = try LiveRouteDatabase(path: database, checkInterval: checkInterval)
        var logger = Logger(label: "test.web")
        logger.logLevel = .critical
        return try WebService(config: config, databases: databases, logger: logger, now: { now }, plans: plans)
    }

    /// Runs `body` against the service's router in process (no socket).
    static func withRouter(
        _ service: WebService, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = service.application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in try await body(client) }
    }

    /// Starts `kiosk` with `arguments` (a command that serves on port 0) and waits for its "listening on" line:
    /// the process and the base URL it printed (nil when it did not start; its output says why).
    static func startServer(_ arguments: [String], limit: Double = 120) throws -> (RunningProgram, String?) {
        let server = try Programs.startKiosk(arguments, mergeOutput: true)
        var base: String?
        _ = server.waitForOutput(limit: limit) { output in
            base = output.split(separator: "\n").first { $0.contains("listening on http://") }.map {
                String($0[$0.range(of: "http://")!.lowerBound...])
            }
            return base != nil
        }
        return (server, base)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
        guard let dictionary = object as? [String: Any] else {
            throw FixtureError("not a JSON object: \(String(buffer: buffer).prefix(200))")
        }
        return dictionary
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
