import ArgumentParser
import Foundation
import KioskConfiguration
import KioskCore
import Logging
import Scanning
import ServiceLifecycle
import SystemSupport
import TerminalKiosk
import TransitStore
import WebService
import TripPlanning

/// `kiosk run`: the full-screen kiosk a passenger uses, on the configured camera and database.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the kiosk screen: scan a stop's code, see its departures, type a destination, see the way.",
        discussion: """
            Reads the TOML config (every key is documented in kiosk/kiosk.example.toml); without --config, \
            \(ConfigOption.systemConfig) if it exists, else the defaults (the bundled sample network, /dev/video0). \
            An unknown key or a bad value stops the kiosk before it starts, naming the file and the key (exit 2).

            Keys on the screen: Tab or F2 switches Spanish/English; typing starts a destination (or, without a home \
            stop, a stop search); ↑↓ choose, Enter plans, Esc goes back. After idle_timeout_seconds without a key or \
            a scan the kiosk returns to its idle screen. A new 'kiosk import' over the database file is picked up at \
            the next idle moment. The camera may be unplugged and replugged at any time.

            Live departures: with [realtime] feeds configured (and mode not "offline"), they are polled every \
            poll_seconds in the background; boards show live times, delays, cancellations and alerts, and fall back \
            to the timetable — saying since when live information is unavailable — when the feeds fail or go stale.

            When standard output is not a terminal, each screen is printed as plain text instead (for logs).
            SIGINT, SIGTERM and SIGHUP restore the terminal and exit 0.
            """
    )

    @OptionGroup var configOption: ConfigOption

    @Option(
        help: ArgumentHelp("Replay a YUV4MPEG2 video instead of the camera (testing a deployment).", valueName: "file"))
    var replay: String?

    @Flag(help: "Run without a camera (typing only).")
    var noCamera = false

    @Option(help: ArgumentHelp("Write the log here (it never goes to the kiosk's screen).", valueName: "file"))
    var log: String?

    @Flag(name: .shortAndLong, help: "Log debug messages.")
    var verbose = false

    func validate() throws {
        if replay != nil && noCamera { throw ValidationError("--replay and --no-camera cannot be used together") }
    }

    func run() throws {
        KioskLogging.bootstrap(file: log, verbose: verbose)
        // The kiosk runs for days: its planning timetable image is rewritten for the days ahead as they come.
        PlanningTimetables.shared.slidesImage = true
        let kioskConfig = try configOption.load()
        let databasePath: String
        do {
            databasePath = try kioskConfig.databasePath ?? DefaultDatabase.samplePath()
        } catch {
            printError("error: cannot prepare the sample database: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
        try configOption.checkRealtimeFeeds(kioskConfig.realtime, databasePath: databasePath)
        let input: KioskFrameInput
        if noCamera {
            input = .none
        } else if let replay {
            input = .replay(.video(path: replay, loop: false, pacing: .native))
        } else {
            input = .camera(
                CameraConfiguration(
                    device: kioskConfig.cameraDevice, width: kioskConfig.cameraWidth,
                    height: kioskConfig.cameraHeight, framesPerSecond: Double(kioskConfig.cameraFramesPerSecond)))
        }
        var options = KioskRunOptions(config: kioskConfig, databasePath: databasePath, input: input)
        options.plainText = !TerminalDevice.isTerminal(STDOUT_FILENO)
        // Under systemd (Type=notify, WatchdogSec): READY=1, WATCHDOG=1 from the screen loop, STOPPING=1.
        let health = KioskHealth(notifier: SystemdNotifier.fromEnvironment())
        if let listen = kioskConfig.metrics.listen { KioskMetricsListener.start(health: health, listen: listen) }
        let app = KioskApp(options: options, health: health)
        let signals = ProcessSignals.observe(KioskApp.signals, handler: app.signalReceiver)
        defer { signals.cancel() }
        let status = app.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// Logging for the full-screen commands: never onto the screen the kiosk draws.
enum KioskLogging {
    static func bootstrap(file: String?, verbose: Bool) {
        let level: Logger.Level = verbose ? .debug : .notice
        if let file {
            // Standard error goes to the log file (so does anything else written there).
            let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                dup2(fd, STDERR_FILENO)
                close(fd)
            } else {
                printError("warning: cannot open the log file \(file): \(String(cString: strerror(errno)))")
            }
        }
        // Standard error on the kiosk's own terminal would scribble over the screen: only when it goes elsewhere
        // (a log file, the journal under systemd) does it get more than critical messages.
        let stderrIsScreen = TerminalDevice.isTerminal(STDERR_FILENO)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = stderrIsScreen ? .critical : level
            return handler
        }
    }
}

/// `[metrics] listen`: `GET /metrics` for Prometheus on its own task, beside the kiosk's loops; it ends with the
/// process. A listener that cannot start (the port taken) is logged and the kiosk runs on without it.
enum KioskMetricsListener {
    static func start(health: KioskHealth, listen: (host: String, port: Int)) {
        let logger = Logger(label: "stopkiosk.metrics")
        let application = KioskRunMetrics(health: health).application(
            host: listen.host, port: listen.port, logger: logger
        ) { host, port in
            logger.notice("metrics on http://\(host.contains(":") ? "[\(host)]" : host):\(port)/metrics")
        }
        Task.detached {
            do {
                try await ServiceGroup(
                    configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger)
                ).run()
            } catch {
                logger.error("metrics listener on \(listen.host):\(listen.port) failed: \(error)")
            }
        }
    }
}
