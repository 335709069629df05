import ArgumentParser
import Dispatch
import Foundation
import KioskConfiguration
import Logging
import Realtime
import SampleData
import ScanService
import Scanning
import ServiceLifecycle
import Synchronization
import SystemSupport
import TransitModel
import TransitStore
import TripPlanning
import WebService

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the labels' phone pages, the JSON API and the browser kiosk over HTTP.",
        discussion: """
            Pages: / (search), /s/CODE (the URL the labels print), /plan, /kiosk (the kiosk in a browser). API: \
            /api/v1/stops/ID, /api/v1/stops?q=NAME or ?near=LAT,LON, /api/v1/plan, /api/v1/resolve, /api/v1/feed; \
            the stop view spoken (/api/v1/stops/ID/speech, WAV) and the pictures the pages embed \
            (/api/v1/stops/ID/map.svg, /api/v1/routes/ROUTE/diagram.svg, /api/v1/plan/map.svg), all described by \
            /api/v1/openapi.json; /health and /metrics (Prometheus). Settings come from the config's [server] \
            section ([display] themes the pages); --host and --port override it. Listens on loopback unless told \
            otherwise.
            When 'kiosk import' replaces the database file, the server switches to it without a restart.
            SIGTERM or SIGINT: stop accepting, finish the requests in flight, exit 0.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var configOption: ConfigOption

    @Option(help: "Address to listen on (default: [server] host, else 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free one (default: [server] port, else 8080).")
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "What /kiosk scans: camera, demo, off, or a Y4M file or image folder to replay (default: [server] scan_source).",
            valueName: "source"))
    var scanSource: String?

    @Option(
        help: ArgumentHelp(
            "Start the server's clock at this local date-time in the agency's time zone, e.g. 2026-11-25T07:55; it runs on from there (default: the real time). For demonstrations and benchmarks on a chosen service day.",
            valueName: "date-time"))
    var at: String?

    @Option(
        help: ArgumentHelp(
            "Name this instance in an X-Served-By header on every answer (several instances behind a load balancer).",
            valueName: "name"))
    var instance: String?

    @Flag(name: .shortAndLong, help: "Log at debug level (the access log is at info level).")
    var verbose = false

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port must be between 0 and 65535 (got \(port))")
        }
        if let host, host.isEmpty || !host.allSatisfy({ $0.isLetter || $0.isNumber || ".:-_".contains($0) }) {
            throw ValidationError("--host must be an IP address or host name such as 127.0.0.1")
        }
        if let instance,
            instance.isEmpty || instance.count > 64
                || !instance.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:".contains($0)) })
        {
            throw ValidationError(
                "--instance must be 1-64 letters, digits or . - _ : (got '\(instance)')")
        }
    }

    func run() throws {
        var config = try configOption.load()
        if let host { config.server.host = host }
        if let port { config.server.port = port }
        if let scanSource {
            guard ["camera", "demo", "off"].contains(scanSource) || scanSource.hasPrefix("/") else {
                printError("error: --scan-source must be camera, demo, off or an absolute path (got '\(scanSource)')")
                throw ExitCode(ExitStatus.badInput)
            }
            config.server.scanSource = scanSource
        }
        let path = try database.db ?? config.databasePath ?? DefaultDatabase.samplePath()
        try configOption.checkRealtimeFeeds(config.realtime, databasePath: path)
        try ServeRunner.run(
            config: config, databasePath: path, verbose: verbose, clockOffset: try clockOffset(path),
            instanceName: instance)
    }

    /// How far `--at` is from the real time, read in the time zone of the database's agency.
    private func clockOffset(_ path: String) throws -> TimeInterval {
        guard let at else { return 0 }
        return try reportingLookupErrors {
            try MomentOption(at: at).instant(in: try RouteDatabase(path: path).timeZone).timeIntervalSinceNow
        }
    }
}

/// Runs the web service until SIGTERM or SIGINT: `kiosk serve` and `kiosk demo --web`.
enum ServeRunner {
    static func run(
        config: KioskConfig, databasePath path: String, verbose: Bool, clockOffset: TimeInterval = 0,
        demo: (DemoSession, String)? = nil, instanceName: String? = nil
    ) throws {
        // Under systemd (Type=notify): READY=1 once listening, WATCHDOG=1 from health probes, STOPPING=1. Read
        // (and taken out of the environment) before any other thread runs.
        let notifier = SystemdNotifier.fromEnvironment()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        let logger = Logger(label: "stopkiosk.web")
        let service: WebService
        do {
            let databases = try LiveRouteDatabase(
                path: path, checkInterval: .milliseconds(config.server.reloadCheckMilliseconds)
            ) { event in
                switch event {
                case let .opened(path, hash, generation):
                    logger.info(
                        "route database \(path) in service (feed \(hash.prefix(12)), generation \(generation))")
                case let .reloadFailed(path, reason):
                    logger.error(
                        "route database \(path) was replaced but the new file is refused: \(reason); keeping the previous one"
                    )
                case let .failing(path, reason):
                    logger.error(
                        "route database \(path) fails reads: \(reason); /health answers 503 until a good import replaces it"
                    )
                }
            }
            let clock: @Sendable () -> Date = { Date().addingTimeInterval(clockOffset) }
            // The planning timetable image, mapped before the first plan; rewritten for the days ahead as they come.
            PlanningTimetables.shared.slidesImage = true
            PlanningTimetables.shared.setClock(clock)
            PlanningTimetables.shared.prepare(databases.current(), at: clock())
            // Live data: polled off the request path against the database in service at start (a later import is
            // matched from the next restart; the timetable itself switches at once).
            var live: LiveFeedPolling?
            if config.realtime.hasFeeds, config.realtime.mode != .offline { live = LiveFeedPolling() }
            // The passengers' language and conventions, decided once: config, then the feed in service at start.
            var config = config
            config.decidePassengerLocale(feed: databases.current().feedLocaleFacts())
            logger.info("passenger locale: \(config.passengerLocale)")
            let webService = try WebService(
                config: config, databases: databases, logger: logger, now: clock, live: live,
                instanceName: instanceName)
            // After each poll the plans' live overlay is built at once, not by the first plan that needs it.
            live?.start(
                settings: config.realtime, database: databases.current(), clock: clock,
                changed: { webService.prepareLivePlans() })
            service = webService
        } catch let error as LookupError {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
        let server = config.server
        let scanner = try WebScanOptions.scanService(for: service, config: config, demo: demo)
        let listening = ListeningAddress()
        let application = service.application(
            host: server.host, port: server.port, services: scanner.map { [$0] } ?? []
        ) { channel in
            let address = channel.localAddress
            let shown =
                "http://\(address?.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? server.host):\(address?.port ?? server.port)"
            printError("kiosk serve: listening on \(shown)")
            listening.set(host: address?.ipAddress ?? server.host, port: address?.port ?? server.port)
            notifier?.ready(status: "listening on \(shown)")
        }
        // The watchdog comes last so that a signal stops it first (STOPPING=1 at once), then the server drains.
        var services: [any Service] = [application]
        if let notifier { services.append(ServeWatchdog(notifier: notifier, listening: listening)) }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let failure = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await group.run()
            } catch {
                failure.withLock { $0 = String(describing: error) }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) {
            printError("error: kiosk serve: \(message)")
            throw ExitCode(ExitStatus.failure)
        }
    }
}

/// The scan service behind `/kiosk`, from `[server] scan_source` (or `--scan-source`).
enum WebScanOptions {
    static func scanService(
        for service: WebService, config: KioskConfig, demo: (DemoSession, String)?
    ) throws
        -> WebScanService?
    {
        let source = config.server.scanSource
        switch source {
        case "off":
            return nil
        case "camera":
            return WebScanService(
                source: .camera(
                    CameraConfiguration(
                        device: config.cameraDevice, width: config.cameraWidth, height: config.cameraHeight,
                        framesPerSecond: Double(config.cameraFramesPerSecond))), web: service)
        case "demo":
            if let demo { return WebScanService(source: .demo(demo.0, videoPath: demo.1), web: service) }
            guard
                let sessionPath = DemoSessionLocator.find(
                    resourceDirectory: SampleData.sampleNetworkFeed.deletingLastPathComponent())
            else {
                printError("error: the recorded demo session is not installed with this build; use kiosk demo --web")
                throw ExitCode(ExitStatus.badInput)
            }
            let session: DemoSession
            do { session = try DemoSession.load(sessionPath) } catch {
                printError("error: cannot read the demo session \(sessionPath): \(error)")
                throw ExitCode(ExitStatus.badInput)
            }
            let video = URL(fileURLWithPath: sessionPath).deletingLastPathComponent().appendingPathComponent(
                session.video
            ).path
            return WebScanService(source: .demo(session, videoPath: video), web: service)
        default:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
                printError("error: scan source \(source) does not exist")
                throw ExitCode(ExitStatus.badInput)
            }
            return WebScanService(
                source: .replay(
                    isDirectory.boolValue
                        ? .imageFolder(path: source, loop: true, pacing: .framesPerSecond(2))
                        : .video(path: source, loop: true, pacing: .native)), web: service)
        }
    }
}
