import ArgumentParser
import Foundation
import KioskConfiguration
import Labels
import SampleData
import ScanService
import Scanning
import StopCodes
import StopPresentation
import SystemSupport
import TerminalKiosk
import TransitModel
import TransitStore

/// `kiosk demo`: the kiosk on the embedded default — the sample network and a recorded camera session — in any
/// terminal, with no camera and no config.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the kiosk on the sample network with a recorded camera session (no camera or config needed).",
        discussion: """
            The recorded passenger (assets/demo/) holds stop labels to the camera one after another — Colón, Río Coca, \
            a café's Wi-Fi code (not a stop code), La Carolina — then presses Enter and shows Cumbayá's label as the \
            destination; the kiosk shows each stop's departures, the notice, and the journey plan, then returns to \
            its idle screen. Every frame goes through the same decoder, payload parser and lookups as 'kiosk run'.

            Press any key to take over: the recorded passenger waits until the kiosk is idle again. Tab or F2 \
            switches Spanish/English; type a destination (e.g. "cumbaya"), ↑↓ to choose, Enter for the plan. \
            Ctrl-C ends the demo.

            Live departures: the demo polls the sample network's live scenario (assets/realtime: a delayed, a \
            cancelled and an extra trolleybus, a skipped stop and an alert, as published on 2026-11-25 at 07:59:40), \
            so its clock starts at 2026-11-25 08:00, when that data is live; it stops counting as live after five \
            minutes and the boards then say so. --realtime polls another feed (file or URL); --no-realtime shows \
            the timetable only, with the demo clock the real one when the sample network has service at this hour, \
            otherwise 08:00 (on 2026-11-25 when today is outside the sample's dates). --at sets the clock.
            When standard output is not a terminal, each screen is printed as plain text (80×24) instead.
            """
    )

    @Flag(help: "End after one pass of the recorded session, once the kiosk is idle again (for scripts and tests).")
    var once = false

    @Option(
        help: ArgumentHelp(
            "Seconds without a key or a scan before the kiosk returns to idle (default 15).", valueName: "seconds"))
    var idleTimeout = 15

    @Option(
        help: ArgumentHelp("Start the demo clock at this local date-time, e.g. 2026-11-25T08:00.", valueName: "time"))
    var at: String?

    @Option(help: "Language the kiosk starts in: es or en (default: the feed's, Spanish for the sample).")
    var lang: Language?

    @Option(help: "Screen theme: default or high-contrast (every text colour pair at least 7:1).")
    var theme: DisplaySettings.Theme = .default

    @Option(help: "Screen layout: standard, or large (secondary columns dropped instead of wrapped).")
    var layout: DisplaySettings.Layout = .standard

    @Option(
        help: ArgumentHelp(
            "Poll this GTFS-Realtime feed (file or http(s):// URL) instead of the sample's live scenario.",
            valueName: "file-or-url"))
    var realtime: String?

    @Flag(help: "No live data: the timetable only.")
    var noRealtime = false

    @Option(
        help: ArgumentHelp("The recorded session (session.json) to play instead of the shipped one.", valueName: "file")
    )
    var session: String?

    @Option(help: ArgumentHelp("Write the log here.", valueName: "file"))
    var log: String?

    @Flag(
        help:
            "Run the demo in a browser instead: kiosk serve on the sample network with the recorded session as its camera; open the printed /kiosk URL."
    )
    var web = false

    @Option(help: "With --web: the port to listen on (loopback; 0 picks a free one).")
    var port = 8080

    @Option(help: .hidden)
    var record: String?

    @Option(help: .hidden)
    var labelImages: String?

    func validate() throws {
        guard (3...3600).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be between 3 and 3600 seconds (got \(idleTimeout))")
        }
        if noRealtime && realtime != nil { throw ValidationError("--realtime and --no-realtime exclude each other") }
    }

    func run() throws {
        if let record {
            try DemoRecording.make(into: record, labelImages: labelImages)
            return
        }
        if !web { KioskLogging.bootstrap(file: log, verbose: false) }  // kiosk serve sets up its own access log
        let databasePath: String
        let database: RouteDatabase
        do {
            databasePath = try DefaultDatabase.samplePath()
            database = try RouteDatabase(path: databasePath)
        } catch {
            printError("error: cannot prepare the sample network: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
        let sessionPath: String
        if let session {
            sessionPath = session
        } else if let found = DemoSessionLocator.find(
            resourceDirectory: SampleData.sampleNetworkFeed.deletingLastPathComponent())
        {
            sessionPath = found
        } else {
            // Not shipped with this build: record it once into the cache (plain QR cards instead of labels).
            let cache = URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("demo")
                .path
            if !FileManager.default.fileExists(atPath: cache + "/session.json") {
                printError("kiosk demo: the recorded session is not installed; recording one into \(cache)…")
                try DemoRecording.make(into: cache, labelImages: nil)
            }
            sessionPath = cache + "/session.json"
        }
        let demoSession: DemoSession
        do {
            demoSession = try DemoSession.load(sessionPath)
        } catch {
            printError("error: cannot read the demo session \(sessionPath): \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
        let videoPath = URL(fileURLWithPath: sessionPath).deletingLastPathComponent().appendingPathComponent(
            demoSession.video
        ).path

        let start: Date
        if let at {
            guard let date = LocalTime.parse(at, in: database.timeZone) else {
                printError("error: \(LookupError.invalidTime(at))")
                throw ExitCode(ExitStatus.badInput)
            }
            start = date
        } else if !noRealtime && realtime == nil {
            // The live scenario is live at its own moment only.
            start = LocalTime.parse(SampleData.realtimeScenarioInstant, in: database.timeZone) ?? Date()
        } else {
            start = Self.demoStart(now: Date(), database: database, fallback: demoSession.fallbackStart)
        }

        var config = KioskConfig()
        if let lang { config.language = lang }
        config.idleTimeoutSeconds = idleTimeout
        config.homeStop = demoSession.homeStop
        config.databasePath = databasePath
        if !noRealtime {
            // Read every 100 s: live for five minutes after the feed's time (three polls, at most 300 s).
            config.realtime = RealtimeSettings(
                tripUpdates: realtime ?? SampleData.realtimeScenario.path,
                alerts: realtime ?? SampleData.realtimeScenario.path, pollSeconds: 100)
        }
        config.display.theme = theme
        config.display.layout = layout
        if web {
            config.server.port = port
            config.server.scanSource = "demo"
            printError(
                "kiosk demo --web: open http://127.0.0.1:\(port == 0 ? "PORT" : String(port))/kiosk (Ctrl-C ends)")
            try ServeRunner.run(
                config: config, databasePath: databasePath, verbose: false,
                clockOffset: start.timeIntervalSinceNow, demo: (demoSession, videoPath))
            return
        }
        var options = KioskRunOptions(
            config: config, databasePath: databasePath,
            input: .demo(demoSession, videoPath: videoPath, loop: !once), context: ScreenContext(demo: true))
        options.clockOffset = start.timeIntervalSinceNow
        options.once = once
        if !TerminalDevice.isTerminal(STDOUT_FILENO) {
            options.plainText = true
            printError("kiosk demo: standard output is not a terminal; printing each screen as plain text (80×24).")
        }
        let app = KioskApp(options: options)
        let signals = ProcessSignals.observe(KioskApp.signals, handler: app.signalReceiver)
        defer { signals.cancel() }
        let status = app.run()
        if once {
            let s = app.statistics
            let latencies = app.scanToScreenNanos.sorted()
            let p50 = latencies.isEmpty ? 0 : Double(latencies[latencies.count / 2]) / 1e6
            let worst = Double(latencies.last ?? 0) / 1e6
            print(
                "kiosk demo: one pass of \(String(format: "%.0f", demoSession.duration)) s: \(s.scans) scans, \(s.plans) plan\(s.plans == 1 ? "" : "s"), \(s.keys) keys; ended idle"
                    + "; scan to screen \(String(format: "%.1f", p50)) ms median, \(String(format: "%.1f", worst)) ms max"
            )
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The real time when the sample network runs at this hour (06:00–21:00 local, within its dates); otherwise
    /// today at `fallback` (HH:MM), or 2026-11-25 at `fallback` when today is outside the dates.
    static func demoStart(now: Date, database: RouteDatabase, fallback: String) -> Date {
        let zone = database.timeZone
        let local = LocalTime.iso8601(now, in: zone)
        let today = ServiceDate.containing(now, in: zone)
        let inRange = (try? database.checkServiceRange(today)) != nil
        let hour = Int(local.dropFirst(11).prefix(2)) ?? 0
        if inRange && (6..<21).contains(hour) { return now }
        let day = inRange ? String(local.prefix(10)) : "2026-11-25"
        return LocalTime.parse("\(day)T\(fallback)", in: zone) ?? now
    }
}

/// Records the demo session: label images from the label generator (`kiosk labels --format png`, one per stop,
/// named `<stop_code>.png` in `labelImages`) or, without them, QR cards drawn here; see assets/demo/README.md.
enum DemoRecording {
    struct Plan {
        var code: String?
        var payload: String
        var expect: String
        var keyBefore: String?
        var readTicks: Int
    }

    static let template = KioskConfig().urlTemplate

    static let shots: [Plan] = [
        Plan(code: "2010", payload: url("2010"), expect: "Colón", keyBefore: nil, readTicks: 70),
        Plan(code: "3001", payload: url("3001"), expect: "Río Coca", keyBefore: nil, readTicks: 70),
        Plan(
            code: nil, payload: "WIFI:S:Cafe Central;T:WPA;P:empanadas2026;;", expect: "no es de una parada",
            keyBefore: nil, readTicks: 50),
        Plan(code: "1121", payload: url("1121"), expect: "La Carolina", keyBefore: nil, readTicks: 40),
        Plan(
            code: "5007", payload: url("5007"), expect: "De La Carolina a Cumbayá", keyBefore: "enter", readTicks: 180),
    ]

    static func url(_ code: String) -> String {
        (try? StopURLTemplate(template).url(for: code)) ?? code
    }

    static func make(into directory: String, labelImages: String?) throws {
        var recorder = DemoRecorder()
        recorder.homeStop = "MQ09"
        var made: [DemoRecorder.Shot] = []
        for shot in shots {
            var texture: LumaFrame?
            if let labelImages, let code = shot.code {
                let path = labelImages + "/\(code).png"
                do {
                    texture = try ImageFile.load(path)
                } catch {
                    printError("kiosk demo --record: no label image \(path) (\(error)); drawing a plain QR card")
                }
            }
            made.append(
                DemoRecorder.Shot(
                    payload: shot.payload, expect: shot.expect, texture: try texture ?? card(shot.payload),
                    keyBefore: shot.keyBefore, readTicks: shot.readTicks))
        }
        let session = try recorder.record(made, to: directory)
        let size =
            (try? FileManager.default.attributesOfItem(atPath: directory + "/" + session.video)[.size] as? Int) ?? 0
        printError(
            "kiosk demo --record: wrote \(directory)/\(session.video) (\(size / 1024) KiB, \(session.steps.count) steps, \(String(format: "%.0f", session.duration)) s) and session.json"
        )
    }

    /// A plain card with the QR code (for payloads that are not stop labels, e.g. a café's Wi-Fi code).
    static func card(_ payload: String) throws -> LumaFrame {
        let matrix = try QRMatrix(encoding: payload, errorCorrection: .medium)
        let module = 8
        let side = matrix.sizeWithQuietZone * module
        let margin = 24, band = 40
        let width = side + 2 * margin, height = side + 2 * margin + band
        var pixels = [UInt8](repeating: 245, count: width * height)
        for y in 0..<band { for x in 0..<width { pixels[y * width + x] = 60 } }  // a printed header band
        for row in 0..<matrix.size {
            for column in 0..<matrix.size where matrix[row, column] {
                let x0 = margin + (column + QRMatrix.quietZone) * module,
                    y0 = band + margin + (row + QRMatrix.quietZone) * module
                for y in y0..<(y0 + module) { for x in x0..<(x0 + module) { pixels[y * width + x] = 20 } }
            }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }
}

extension DisplaySettings.Theme: ExpressibleByArgument {}
extension DisplaySettings.Layout: ExpressibleByArgument {}
