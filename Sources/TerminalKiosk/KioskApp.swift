import Foundation
import KioskConfiguration
import Logging
import Realtime
import ScanService
import Scanning
import Speech
import StopCodes
import StopPresentation
import SystemSupport
import TransitModel
import TransitStore
import TripPlanning

#if canImport(Glibc)
import Glibc
import KioskCore
#elseif canImport(Musl)
import Musl
#endif

/// The kiosk program: the state machine, the screen builder and the terminal, driven by keys, scans, time,
/// resizes and database imports. One main loop owns the state, the database and the terminal; the keyboard and
/// the camera each have a thread that posts events.
public final class KioskApp {
    public let options: KioskRunOptions
    private let logger = Logger(label: "stopkiosk.kiosk")
    private let queue = RuntimeEventQueue()
    private let control = ScanControl()
    private let terminal = TerminalDevice()
    private var state: KioskState
    private var database: RouteDatabase?
    /// The database file once it opened: a replacement is put in service there only after it passed its check
    /// (`PRAGMA quick_check` and the import's marks, off this loop), so a corrupted copy is never shown.
    private var liveDatabase: LiveRouteDatabase?
    /// The file seen while none could be opened yet.
    private var databaseIdentity: FileIdentity?
    private var lastDatabaseCheck = Date.distantPast
    private var network: (key: String, network: PlanningNetwork)?
    /// The live (and step-free) overlay of the plans: built once per poll, kept across plans.
    private let planOverlays = PlanningOverlayCache()
    private var writer: TerminalFrameWriter
    private var size: (width: Int, height: Int)
    private var lastPlain: [String] = []
    private var replayEnded = false
    private var serviceDay: ServiceDate?
    /// Scans, keys and frames drawn, for the demo's summary.
    public private(set) var statistics = (scans: 0, keys: 0, frames: 0, plans: 0)
    /// Scan-to-screen latencies in nanoseconds (frame arrival → the frame showing its result written to the
    /// terminal), the most recent 10,000: the hook for the latency benchmark and the demo's summary.
    public private(set) var scanToScreenNanos: [UInt64] = []
    private var pendingScanArrival: UInt64?
    /// Live departures, polled off this loop (`[realtime]` in the config).
    private let livePolling = LiveFeedPolling()
    /// Says what the screen shows, off the main loop (nil: speech off in the config).
    private var speaker: Speaker?
    /// The utterance the state machine is waiting on; older ones' endings are ignored.
    private var currentUtterance: Int?
    /// What `/metrics` reports and systemd's watchdog stands for (`KioskHealth`).
    public let health: KioskHealth

    public init(options: KioskRunOptions, health: KioskHealth = KioskHealth()) {
        var options = options
        // The language the kiosk starts in, and its clock and units, decided once: config, then the feed.
        options.config = KioskLocale.deciding(options.config, databasePath: options.databasePath)
        self.options = options
        self.health = health
        let now = Date().addingTimeInterval(options.clockOffset)
        state = KioskState(
            language: options.config.language, idleTimeout: TimeInterval(options.config.idleTimeoutSeconds),
            hasHomeStop: options.config.homeStop != nil, now: now)
        state.conventions = options.config.passengerLocale
        writer = TerminalFrameWriter(colorMode: options.plainText ? .basic16 : TerminalColorMode.detect())
        size = options.plainSize
        let speech = options.config.speech
        if speech.enabled {
            state.speech = KioskSpeechControls(
                speakKey: .function(speech.speakKey), moreKey: .function(speech.moreKey),
                volumeDownKey: .function(speech.volumeDownKey), volumeUpKey: .function(speech.volumeUpKey),
                volume: speech.volume, volumeStep: speech.volumeStep, autoSpeak: speech.autoSpeak)
        }
    }

    /// The speaker, made on first use: a sink that cannot be made (no player program) is logged once and
    /// speech stays silent; the screen works as before.
    private func makeSpeaker() -> Speaker? {
        if let speaker { return speaker }
        let sink: any AudioSink
        do {
            switch options.config.speech.output {
            case let .player(program): sink = try PlayerAudioSink(program: program)
            case let .log(path): sink = LogAudioSink(path: path, realTime: true)
            }
        } catch {
            logger.error("speech: \(error)")
            state.speech = nil  // nothing to play on: the keys go back to meaning nothing
            return nil
        }
        let queue = self.queue
        let health = self.health
        let made = Speaker(
            sink: sink, logger: logger,
            onEvent: { event in
                if case .failed = event { health.noteSpeechError() }
                switch event {
                case .firstAudio: break
                case let .finished(id), let .interrupted(id), let .failed(id, _):
                    queue.post(.speechEnded(utterance: id))
                }
            })
        speaker = made
        return made
    }

    var now: Date { Date().addingTimeInterval(options.clockOffset) }

    /// Runs until a signal, the end of the keyboard, or (with `once`) the end of the replay. Returns the exit status.
    public func run() -> Int32 {
        if !options.plainText {
            terminal.enter()
            size = terminal.size()
        }
        defer {
            health.stopping()
            livePolling.stop()
            control.stop()
            if !options.plainText { terminal.restore() }
        }

        logger.notice("\(KioskLocale.logLine(options.config))")
        openDatabase(initial: true)
        startInput()
        startScanning()

        var status: Int32 = 0
        var nextTick = Date()
        render()
        health.ready()
        loop: while true {
            health.loopIteration()
            let events = queue.drain(until: nextTick)
            if Date() >= nextTick {
                nextTick = Date().addingTimeInterval(1)
            }
            var sawQuit: Int32?
            // Every scan counts for /metrics, the ones a burst hides below too.
            for case let .scanned(outcome, _) in events { health.noteScan(outcome.status.rawValue) }
            var batch: [RuntimeEvent] = events.isEmpty ? [.kiosk(.tick)] : events + [.kiosk(.tick)]
            // A burst of scans: only the last one can still be seen, so only it is looked up.
            if let lastScan = batch.lastIndex(where: {
                if case .scanned = $0 { return true }; return false
            }) {
                batch = batch.enumerated().filter { index, event in
                    if case .scanned = event { return index == lastScan }
                    return true
                }.map(\.element)
            }
            for event in batch {
                if case let .kiosk(.camera(status)) = event { health.noteCamera(status) }
                switch event {
                case let .scanned(outcome, arrival):
                    statistics.scans += 1
                    pendingScanArrival = arrival
                    apply(.scan(outcome))
                case let .kiosk(kioskEvent):
                    if case .key = kioskEvent {
                        statistics.keys += 1
                        // A person at the demo: the recorded passenger steps back until the kiosk is idle again.
                        if case .demo = options.input { control.paused = true }
                    }
                    apply(kioskEvent)
                case let .scriptedKey(key):
                    apply(.key(key))
                case .resize:
                    if !options.plainText {
                        size = terminal.size()
                        writer.invalidate()
                    }
                case let .quit(signal):
                    sawQuit = signal
                case .replayEnded:
                    replayEnded = true
                case .inputClosed:
                    break
                case let .speechEnded(utterance):
                    if utterance == currentUtterance {
                        currentUtterance = nil
                        apply(.speechEnded)
                    }
                }
            }
            checkDatabaseFile()
            checkServiceDay()
            if state.isIdle, control.paused { control.paused = false }
            render()
            if let arrival = pendingScanArrival {
                pendingScanArrival = nil
                let now = DispatchTime.now().uptimeNanoseconds
                if scanToScreenNanos.count >= 10_000 { scanToScreenNanos.removeFirst(5_000) }
                scanToScreenNanos.append(now > arrival ? now - arrival : 0)
            }
            if let signal = sawQuit {
                status = signal == SIGINT || signal == SIGTERM || signal == SIGHUP ? 0 : 1
                break loop
            }
            if options.once, replayEnded, state.isIdle {
                break loop
            }
        }
        return status
    }

    // MARK: - State machine and effects

    private func apply(_ event: KioskEvent) {
        var pending = [event]
        var guardCount = 0
        while !pending.isEmpty && guardCount < 64 {
            guardCount += 1
            let next = pending.removeFirst()
            let effects = state.handle(next, now: now)
            for effect in effects { pending += perform(effect) }
        }
    }

    private func perform(_ effect: KioskEffect) -> [KioskEvent] {
        let config = options.config
        switch effect {
        case .loadHome:
            guard let home = config.homeStop, let database else { return [.takeoverLoaded(takeover(home: nil))] }
            let loaded = lookUp {
                try board(for: try database.resolveStop(.idOrCode(RouteDatabase.validateQuery(home))), database)
            }
            return [.homeLoaded(loaded), .takeoverLoaded(takeover(home: try? loaded.get().stop))]
        case let .loadStop(target):
            guard let database else {
                return [.stopLoaded(.failure(KioskFailureBox(.databaseUnavailable(detail: options.databasePath))))]
            }
            return [
                .stopLoaded(lookUp { try board(for: try resolve(target, database), database) }),
                .takeoverLoaded(takeover(home: state.home?.stop)),
            ]
        case let .search(text):
            guard let database else { return [.matchesLoaded(query: text, matches: [])] }
            var matches: [StopInfo] = []
            if let exact = try? database.resolveStop(.idOrCode(RouteDatabase.validateQuery(text))) {
                matches.append(exact.stop)
            }
            for match in (try? database.searchStops(text, limit: 8)) ?? []
            where !matches.contains(where: { $0.id == match.stop.id }) {
                matches.append(match.stop)
            }
            return [.matchesLoaded(query: text, matches: Array(matches.prefix(8)))]
        case let .plan(from, to, stepFree):
            guard let database else {
                return [.planLoaded(.failure(KioskFailureBox(.databaseUnavailable(detail: options.databasePath))))]
            }
            statistics.plans += 1
            return [
                .planLoaded(
                    lookUp {
                        let destination = try resolve(to, database)
                        let at = now
                        let rules = PlanningRules(walkRadiusMeters: config.walkRadiusMeters)
                        let key =
                            "\(ServiceDate.containing(at, in: database.timeZone))/\(config.walkRadiusMeters)/\(database.feedHash)"
                        if network?.key != key {
                            network = (key, try database.planningNetwork(around: at, rules: rules))
                        }
                        return try database.livePlan(
                            from: from, to: destination, at: at, maxTransfers: config.maxTransfers, rules: rules,
                            options: PlanOptions(stepFree: stepFree), live: livePolling.live, now: now,
                            cache: planOverlays, network: network?.network)
                    })
            ]
        case let .loadDiagram(routeID, stop):
            guard let database else {
                return [
                    .diagramLoaded(
                        routeID: routeID,
                        .failure(KioskFailureBox(.databaseUnavailable(detail: options.databasePath))))
                ]
            }
            return [
                .diagramLoaded(routeID: routeID, lookUp { try database.routeDiagram(route: routeID, viewer: stop) })
            ]
        case .reloadDatabase:
            openDatabase(initial: false)
            return []
        case let .speak(utterance):
            return speak(utterance)
        case .stopSpeaking:
            speaker?.stop()
            currentUtterance = nil
            return []
        }
    }

    /// Starts saying an utterance (quiet hours: automatic ones are skipped, the volume capped).
    private func speak(_ utterance: KioskUtterance) -> [KioskEvent] {
        let settings = options.config.speech
        var volume = utterance.volume
        if let zone = state.lastKnownTimeZone.flatMap(TimeZone.init(identifier:)) {
            let clock = LocalTime.clock(now, in: zone).split(separator: ":").compactMap { Int($0) }
            if clock.count == 2, settings.isQuiet(minuteOfDay: clock[0] * 60 + clock[1]) {
                if utterance.automatic { return [.speechEnded] }
                volume = min(volume, settings.quietVolume)
            }
        }
        guard let speaker = makeSpeaker() else { return [.speechEnded] }
        let id = speaker.say(
            utterance.text,
            settings: VoiceSettings(language: utterance.language, rate: settings.rate, volume: volume))
        currentUtterance = id
        return []
    }

    /// The severe messages for the home stop (if any) or every kiosk, in both languages, from the latest live data.
    private func takeover(home: ResolvedStop?) -> KioskTakeover {
        guard let live = livePolling.live else { return KioskTakeover() }
        let stops = home.map(AlertIndex.Scope.stopIDs(of:)) ?? []
        let at = now
        return KioskTakeover(
            spanish: live.screenTakeover(stops: stops, now: at, language: Language.es.rawValue),
            english: live.screenTakeover(stops: stops, now: at, language: Language.en.rawValue))
    }

    private func lookUp<T>(_ body: () throws -> T) -> Result<T, KioskFailureBox> {
        do { return .success(try body()) } catch { return .failure(KioskFailureBox(KioskFailure(error))) }
    }

    private func resolve(_ target: KioskStopTarget, _ database: RouteDatabase) throws -> ResolvedStop {
        switch target {
        case let .resolved(stop): return stop
        case let .stopID(id): return try database.resolveStop(.id(id))
        case let .typed(text): return try database.resolveEndpoint(text)
        }
    }

    private func board(for stop: ResolvedStop, _ database: RouteDatabase) throws -> KioskStopBoard {
        let view = try database.liveStopView(
            for: stop, at: now, windowMinutes: options.config.windowMinutes,
            nearbyRadiusMeters: options.config.nearbyRadiusMeters, live: livePolling.live, now: now,
            language: state.language.rawValue)
        // Names as the feed translates them into the screen's language (F2 looks the board up again).
        return KioskStopBoard(stop: stop, view: database.translated(view, into: state.language))
    }

    // MARK: - Database

    /// Opens (or reopens, after an import) the database and tells the state machine what it found.
    private func openDatabase(initial: Bool) {
        let path = options.databasePath
        network = nil
        if let liveDatabase {
            // The replacement that passed its check (a refused one never gets here).
            let opened = liveDatabase.current()
            if opened !== database {
                logger.notice(
                    "route database reloaded", metadata: ["path": "\(path)", "feed_hash": "\(opened.feedHash)"])
            }
            database = opened
        } else {
            databaseIdentity = FileIdentity(path: path)
            let logger = self.logger
            do {
                let opened = try LiveRouteDatabase(path: path, checkInterval: .zero) { event in
                    switch event {
                    case .opened: break
                    case let .reloadFailed(path, reason):
                        logger.error(
                            "route database replacement refused; keeping the previous one",
                            metadata: ["path": "\(path)", "error": "\(reason)"])
                    case let .failing(path, reason):
                        logger.error("route database fails reads", metadata: ["path": "\(path)", "error": "\(reason)"])
                    }
                }
                liveDatabase = opened
                database = opened.current()
                if !initial, let database {
                    logger.notice(
                        "route database reloaded", metadata: ["path": "\(path)", "feed_hash": "\(database.feedHash)"])
                }
            } catch {
                database = nil
                logger.error("route database unavailable", metadata: ["path": "\(path)", "error": "\(error)"])
            }
        }
        control.setDatabase(database)
        health.noteDatabase(database, live: liveDatabase)
        startLivePolling()
        apply(.databaseStatus(databaseStatus()))
        serviceDay = database.map { ServiceDate.containing(now, in: $0.timeZone) }
    }

    /// (Re)starts polling the live feeds against the database now open (matching needs its timetable).
    private func startLivePolling() {
        guard let database else {
            livePolling.stop()
            return
        }
        let offset = options.clockOffset
        let queue = self.queue
        let polling = livePolling
        health.setLiveSource { polling.live }
        livePolling.start(
            settings: options.config.realtime, database: database,
            clock: { Date().addingTimeInterval(offset) }, changed: { queue.post(.kiosk(.liveDataChanged)) })
    }

    private func databaseStatus() -> KioskDatabaseStatus {
        guard let database else {
            return .unavailable(
                detail: FileManager.default.fileExists(atPath: options.databasePath)
                    ? "\(options.databasePath) is not a usable route database"
                    : "\(options.databasePath) does not exist")
        }
        let today = ServiceDate.containing(now, in: database.timeZone)
        do {
            try database.checkServiceRange(today)
            return .ready(
                feedName: database.feedName, timeZone: database.timeZone.identifier,
                serviceStart: database.serviceStart?.description, serviceEnd: database.serviceEnd?.description)
        } catch {
            return .outOfService(
                feedName: database.feedName, timeZone: database.timeZone.identifier, date: today.description,
                start: database.serviceStart?.description ?? "?", end: database.serviceEnd?.description ?? "?")
        }
    }

    /// A new import renames a new file over the old one: a different inode (or size/mtime) means a replacement,
    /// which `LiveRouteDatabase` checks off this loop; once it passed, reload at the next idle moment.
    private func checkDatabaseFile() {
        guard Date().timeIntervalSince(lastDatabaseCheck) >= options.databaseCheckInterval else { return }
        lastDatabaseCheck = Date()
        if let liveDatabase {
            if liveDatabase.current() !== database { apply(.databaseChanged) }
            return
        }
        let current = FileIdentity(path: options.databasePath)
        if current != databaseIdentity, current != nil || database != nil {
            databaseIdentity = current
            apply(.databaseChanged)
        }
    }

    /// At midnight the service date changes: the database may now be out of its dates (or back in them).
    private func checkServiceDay() {
        guard let database else { return }
        let today = ServiceDate.containing(now, in: database.timeZone)
        if today != serviceDay {
            serviceDay = today
            apply(.databaseStatus(databaseStatus()))
        }
    }

    // MARK: - Drawing

    private func render() {
        statistics.frames += 1
        if options.plainText {
            let canvas = KioskScreenBuilder.build(
                state, width: options.plainSize.width, height: options.plainSize.height, context: options.context)
            let lines = canvas.lines
            // Print a frame when something other than the clock changed (the header's stop name too).
            if Self.withoutClock(lines) != Self.withoutClock(lastPlain) {
                lastPlain = lines
                var text = String(repeating: "─", count: options.plainSize.width) + "\n"
                var body = lines
                while body.last?.isEmpty == true { body.removeLast() }
                text += body.joined(separator: "\n") + "\n"
                FileHandle.standardOutput.write(Data(text.utf8))
                health.noteRedraw()
            }
            return
        }
        let canvas = KioskScreenBuilder.build(state, width: size.width, height: size.height, context: options.context)
        let bytes = writer.update(to: canvas)
        if !bytes.isEmpty { health.noteRedraw() }
        terminal.writeAll(bytes)
    }

    /// A frame's lines with the header's clock taken out: what a plain-text frame is compared by.
    static func withoutClock(_ lines: [String]) -> [String] {
        guard let header = lines.first else { return lines }
        return [header.replacingOccurrences(of: #"[0-9]{1,2}:[0-9]{2}"#, with: "", options: .regularExpression)]
            + lines.dropFirst()
    }

    // MARK: - Inputs

    /// The signals the kiosk wants from its executable
    /// (`ProcessSignals.observe(KioskApp.signals, handler: app.signalReceiver)`): SIGINT, SIGTERM and SIGHUP
    /// restore the terminal and end the run, SIGWINCH redraws at the new size.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH]

    /// Hands signals to the run loop; safe from any thread.
    public var signalReceiver: @Sendable (Int32) -> Void {
        let queue = self.queue
        return { signalNumber in queue.post(signalNumber == SIGWINCH ? .resize : .quit(signal: signalNumber)) }
    }

    private func startInput() {
        guard !options.plainText, TerminalDevice.isTerminal(STDIN_FILENO) else { return }
        let queue = self.queue
        KeyReader().start({ key in queue.post(.kiosk(.key(key))) }, onEnd: { queue.post(.inputClosed) })
    }

    private func startScanning() {
        let input = options.input
        let config = options.config
        let queue = self.queue
        let control = self.control
        let options = self.options
        let health = self.health
        if case .none = input {
            queue.post(.kiosk(.camera(.none)))
            return
        }
        health.noteScanThread(running: true, decoders: config.decoders)
        let thread = Thread {
            ThreadName.setCurrent("kiosk-scan")
            KioskScanLoop(
                input: input, config: config, queue: queue, control: control, pacedDemo: !options.unpacedDemo,
                frameLimit: options.frameLimit, health: health
            ).run()
            health.noteScanThread(running: false, decoders: [])
        }
        thread.start()
    }
}
