import Foundation
import KioskConfiguration
import KioskCore
import ScanService
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

// The kiosk as a pure state machine: `KioskState.handle(event, now:)` changes the state and returns the work the
// runtime must do (database queries, a reload); the runtime feeds the answers back as events. Nothing here
// touches a device, a clock or a file, so every screen a passenger can reach is reachable from a test.

/// A stop the kiosk shows: the resolved stop (for planning from it) and its board at some instant.
public struct KioskStopBoard: Sendable, Equatable {
    public var stop: ResolvedStop
    public var view: StopView

    public init(stop: ResolvedStop, view: StopView) {
        self.stop = stop
        self.view = view
    }
}

/// A lookup that failed, in the terms the screen shows.
public enum KioskFailure: Sendable, Equatable {
    /// The database file is missing or unusable (`detail` says why, for staff).
    case databaseUnavailable(detail: String)
    /// Today is outside the timetable's dates.
    case outOfService(date: String, start: String, end: String)
    /// A typed stop or destination matched nothing.
    case noSuchStop(query: String)
    /// A typed destination matched several stops equally well.
    case ambiguous(query: String)
    /// Origin and destination are the same stop.
    case sameStop
    /// Anything else (`detail` sanitised, for staff).
    case other(detail: String)

    /// Maps the store's errors to what the passenger is told.
    public init(_ error: any Error) {
        switch error {
        case let lookup as LookupError:
            switch lookup {
            case let .databaseMissing(path): self = .databaseUnavailable(detail: "missing: \(path)")
            case let .notARouteDatabase(path, reason): self = .databaseUnavailable(detail: "\(path): \(reason)")
            case let .noSuchStop(query, _): self = .noSuchStop(query: TerminalText.sanitize(query, maxLength: 60))
            case let .outsideServiceRange(date, start, end):
                self = .outOfService(date: date.description, start: start.description, end: end.description)
            case let .invalidQuery(text):
                if text.contains("matches several stops") {
                    self = .ambiguous(query: "")
                } else if text.contains("are the same stop") {
                    self = .sameStop
                } else {
                    self = .other(detail: TerminalText.sanitize(text, maxLength: 160))
                }
            case let .invalidTime(text): self = .other(detail: TerminalText.sanitize(text, maxLength: 60))
            case .nonexistentLocalTime: self = .other(detail: TerminalText.sanitize(lookup.description, maxLength: 160))
            }
        default:
            self = .other(detail: TerminalText.sanitize(String(describing: error), maxLength: 160))
        }
    }
}

/// What the kiosk knows about its route database.
public enum KioskDatabaseStatus: Sendable, Equatable {
    case loading
    /// Open and covering today.
    case ready(feedName: String, timeZone: String, serviceStart: String?, serviceEnd: String?)
    /// Open, but today is outside its service dates.
    case outOfService(feedName: String, timeZone: String, date: String, start: String, end: String)
    /// Missing or unusable; `detail` is for staff.
    case unavailable(detail: String)

    public var timeZoneIdentifier: String? {
        switch self {
        case let .ready(_, zone, _, _), let .outOfService(_, zone, _, _, _): return zone
        default: return nil
        }
    }
}

/// The camera as the passenger should know it.
public enum KioskCameraStatus: Sendable, Equatable {
    case starting
    case streaming
    /// Gone or failing; the kiosk keeps retrying on its own. `detail` is for staff.
    case unavailable(detail: String)
    /// No camera at all (a kiosk run with typing only).
    case none
}

/// A transient message over the current screen: what became of a scan that did not show a stop.
public struct KioskNotice: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The code is not a stop code (`text`: what it says, sanitised).
        case notAStopCode(text: String)
        /// A stop code this network does not have.
        case unknownStop(value: String)
        /// A label whose signature does not verify.
        case forged(claimed: String)
        /// An unsigned label where only signed ones are accepted.
        case signatureRequired(value: String)
        /// A lookup or plan that failed.
        case failure(KioskFailure)
    }

    public var kind: Kind
    public var expires: Date

    public init(kind: Kind, expires: Date) {
        self.kind = kind
        self.expires = expires
    }
}

/// Which stop a lookup or plan is about.
public enum KioskStopTarget: Sendable, Equatable {
    /// Already resolved (a scan, the home stop).
    case resolved(ResolvedStop)
    /// Picked from the live matches.
    case stopID(String)
    /// Typed and confirmed without a match: a code, an ID or a name, resolved as `kiosk plan` does.
    case typed(String)
}

/// The stop screen: loading, shown, or failed.
public struct KioskStopScreen: Sendable, Equatable {
    public var stop: ResolvedStop?
    public var board: KioskStopBoard?
    public var failure: KioskFailure?
    public var scroll = 0

    public init(stop: ResolvedStop?, board: KioskStopBoard? = nil, failure: KioskFailure? = nil) {
        self.stop = stop
        self.board = board
        self.failure = failure
    }
}

/// Typing a stop: a destination from an origin, or (on a kiosk without a home stop) the stop itself.
public struct KioskEntryScreen: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        case destination(from: KioskStopBoard)
        case origin
    }

    public var purpose: Purpose
    public var text: String
    public var matches: [StopInfo] = []
    public var selected = 0
    /// Where Escape goes back to.
    public var returnsToStop: Bool

    public static let maximumLength = 40

    public init(purpose: Purpose, text: String = "", returnsToStop: Bool) {
        self.purpose = purpose
        self.text = text
        self.returnsToStop = returnsToStop
    }
}

/// A journey plan being computed or shown.
public struct KioskPlanScreen: Sendable, Equatable {
    public var from: KioskStopBoard
    /// Where to, as chosen: planned again when the passenger asks for step-free journeys (F5).
    public var destination: KioskStopTarget
    /// What the passenger chose, for the heading while the plan is computed.
    public var destinationLabel: String
    /// Step-free journeys only (F5 toggles it).
    public var stepFree: Bool
    public var plan: JourneyPlan?
    public var failure: KioskFailure?
    public var scroll = 0

    public init(
        from: KioskStopBoard, destination: KioskStopTarget, destinationLabel: String, stepFree: Bool = false,
        plan: JourneyPlan? = nil, failure: KioskFailure? = nil
    ) {
        self.from = from
        self.destination = destination
        self.destinationLabel = destinationLabel
        self.stepFree = stepFree
        self.plan = plan
        self.failure = failure
    }
}

/// A route's line diagram from a stop board (F3): the board's routes one after the other.
public struct KioskDiagramScreen: Sendable, Equatable {
    public var from: KioskStopBoard
    /// Which of the board's routes (`from.view.routes`) is shown.
    public var routeIndex: Int
    public var diagram: RouteDiagram?
    public var failure: KioskFailure?
    public var scroll = 0
    /// Opened from the stop's route list (F4): Esc goes back to it, not to the board.
    public var fromRouteList = false

    public init(from: KioskStopBoard, routeIndex: Int, fromRouteList: Bool = false) {
        self.from = from
        self.routeIndex = routeIndex
        self.fromRouteList = fromRouteList
    }

    public var routeID: String { from.view.routes[routeIndex].route.id }
}

/// The routes of a stop board (F4), one to choose: Enter shows its stops (the line diagram), Esc the board.
public struct KioskRouteListScreen: Sendable, Equatable {
    public var from: KioskStopBoard
    /// Which of the board's routes (`from.view.routes`) is selected.
    public var selected: Int

    public init(from: KioskStopBoard, selected: Int = 0) {
        self.from = from
        self.selected = selected
    }
}

public enum KioskScreen: Sendable, Equatable {
    case idle
    case stop(KioskStopScreen)
    case entry(KioskEntryScreen)
    case plan(KioskPlanScreen)
    case diagram(KioskDiagramScreen)
    case routeList(KioskRouteListScreen)

    public var name: String {
        switch self {
        case .idle: return "idle"
        case .stop: return "stop"
        case .entry: return "entry"
        case .plan: return "plan"
        case .diagram: return "diagram"
        case .routeList: return "routes"
        }
    }
}

/// Something that happened: a key, a scan, time passing, or the answer to an effect.
public enum KioskEvent: Sendable, Equatable {
    case key(KioskKey)
    case scan(ScanOutcome)
    /// Time passed (at least once a second).
    case tick
    case camera(KioskCameraStatus)
    /// A new import replaced the database file: reload at the next idle moment.
    case databaseChanged
    /// A poll of the live feeds finished: the board on screen is rebuilt with the new data.
    case liveDataChanged
    /// The database was (re)opened, or its status changed (a new day outside the service dates).
    case databaseStatus(KioskDatabaseStatus)
    case homeLoaded(Result<KioskStopBoard, KioskFailureBox>)
    case stopLoaded(Result<KioskStopBoard, KioskFailureBox>)
    case matchesLoaded(query: String, matches: [StopInfo])
    case planLoaded(Result<JourneyPlan, KioskFailureBox>)
    /// The utterance the kiosk last started has ended (finished, interrupted or failed).
    case speechEnded
    case diagramLoaded(routeID: String, Result<RouteDiagram, KioskFailureBox>)
    /// The severe messages for this kiosk's stop or every kiosk, read again with the board (see `KioskTakeover`).
    case takeoverLoaded(KioskTakeover)
}

/// `KioskFailure` as an `Error`, so lookups can travel in a `Result`.
public struct KioskFailureBox: Error, Sendable, Equatable {
    public var failure: KioskFailure
    public init(_ failure: KioskFailure) { self.failure = failure }
}

/// Work the runtime does for the state machine; each answer comes back as an event.
public enum KioskEffect: Sendable, Equatable {
    /// The home stop's board → `.homeLoaded`.
    case loadHome
    /// A stop's board at the current time → `.stopLoaded`.
    case loadStop(KioskStopTarget)
    /// Live matches for typed text → `.matchesLoaded`.
    case search(String)
    /// A journey plan (step-free journeys only when asked) → `.planLoaded`.
    case plan(from: ResolvedStop, to: KioskStopTarget, stepFree: Bool)
    /// The line diagram of a route (by route_id) with the viewer's stop highlighted.
    case loadDiagram(routeID: String, stop: ResolvedStop)
    /// Reopen the database file (a new import) → `.databaseStatus`, then `.loadHome`.
    case reloadDatabase
    /// Stop what is being said and say this instead (off the main loop) → `.speechEnded` when it ends.
    case speak(KioskUtterance)
    /// Interrupt what is being said.
    case stopSpeaking
}

public struct KioskState: Sendable, Equatable {
    public var screen: KioskScreen = .idle
    public var language: Language
    public let defaultLanguage: Language
    /// The clock, dates and units of the process's passenger locale (`KioskConfig.passengerLocale`).
    public var conventions = PassengerLocale.standard
    /// The passenger locale in the screen's language.
    public var locale: PassengerLocale { conventions.speaking(language) }
    /// Seconds without a key or a scan after which the kiosk goes back to idle.
    public var idleTimeout: TimeInterval
    /// How long a notice stays up.
    public var noticeSeconds: TimeInterval = 6
    public var now: Date
    public var lastActivity: Date
    public var camera: KioskCameraStatus = .starting
    public var database: KioskDatabaseStatus = .loading
    /// The agency's time zone from the last database that opened: the clock keeps it when the database later
    /// becomes unusable (the kiosk's own zone may differ from the network's).
    public var lastKnownTimeZone: String?
    /// The home stop's board (nil: none configured, or not loaded yet).
    public var home: KioskStopBoard?
    public var homeFailure: KioskFailure?
    public let hasHomeStop: Bool
    public var notice: KioskNotice?
    /// A new database waits for the next idle moment.
    public var reloadPending = false
    /// Spoken output's keys and defaults (nil: speech off, the keys mean nothing special).
    public var speech: KioskSpeechControls? {
        didSet { speechVolume = speech?.volume ?? 100 }
    }
    /// Something is being said: the next key that is not a speech key interrupts it.
    public var speaking = false
    /// The volume the passenger chose with the volume keys (back to the default at idle).
    public var speechVolume = 100
    /// A scan asked for its stop (or plan) to be said once it arrives (`auto_speak`).
    var autoSpeakPending = false
    /// Severe messages for this kiosk's own stop or for every kiosk: they take over the idle screen and head
    /// every stop screen until they end.
    public var takeover = KioskTakeover()
    /// The takeover messages already said (`auto_speak` says each once).
    var spokenTakeover: Set<String> = []

    public init(language: Language, idleTimeout: TimeInterval, hasHomeStop: Bool, now: Date) {
        self.language = language
        self.defaultLanguage = language
        self.idleTimeout = idleTimeout
        self.hasHomeStop = hasHomeStop
        self.now = now
        self.lastActivity = now
    }

    public var isIdle: Bool { screen == .idle && notice == nil }

    /// Applies one event at instant `now` and returns the effects to run, in order.
    public mutating func handle(_ event: KioskEvent, now: Date) -> [KioskEffect] {
        let previousMinute = minute(of: self.now)
        self.now = now
        switch event {
        case .tick:
            return tick(minuteChanged: minute(of: now) != previousMinute)
        case .liveDataChanged:
            return refreshBoard()
        case let .key(key):
            lastActivity = now
            if let speechEffects = handleSpeechKey(key) { return speechEffects }
            if speaking {
                speaking = false
                return [.stopSpeaking] + handleKey(key)
            }
            return handleKey(key)
        case let .scan(outcome):
            lastActivity = now
            let wasSpeaking = speaking
            speaking = false
            let effects = handleScan(outcome)
            return wasSpeaking ? [.stopSpeaking] + effects : effects
        case .speechEnded:
            speaking = false
            return []
        case let .camera(status):
            camera = status
            return []
        case .databaseChanged:
            reloadPending = true
            return reloadIfIdle()
        case let .databaseStatus(status):
            database = status
            if let zone = status.timeZoneIdentifier { lastKnownTimeZone = zone }
            return [.loadHome]
        case let .homeLoaded(result):
            switch result {
            case let .success(board): home = board; homeFailure = nil
            case let .failure(box): home = nil; homeFailure = box.failure
            }
            return []
        case let .stopLoaded(result):
            guard case var .stop(screen) = screen else { return [] }
            switch result {
            case let .success(board):
                if let expected = screen.stop, expected.stop.id != board.stop.stop.id { return [] }
                screen.stop = board.stop
                screen.board = board
                screen.failure = nil
            case let .failure(box):
                screen.failure = box.failure
                screen.board = nil
            }
            self.screen = .stop(screen)
            return autoSpeak()
        case let .matchesLoaded(query, matches):
            guard case var .entry(entry) = screen, entry.text == query else { return [] }
            entry.matches = matches
            entry.selected = min(entry.selected, max(0, matches.count - 1))
            screen = .entry(entry)
            return []
        case let .planLoaded(result):
            guard case var .plan(planScreen) = screen else { return [] }
            switch result {
            case let .success(plan): planScreen.plan = plan; planScreen.failure = nil
            case let .failure(box): planScreen.failure = box.failure
            }
            screen = .plan(planScreen)
            return autoSpeak()
        case let .takeoverLoaded(takeover):
            self.takeover = takeover
            return speakTakeover()
        case let .diagramLoaded(routeID, result):
            guard case var .diagram(diagramScreen) = screen, diagramScreen.routeID == routeID else { return [] }
            switch result {
            case let .success(diagram): diagramScreen.diagram = diagram; diagramScreen.failure = nil
            case let .failure(box): diagramScreen.diagram = nil; diagramScreen.failure = box.failure
            }
            screen = .diagram(diagramScreen)
            return []
        }
    }

    private func minute(of date: Date) -> Int { Int(date.timeIntervalSince1970 / 60) }

    private mutating func tick(minuteChanged: Bool) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if let notice, notice.expires <= now { self.notice = nil }
        if screen != .idle || notice != nil, now.timeIntervalSince(lastActivity) >= idleTimeout {
            let silence: [KioskEffect] = speaking ? [.stopSpeaking] : []
            goIdle()
            if reloadPending { return silence + reloadIfIdle() }
            return silence + [.loadHome]
        }
        if screen == .idle, reloadPending {
            effects += reloadIfIdle()
            if !effects.isEmpty { return effects }
        }
        if minuteChanged { effects += refreshBoard() }
        return effects
    }

    /// The board on screen (idle or a stop), loaded again.
    private func refreshBoard() -> [KioskEffect] {
        switch screen {
        case .idle: return [.loadHome]
        case let .stop(stop):
            if let resolved = stop.stop { return [.loadStop(.resolved(resolved))] }
            return []
        case .entry, .plan, .diagram, .routeList: return []
        }
    }

    private mutating func goIdle() {
        screen = .idle
        notice = nil
        language = defaultLanguage
        speaking = false
        autoSpeakPending = false
        speechVolume = speech?.volume ?? 100
    }

    private mutating func reloadIfIdle() -> [KioskEffect] {
        guard reloadPending, isIdle else { return [] }
        reloadPending = false
        return [.reloadDatabase]
    }

    private mutating func showNotice(_ kind: KioskNotice.Kind) {
        notice = KioskNotice(kind: kind, expires: now.addingTimeInterval(noticeSeconds))
    }

    // MARK: Keys

    private mutating func handleKey(_ key: KioskKey) -> [KioskEffect] {
        if key == .tab || key == .function(2) {
            language = language.other
            return refreshBoard()  // service alerts come in the passenger's language
        }
        if notice != nil {
            notice = nil
            if key == .escape || key == .enter { return [] }
        }
        switch screen {
        case .idle:
            return startEntry(with: key, from: home, returnsToStop: false)
        case let .stop(stop):
            switch key {
            case .escape:
                screen = .idle
                return [.loadHome]
            case .up:
                var s = stop; s.scroll = max(0, s.scroll - 1); screen = .stop(s); return []
            case .down:
                var s = stop; s.scroll += 1; screen = .stop(s); return []
            case .function(3):
                guard let board = stop.board, !board.view.routes.isEmpty else { return [] }
                return showDiagram(KioskDiagramScreen(from: board, routeIndex: 0))
            case .function(4):
                guard let board = stop.board, !board.view.routes.isEmpty else { return [] }
                screen = .routeList(KioskRouteListScreen(from: board))
                return []
            default:
                return startEntry(with: key, from: stop.board, returnsToStop: true)
            }
        case let .diagram(diagram):
            switch key {
            case .escape:
                if diagram.fromRouteList {
                    screen = .routeList(KioskRouteListScreen(from: diagram.from, selected: diagram.routeIndex))
                    return []
                }
                screen = .stop(KioskStopScreen(stop: diagram.from.stop, board: diagram.from))
                return [.loadStop(.resolved(diagram.from.stop))]
            case .function(3), .right, .left:
                let count = diagram.from.view.routes.count
                let step = key == .left ? count - 1 : 1
                return showDiagram(
                    KioskDiagramScreen(
                        from: diagram.from, routeIndex: (diagram.routeIndex + step) % count,
                        fromRouteList: diagram.fromRouteList))
            case .up, .pageUp, .down, .pageDown, .home:
                var d = diagram
                switch key {
                case .up: d.scroll = max(0, d.scroll - 1)
                case .pageUp: d.scroll = max(0, d.scroll - 10)
                case .down: d.scroll += 1
                case .pageDown: d.scroll += 10
                default: d.scroll = 0
                }
                screen = .diagram(d)
                return []
            default:
                return startEntry(with: key, from: diagram.from, returnsToStop: true)
            }
        case let .routeList(list):
            let count = list.from.view.routes.count
            switch key {
            case .escape:
                screen = .stop(KioskStopScreen(stop: list.from.stop, board: list.from))
                return [.loadStop(.resolved(list.from.stop))]
            case .up, .down, .pageUp, .pageDown, .home:
                var l = list
                switch key {
                case .up: l.selected = max(0, l.selected - 1)
                case .down: l.selected = min(count - 1, l.selected + 1)
                case .pageUp: l.selected = max(0, l.selected - 10)
                case .pageDown: l.selected = min(count - 1, l.selected + 10)
                default: l.selected = 0
                }
                screen = .routeList(l)
                return []
            case .enter, .right:
                guard count > 0 else { return [] }
                return showDiagram(
                    KioskDiagramScreen(from: list.from, routeIndex: min(list.selected, count - 1), fromRouteList: true))
            default:
                return startEntry(with: key, from: list.from, returnsToStop: true)
            }
        case let .entry(entry):
            return handleEntryKey(key, entry)
        case let .plan(plan):
            switch key {
            case .escape:
                screen = .stop(KioskStopScreen(stop: plan.from.stop, board: plan.from))
                return [.loadStop(.resolved(plan.from.stop))]
            case .up, .pageUp, .down, .pageDown, .home:
                var p = plan
                switch key {
                case .up: p.scroll = max(0, p.scroll - 1)
                case .pageUp: p.scroll = max(0, p.scroll - 10)
                case .down: p.scroll += 1
                case .pageDown: p.scroll += 10
                default: p.scroll = 0
                }
                screen = .plan(p)
                return []
            case .function(5):
                let again = KioskPlanScreen(
                    from: plan.from, destination: plan.destination, destinationLabel: plan.destinationLabel,
                    stepFree: !plan.stepFree)
                screen = .plan(again)
                return [.plan(from: plan.from.stop, to: plan.destination, stepFree: again.stepFree)]
            default:
                return startEntry(with: key, from: plan.from, returnsToStop: true)
            }
        }
    }

    private mutating func showDiagram(_ diagram: KioskDiagramScreen) -> [KioskEffect] {
        screen = .diagram(diagram)
        return [.loadDiagram(routeID: diagram.routeID, stop: diagram.from.stop)]
    }

    /// Typing on a board starts destination entry from it (or stop entry on a kiosk without a home stop).
    private mutating func startEntry(
        with key: KioskKey, from board: KioskStopBoard?, returnsToStop: Bool
    ) -> [KioskEffect] {
        let initial: String
        switch key {
        case let .character(c) where !c.isWhitespace: initial = String(c)
        case .enter, .down: initial = ""
        default: return []
        }
        guard database.timeZoneIdentifier != nil else { return [] }  // nothing to search without a timetable
        let purpose: KioskEntryScreen.Purpose = board.map { .destination(from: $0) } ?? .origin
        screen = .entry(KioskEntryScreen(purpose: purpose, text: initial, returnsToStop: returnsToStop && board != nil))
        return initial.isEmpty ? [] : [.search(initial)]
    }

    private mutating func handleEntryKey(_ key: KioskKey, _ entry: KioskEntryScreen) -> [KioskEffect] {
        var entry = entry
        switch key {
        case let .character(c):
            guard entry.text.count < KioskEntryScreen.maximumLength else { return [] }
            if c.isWhitespace && (entry.text.isEmpty || entry.text.last == " ") { return [] }
            entry.text.append(c)
            entry.selected = 0
            screen = .entry(entry)
            return [.search(entry.text)]
        case .backspace:
            guard !entry.text.isEmpty else { return [] }
            entry.text.removeLast()
            entry.selected = 0
            if entry.text.isEmpty { entry.matches = [] }
            screen = .entry(entry)
            return entry.text.isEmpty ? [] : [.search(entry.text)]
        case .up:
            entry.selected = max(0, entry.selected - 1)
            screen = .entry(entry)
            return []
        case .down:
            entry.selected = min(max(0, entry.matches.count - 1), entry.selected + 1)
            screen = .entry(entry)
            return []
        case .escape:
            if entry.returnsToStop, case let .destination(from) = entry.purpose {
                screen = .stop(KioskStopScreen(stop: from.stop, board: from))
                return [.loadStop(.resolved(from.stop))]
            }
            screen = .idle
            return [.loadHome]
        case .enter:
            let trimmed = entry.text.trimmingCharacters(in: .whitespaces)
            let target: KioskStopTarget
            let label: String
            if entry.matches.indices.contains(entry.selected) {
                let stop = entry.matches[entry.selected]
                target = .stopID(stop.id)
                label = stop.name
            } else if !trimmed.isEmpty {
                target = .typed(trimmed)
                label = trimmed
            } else {
                return []
            }
            switch entry.purpose {
            case let .destination(from):
                screen = .plan(
                    KioskPlanScreen(
                        from: from, destination: target, destinationLabel: TerminalText.sanitize(label, maxLength: 60)))
                return [.plan(from: from.stop, to: target, stepFree: false)]
            case .origin:
                screen = .stop(KioskStopScreen(stop: nil))
                return [.loadStop(target)]
            }
        default:
            return []
        }
    }

    // MARK: Scans

    private mutating func handleScan(_ outcome: ScanOutcome) -> [KioskEffect] {
        switch outcome.status {
        case .stop:
            guard let stop = outcome.stop else { return [] }
            notice = nil
            autoSpeakPending = speech?.autoSpeak == true
            if case let .entry(entry) = screen, case let .destination(from) = entry.purpose,
                from.stop.stop.id != stop.stop.id
            {
                screen = .plan(
                    KioskPlanScreen(
                        from: from, destination: .resolved(stop),
                        destinationLabel: TerminalText.sanitize(stop.stop.name, maxLength: 60)))
                return [.plan(from: from.stop, to: .resolved(stop), stepFree: false)]
            }
            screen = .stop(KioskStopScreen(stop: stop))
            return [.loadStop(.resolved(stop))]
        case .notAStopCode:
            showNotice(.notAStopCode(text: TerminalText.sanitize(outcome.text, maxLength: 60)))
        case .unknownStop:
            showNotice(
                .unknownStop(value: TerminalText.sanitize(outcome.reference?.value ?? outcome.text, maxLength: 40)))
        case .forged:
            showNotice(.forged(claimed: TerminalText.sanitize(outcome.reference?.value ?? "", maxLength: 40)))
        case .signatureRequired:
            showNotice(.signatureRequired(value: TerminalText.sanitize(outcome.reference?.value ?? "", maxLength: 40)))
        }
        return []
    }
}
