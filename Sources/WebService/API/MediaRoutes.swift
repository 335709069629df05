import Foundation
import Hummingbird
import KioskConfiguration
import NIOCore
import Speech
import StopPresentation
import Synchronization
import TransitModel
import TransitStore

/// What the pages embed beside their text, under `/api/v1/`: the spoken stop view (WAV, espeak-ng) and the
/// pictures (SVG): a stop's map, a route's line diagram, a plan option's journey map. Each is made per request from
/// the same values as the text it goes with (the CLI's `--speak-to`, `kiosk map`, `kiosk diagram` and
/// `kiosk plan --map` make the same bytes), and carries an `ETag` and `Cache-Control` like the stop view.
struct MediaRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.resource("/api/v1/stops/{id}/speech") { request, context in try await speech(request, context) }
        router.blockingResource("/api/v1/stops/{id}/map.svg", on: service.blocking) { request, context in
            try stopMap(request, context)
        }
        router.blockingResource("/api/v1/routes/{id}/diagram.svg", on: service.blocking) { request, context in
            try routeDiagram(request, context)
        }
        router.resource("/api/v1/plan/map.svg") { request, _ in
            try await service.plans.run { try journeyMap(request) }
        }
    }

    /// `GET /api/v1/stops/{id}/speech?lang=&at=&window=&detail=short|full`: the stop view as the kiosk says it
    /// (`StopViewSpeech`), at the config's `[speech]` rate and volume, as a 16-bit mono WAV.
    func speech(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let window = try query.int("window", in: 1...1440) ?? service.config.windowMinutes
        let detail =
            try query["detail"].map { text in
                guard let detail = SpeechDetail(rawValue: text) else {
                    throw Problem.badRequest("detail must be 'short' or 'full' (got '\(String(text.prefix(20)))')")
                }
                return detail
            } ?? .short
        let database = service.databases.current()
        let at = try query.instant(in: database.timeZone, now: service.now())
        let stopValue = context.parameters.get("id") ?? ""
        // The stop view on the blocking pool; the synthesis on the speech queue.
        let text = try await service.blocking.run { [service] in
            do {
                let stop = try service.pathStop(stopValue, in: database)
                let view = try service.stopView(
                    database, for: stop, at: at.date, window: window, nearby: service.config.nearbyRadiusMeters,
                    language: lang)
                return StopViewSpeech.text(view, language: lang, detail: detail)
            } catch let error as LookupError {
                throw Problem.from(error, atGiven: at.given)
            }
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
        var response = Responses.body(
            ByteBuffer(bytes: wav), contentType: "audio/wav", cacheSeconds: service.config.server.cacheSeconds)
        response.headers[.contentLanguage] = lang.rawValue
        return response
    }

    /// `GET /api/v1/stops/{id}/map.svg?lang=&radius=&legend=full|none`: the stop map `kiosk map` draws; with
    /// `legend=none` without the text list under it (the pages show that list as text).
    func stopMap(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let radius = try query.int("radius", in: 50...5000) ?? max(50, service.config.nearbyRadiusMeters)
        let database = service.databases.current()
        do {
            let stop = try service.pathStop(context, in: database)
            let map = try database.stopMap(for: stop, radiusMeters: radius)
            return svg(
                stopMapSVG(
                    for: map, language: lang, legend: try Self.legend(query),
                    conventions: service.config.passengerLocale))
        } catch let error as LookupError {
            throw Problem.from(error)
        }
    }

    /// `GET /api/v1/routes/{id}/diagram.svg?direction=0|1&stop=&lang=`: one direction of a route as a strip map,
    /// `stop` highlighted (`kiosk diagram`). The route is a route_id, or a short name only one route has.
    func routeDiagram(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let direction = try query.int("direction", in: 0...1)
        guard let route = QueryParameters.percentDecode(context.parameters.get("id") ?? "") else {
            throw Problem.badRequest("the route in the path has a malformed percent-encoding")
        }
        let database = service.databases.current()
        do {
            let viewer = try query["stop"].map { try database.resolveStop(.idOrCode(RouteDatabase.validateQuery($0))) }
            let diagram = try database.routeDiagram(
                route: try RouteDatabase.validateQuery(route), direction: direction, viewer: viewer)
            return svg(routeDiagramSVG(for: diagram, language: lang))
        } catch let error as LookupError {
            throw Problem.from(error)
        } catch let error as LabelSelectionError {
            throw Problem.notFound(error.description)
        }
    }

    /// `GET /api/v1/plan/map.svg?from=&to=&at=&arrive_by=&wheelchair=&max_transfers=&option=&lang=&legend=full|none`:
    /// option N (from 1)
    /// of the plan `/api/v1/plan` answers for the same query, drawn as `kiosk plan --map` draws it; with
    /// `legend=none` without the numbered list under it (the plan page shows that list as text).
    func journeyMap(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let from = try query.require("from", example: "from=1091")
        let to = try query.require("to", example: "to=1011")
        let maxTransfers = try query.int("max_transfers", in: 0...8) ?? service.config.maxTransfers
        let option = try query.int("option", in: 1...20) ?? 1
        let database = service.databases.current()
        let at = try query.instant(in: database.timeZone, now: service.now())
        let (options, earliest) = try query.planOptions(in: database.timeZone, at: at, now: service.now())
        do {
            // The plan `/api/v1/plan` answers for the same query: arrive-by, step-free and live times included.
            let plan = try JourneyPlanning.plan(
                from: from, to: to, at: earliest, maxTransfers: maxTransfers, database: database,
                config: service.config,
                options: options, live: service.live?.live, now: service.now())
            guard option <= plan.options.count else {
                throw Problem.notFound(
                    plan.options.isEmpty
                        ? "no journey from '\(plan.from.name)' to '\(plan.to.name)' at that time: nothing to draw"
                        : "the plan has \(plan.options.count) option(s); option \(option) does not exist")
            }
            return svg(
                journeyMapSVG(
                    for: try database.journeyMap(plan, option: option - 1), language: lang,
                    legend: try Self.legend(query), conventions: service.config.passengerLocale))
        } catch let error as LookupError {
            throw Problem.from(error, atGiven: at.given)
        }
    }

    /// `legend=full` (the default) draws the text list under a map, `legend=none` leaves it to the page.
    static func legend(_ query: QueryParameters) throws -> Bool {
        switch query["legend"] {
        case nil, "full": return true
        case "none": return false
        case let other?: throw Problem.badRequest("legend must be 'full' or 'none' (got '\(String(other.prefix(20)))')")
        }
    }

    private func svg(_ text: String) -> Response {
        Responses.body(
            ByteBuffer(string: text), contentType: "image/svg+xml; charset=utf-8",
            cacheSeconds: service.config.server.cacheSeconds)
    }
}

/// espeak-ng keeps global state behind one lock: syntheses run one at a time on this queue, off the server's
/// cooperative threads, so speech requests never hold the threads that answer everything else. At most
/// `maxWaiting` wait their turn; more are refused at once (503) rather than queued without end.
final class SpeechQueue: Sendable {
    private let queue = DispatchQueue(label: "stopkiosk.web.speech", qos: .userInitiated)
    private let waiting = Atomic<Int>(0)
    let maxWaiting: Int

    init(maxWaiting: Int = 16) { self.maxWaiting = maxWaiting }

    func wav(for text: String, settings: VoiceSettings) async throws -> Data {
        guard waiting.add(1, ordering: .relaxed).newValue <= maxWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            throw Problem(
                status: .serviceUnavailable, title: "Speech busy",
                detail: "\(maxWaiting) spoken answers are already being made; ask again in a few seconds",
                retryAfter: 5)
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try SpeechAudio.wav(for: text, settings: settings) })
                waiting.subtract(1, ordering: .relaxed)
            }
        }
    }
}
