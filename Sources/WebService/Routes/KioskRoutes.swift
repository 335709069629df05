import Foundation
import Hummingbird
import KioskConfiguration
import NIOCore
import Realtime
import ServiceLifecycle
import Speech
import StopPresentation
import Synchronization
import KioskCore
import TransitModel
import TransitStore

/// `/kiosk`: the kiosk in a browser (a touchscreen or a TV in Chromium's kiosk mode). The page shows the home
/// stop's board; `/kiosk/events` pushes each scan of the server's scan service over Server-Sent Events, the page
/// then shows that stop (fetched as a server-rendered fragment from `/kiosk/board`) and returns home after the
/// configured idle time. When the server or its data is unreachable the page says so and reconnects by itself.
/// A severe message for the kiosk's own stop or every kiosk heads the board; with `auto_speak` the page says it
/// once (`/kiosk/takeover/speech`), as `kiosk run` does.
struct KioskRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.resource("/kiosk") { request, _ in
            let lang = LanguageChoice.pick(request: request, config: service.config)
            let database = service.databases.current()
            // `?home=STOP`: this screen's own stop (several screens on one server), else the config's `home_stop`.
            let asked = try QueryParameters(request)["home"].flatMap { $0.isEmpty ? nil : $0 }
            let resolve = { (value: String) in
                try? database.resolveStop(.idOrCode(RouteDatabase.validateQuery(value))).stop.id
            }
            let home = asked.flatMap(resolve) ?? service.config.homeStop.flatMap(resolve) ?? ""
            let model = KioskPage(
                page: PageRenderer.Frame(
                    language: lang, title: "StopKiosk", path: "/kiosk",
                    query: asked.map { [("home", $0)] } ?? [], feedTag: String(database.feedHash.prefix(12))),
                home: home, homeQuery: PageRenderer.Frame.encode(home), idleSeconds: service.config.idleTimeoutSeconds,
                loading: Message.loadingStop.text(lang), hint: Message.holdCodePrompt.text(lang),
                planLabel: Message.webPlanTitle.text(lang),
                unavailable: Message.webInformationUnavailable.text(lang),
                reconnecting: Message.webReconnecting.text(lang),
                speech: KioskPage.Speech(service.config.speech, language: lang), planner: KioskPage.Planner(lang))
            var response = Responses.html(service.pages.render(model, "kiosk"), cacheSeconds: nil)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.resource("/kiosk.js") { _, _ in
            Responses.body(KioskScript.javascript, contentType: "text/javascript; charset=utf-8", cacheSeconds: 300)
        }
        // The board renders a stop view: on the blocking pool, as the stop page does.
        router.blockingResource("/kiosk/board", on: service.blocking) { request, _ in try board(request) }
        router.resource("/kiosk/events") { _, context in try events(from: context.remoteAddress) }
        // The on-screen trip planner: stops by the letters typed on its keyboard, then the plan to the one chosen.
        router.blockingResource("/kiosk/stops", on: service.blocking) { request, _ in try stops(request) }
        router.blockingResource("/kiosk/plan", on: service.blocking) { request, _ in try plan(request) }
        router.resource("/kiosk/takeover/speech") { request, _ in try await takeoverSpeech(request) }
    }

    struct KioskPage {
        var page: PageRenderer.Frame
        var home: String
        /// `home` percent-encoded for a query string.
        var homeQuery: String
        var idleSeconds: Int
        var loading: String
        var hint: String
        var planLabel: String
        var unavailable: String
        var reconnecting: String
        var speech: Speech
        var planner: Planner

        /// The words of the on-screen trip planner: a destination chosen with the keys on the screen, no keyboard.
        struct Planner {
            var whereTo: String
            var typeStopName: String
            var chooseStop: String
            var delete: String
            var space: String
            var close: String
            var back: String
            var previousOption: String
            var nextOption: String
            /// "From {stop}" (the page fills in the stop's name).
            var fromWords: String
            var keys: [String]

            init(_ lang: Language) {
                whereTo = BoardMessage.whereTo.text(lang)
                typeStopName = BoardMessage.typeStopName.text(lang)
                chooseStop = BoardMessage.chooseStop.text(lang)
                delete = BoardMessage.delete.text(lang)
                space = BoardMessage.space.text(lang)
                close = BoardMessage.close.text(lang)
                back = BoardMessage.back.text(lang)
                previousOption = BoardMessage.previousOption.text(lang)
                nextOption = BoardMessage.nextOption.text(lang)
                fromWords = BoardMessage.from("{stop}").text(lang)
                keys = "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ1234567890".map(String.init)
            }
        }

        /// The `[speech]` settings the page's script follows: its button and keys say the board
        /// (`/api/v1/stops/{id}/speech`) — again repeats, any other key interrupts — and two keys set the volume.
        struct Speech {
            var enabled: Bool
            var autoSpeak: Bool
            /// "start-end" in local minutes of the day (no auto-speak, volume capped), or empty.
            var quietHours: String
            /// The most the volume may be during quiet hours, in percent of the configured volume.
            var quietVolumePercent: Int
            var speakKey: String
            var moreKey: String
            var volumeDownKey: String
            var volumeUpKey: String
            /// Volume change per key press, as a fraction of full volume in percent.
            var volumeStep: Int
            var speakLabel: String
            var volumeDownLabel: String
            var volumeUpLabel: String

            init(_ settings: SpeechSettings, language: Language) {
                enabled = settings.enabled
                autoSpeak = settings.autoSpeak
                quietHours = settings.quietHours.map { "\($0.start)-\($0.end)" } ?? ""
                quietVolumePercent = min(100, settings.quietVolume * 100 / max(1, settings.volume))
                speakKey = "F\(settings.speakKey)"
                moreKey = "F\(settings.moreKey)"
                volumeDownKey = "F\(settings.volumeDownKey)"
                volumeUpKey = "F\(settings.volumeUpKey)"
                volumeStep = settings.volumeStep
                speakLabel = Message.webSpeak.text(language)
                volumeDownLabel = Message.webVolumeDown.text(language)
                volumeUpLabel = Message.webVolumeUp.text(language)
            }
        }
    }

    /// Severe messages over the board: those for the stop on screen, the kiosk's own stop (`home_stop`) or every
    /// kiosk, in force now, in the board's language. The page reloads the board every 30 s, so a message shows
    /// and ends (at its `until`) without a restart.
    struct Takeover {
        struct Item {
            var header: String
            var description: String?
            var until: String?
            /// For a message of the kiosk's own takeover (its home stop or every kiosk): what names it to
            /// `/kiosk/takeover/speech` (`KioskTakeover.spokenDigest`); the page says it once with `auto_speak`.
            var say: String?
        }
        var heading: String
        var count: Int
        var messages: [Item]
    }

    /// The takeover band's HTML ("" when there is nothing to show) and the ids of the messages it shows (the board
    /// does not show them again among its alerts).
    func takeover(
        stop: ResolvedStop?, database: RouteDatabase, language lang: Language
    ) -> (html: String, ids: Set<String>) {
        guard let live = service.live?.live else { return ("", []) }
        var stops: Set<String> = stop.map(AlertIndex.Scope.stopIDs(of:)) ?? []
        if let home = service.config.homeStop,
            let resolved = try? database.resolveStop(.idOrCode(RouteDatabase.validateQuery(home)))
        {
            stops.formUnion(AlertIndex.Scope.stopIDs(of: resolved))
        }
        let now = service.now()
        let alerts = live.screenTakeover(stops: stops, now: now, language: lang.rawValue)
        guard !alerts.isEmpty else { return ("", []) }
        let zone = database.timeZone
        let own = ownTakeover(database: database, now: now)
        let items = alerts.map { alert in
            Takeover.Item(
                header: FeedText.shown(alert.header, limit: 600),
                description: alert.description.map { FeedText.shown($0, limit: 600) },
                until: alert.activeUntil.map { end in
                    let sameDay = LocalTime.dayDifference(from: now, to: end, in: zone) == 0
                    let day = sameDay ? "" : String(LocalTime.iso8601(end, in: zone).prefix(10)) + " "
                    return BoardMessage.until(day: day, clock: LocalTime.clock(end, in: zone)).text(lang)
                },
                say: own.alerts(lang).contains { $0.id == alert.id } ? own.spokenDigest(alert) : nil)
        }
        let html = service.pages.render(
            Takeover(heading: BoardMessage.importantNotice.text(lang), count: items.count, messages: items),
            "takeover")
        return (html, Set(alerts.map(\.id)))
    }

    /// The kiosk's own takeover at `now`: the severe messages for its home stop (none without one) or for every
    /// kiosk, in both languages — what `kiosk run` shows on its idle screen and says once with `auto_speak`.
    func ownTakeover(database: RouteDatabase, now: Date) -> KioskTakeover {
        guard let live = service.live?.live else { return KioskTakeover() }
        var stops: Set<String> = []
        if let home = service.config.homeStop,
            let resolved = try? database.resolveStop(.idOrCode(RouteDatabase.validateQuery(home)))
        {
            stops = AlertIndex.Scope.stopIDs(of: resolved)
        }
        return KioskTakeover(
            spanish: live.screenTakeover(stops: stops, now: now, language: Language.es.rawValue),
            english: live.screenTakeover(stops: stops, now: now, language: Language.en.rawValue))
    }

    /// What `/kiosk/takeover/speech` says: the messages of the kiosk's own takeover in force now that `say` names
    /// (`KioskTakeover.spokenDigest`, comma-separated), in `lang`, as `kiosk run` says them; nil when none of them
    /// is in force (ended at its `until`, removed, or changed since the page was drawn).
    func takeoverText(say: [String], language lang: Language) -> String? {
        let own = ownTakeover(database: service.databases.current(), now: service.now())
        let wanted = Set(say)
        let alerts = own.alerts(lang).filter { wanted.contains(own.spokenDigest($0)) }
        return alerts.isEmpty ? nil : KioskTakeover.spokenText(alerts)
    }

    /// `GET /kiosk/takeover/speech?say=DIGEST[,DIGEST…]&lang=`: the named messages of the kiosk's own takeover as
    /// a 16-bit mono WAV, through the same synthesis queue and `[speech]` rate and volume as
    /// `/api/v1/stops/{id}/speech`; 404 once they are no longer in force, so a page never says an ended message.
    func takeoverSpeech(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let value = try query.require("say", example: "say=0123456789abcdef")
        let say = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard say.count <= 20,
            say.allSatisfy({ $0.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        else {
            throw Problem.badRequest(
                "say must be up to 20 comma-separated message digests of 16 lowercase hex digits "
                    + "(got '\(String(value.prefix(40)))')")
        }
        let text = try await service.blocking.run { [self] in takeoverText(say: say, language: lang) }
        guard let text else {
            throw Problem.notFound(
                "no severe message for this kiosk with that digest is in force now (it ended or was removed)")
        }
        let settings = VoiceSettings(
            language: lang, rate: service.config.speech.rate, volume: service.config.speech.volume)
        let wav: Data
        do {
            wav = try await service.speech.wav(for: text, settings: settings)
        } catch let error as SpeechError {
            throw Problem(
                status: .serviceUnavailable, title: "Speech unavailable", detail: error.description, retryAfter: 60)
        }
        var response = Responses.body(ByteBuffer(bytes: wav), contentType: "audio/wav", cacheSeconds: nil)
        response.headers[.contentLanguage] = lang.rawValue
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The board fragment for a stop (`KioskBoard`), or the scan prompt without one; severe messages (`takeover`)
    /// first, and not again among the board's alerts.
    func board(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        var response: Response
        if let stopID = query["stop"], !stopID.isEmpty {
            do {
                let stop = try database.resolveStop(.idOrCode(try RouteDatabase.validateQuery(stopID)))
                let band = takeover(stop: stop, database: database, language: lang)
                let model = try boardModel(database: database, stop: stop, language: lang, hidden: band.ids)
                response = Responses.html(band.html + service.pages.render(model, "board"), cacheSeconds: nil)
            } catch let error as LookupError {
                throw Problem.from(error, atGiven: false)
            }
        } else {
            let prompt = service.pages.render(
                KioskBoard.Prompt(
                    heading: Message.holdCodePrompt.text(lang), detail: Message.holdCodeDetail.text(lang),
                    clock: KioskBoard.ClockFace(
                        service.now(), zone: database.timeZone, locale: service.config.passengerLocale.speaking(lang))),
                "prompt")
            response = Responses.html(
                takeover(stop: nil, database: database, language: lang).html + prompt, cacheSeconds: nil)
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The board of `stop` now. Outside the feed's calendar the board still shows the stop, with the notice in
    /// place of the departures (as the phone page does).
    func boardModel(
        database: RouteDatabase, stop: ResolvedStop, language lang: Language, hidden: Set<String>
    ) throws -> KioskBoard {
        let now = service.now()
        do {
            let view = try service.stopView(
                database, for: stop, at: now, window: service.config.windowMinutes,
                nearby: 0, language: lang)
            return KioskBoard(
                view, language: lang, conventions: service.config.passengerLocale, hidden: hidden, serviceNotice: nil)
        } catch LookupError.outsideServiceRange(let date, let start, let end) {
            let (view, notice) = try PageRoutes.outOfServiceView(
                database, stop: stop, at: now, date: date, start: start, end: end,
                window: service.config.windowMinutes, nearby: 0, language: lang)
            return KioskBoard(
                view, language: lang, conventions: service.config.passengerLocale, hidden: hidden,
                serviceNotice: notice)
        } catch let error as LookupError {
            throw Problem.from(error)
        }
    }

    struct StopChoices {
        struct Stop {
            var id: String
            /// The name and code ("Cumandá · 2004"), one text, so the button's label is one line.
            var label: String
        }
        var stops: [Stop]
        var has_stops: Bool
        var typed: Bool
        var noMatches: String
    }

    /// `GET /kiosk/stops?q=TEXT&from=STOP`: up to 8 stops whose name or code matches what was typed on the planner's
    /// keys, as buttons (the stop the planner starts from left out).
    func stops(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        var found: [StopSearch.Found] = []
        if !text.isEmpty {
            do {
                found = try StopSearch.find(text, in: database, limit: 9)
            } catch let error as LookupError {
                if case .invalidQuery = error { found = [] } else { throw Problem.from(error) }
            }
        }
        let from = query["from"] ?? ""
        let choices = StopChoices(
            stops: found.filter { $0.stop.id != from }.prefix(8).map {
                StopChoices.Stop(
                    id: $0.stop.id,
                    label: FeedText.shown($0.stop.name, limit: 60)
                        + ($0.stop.code.map { " · " + FeedText.shown($0, limit: 20) } ?? ""))
            },
            has_stops: false, typed: !text.isEmpty, noMatches: BoardMessage.noStopMatches.text(lang))
        var model = choices
        model.has_stops = !choices.stops.isEmpty
        var response = Responses.html(service.pages.render(model, "kioskStops"), cacheSeconds: nil)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `GET /kiosk/plan?from=STOP&to=STOP`: the journeys from the stop on screen to the one chosen, leaving now, as
    /// the phone's plan page finds them (without maps: one option at a time fits the screen).
    func plan(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = LanguageChoice.pick(request: request, config: service.config)
        let database = service.databases.current()
        let from = try query.require("from", example: "from=1091")
        let to = try query.require("to", example: "to=2010")
        let model: KioskPlan
        do {
            let now = service.now()
            let plan = try JourneyPlanning.plan(
                from: from, to: to, at: now, maxTransfers: service.config.maxTransfers, database: database,
                config: service.config, live: service.live?.live, now: now)
            model = KioskPlan(plan, language: lang, conventions: service.config.passengerLocale)
        } catch let error as LookupError {
            switch error {
            case .noSuchStop(let query, _): model = KioskPlan(problem: Message.noSuchStop(query).text(lang))
            case .outsideServiceRange(_, let start, let end):
                model = KioskPlan(
                    problem: Message.outOfService(start: start.description, end: end.description).text(lang))
            default: model = KioskPlan(problem: error.description)
            }
        } catch let error as Problem {
            model = KioskPlan(problem: error.detail)
        }
        var response = Responses.html(service.pages.render(model, "kioskPlan"), cacheSeconds: nil)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `text/event-stream`: `event: scan` with the scan as JSON, a comment every 15 s so that both ends notice a
    /// dead connection, `retry: 2000` so the browser reconnects within two seconds. Ends on graceful shutdown.
    /// At most `max_event_streams` streams in all and `max_event_streams_per_address` from one client address
    /// (`[server]`): a stream is never closed for being idle, so without a cap idle listeners could hold every
    /// connection. One more is answered 503 with `Retry-After`.
    func events(from address: String?) throws -> Response {
        let scans = service.scans
        let settings = service.config.server
        guard
            let ticket = scans.admit(
                address: address ?? "", total: settings.maxEventStreams,
                perAddress: settings.maxEventStreamsPerAddress)
        else {
            throw Problem(
                status: .serviceUnavailable, title: "Too many event streams",
                detail:
                    "this server already sends live scans to \(settings.maxEventStreams) listeners in all or \(settings.maxEventStreamsPerAddress) from this address; close one or try again later",
                retryAfter: 30)
        }
        var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8"]
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // The ticket lives as long as this body: released when the stream ends, or when an answer that is
                // never sent (HEAD) is dropped.
                let (id, stream) = withExtendedLifetime(ticket) { scans.subscribe() }
                try await withGracefulShutdownHandler {
                    try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                    for await event in stream {
                        try await writer.write(ByteBuffer(string: event))
                    }
                } onGracefulShutdown: {
                    scans.unsubscribe(id)
                }
                scans.unsubscribe(id)
                try await writer.finish(nil)
                withExtendedLifetime(ticket) {}
            })
    }
}

/// Hands scans from the server's scan service to every `/kiosk` page listening (one `AsyncStream` each).
public final class ScanBroadcaster: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<String>.Continuation]>([:])
    private let heartbeat: Duration

    init(heartbeat: Duration = .seconds(15)) { self.heartbeat = heartbeat }

    var count: Int { subscribers.withLock { $0.count } }

    /// Event streams admitted and not yet ended, in all and by client address.
    private let admission = Admission()

    /// A place for one more event stream from `address`, or nil when `total` streams are open or `perAddress`
    /// from that address. The place is held until the ticket is released.
    func admit(address: String, total: Int, perAddress: Int) -> Ticket? {
        let admission = self.admission
        guard admission.take(address: address, total: total, perAddress: perAddress) else { return nil }
        return Ticket { admission.give(address: address) }
    }

    /// Event streams open now (admitted and not yet released).
    var admittedCount: Int { admission.counts.withLock { $0.total } }

    final class Admission: Sendable {
        let counts = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

        func take(address: String, total: Int, perAddress: Int) -> Bool {
            counts.withLock { state in
                let fromAddress = state.byAddress[address, default: 0]
                guard state.total < total, fromAddress < perAddress else { return false }
                state.total += 1
                state.byAddress[address] = fromAddress + 1
                return true
            }
        }

        func give(address: String) {
            counts.withLock { state in
                state.total -= 1
                let left = state.byAddress[address, default: 1] - 1
                state.byAddress[address] = left > 0 ? left : nil
            }
        }
    }

    /// Holds one admitted event stream's place; gives it back when released (deinitialised).
    final class Ticket: Sendable {
        private let release: @Sendable () -> Void
        init(release: @escaping @Sendable () -> Void) { self.release = release }
        deinit { release() }
    }

    func subscribe() -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let interval = heartbeat
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield(": ping\n\n")
            }
        }
        continuation.onTermination = { _ in beat.cancel() }
        subscribers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    /// Sends one event (`event: NAME`, one `data:` line of JSON) to every listener.
    public func publish(event name: String, json: String) {
        let text = "event: \(name)\ndata: \(json.replacingOccurrences(of: "\n", with: " "))\n\n"
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(text) }
    }
}
