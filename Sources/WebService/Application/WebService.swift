import Foundation
import Hummingbird
import HummingbirdCore
import KioskConfiguration
import Logging
import NIOCore
import Realtime
import ServiceLifecycle
import Synchronization
import TransitModel
import TransitStore

/// The web service: phone pages for the labels' URLs, the versioned JSON API, `/kiosk`, `/metrics`.
///
/// Stateless apart from the read-only database file (reopened by `LiveRouteDatabase` when `kiosk import` replaces
/// it with a file that passes its check; `/health` and `/metrics` report a database that fails reads): several
/// instances, each with its own copy of the file, can run behind any HTTP load balancer or cache.
/// Every handler takes one `RouteDatabase` from `databases.current()` and uses only it, so no response mixes two
/// imports.
public final class WebService: Sendable {
    public let config: KioskConfig
    public let databases: LiveRouteDatabase
    public let metrics: WebMetrics
    public let logger: Logger
    /// The clock requests without `at` use (tests fix it).
    let now: @Sendable () -> Date
    let pages: PageRenderer
    public let scans: ScanBroadcaster
    /// The `[realtime]` feeds, polled off the request path (nil: timetable only). Every stop view — API, phone
    /// page, `/kiosk` — goes through `stopView(_:for:at:window:nearby:language:)`, so all show the same thing.
    public let live: LiveFeedPolling?
    /// Stop views and stop pages for "now", shared within their minute.
    let nowCache = NowCache()
    /// What the listening socket's `ConnectionGate` counts (connections served, refused, failed accepts).
    public let connections = ConnectionGateStatistics()
    /// Where `/api/v1/stops/{id}/speech` is synthesised.
    let speech: SpeechQueue
    /// Where journey plans are made (`BlockingWork.plans`): at most one per core at once, off the request threads
    /// and apart from the other blocking work, a short queue, else 503.
    public let plans: BlockingWork
    /// Where the other blocking work runs (database reads, searches, pictures, pages): threads of its own, one per
    /// core, a short queue, else 503; `/health` and the shared "now" answers never wait for it.
    public let blocking = BlockingWork()
    /// Connections closed because their client took none of its answer for `[server] slow_reader_seconds`.
    public let slowReaders = SlowReaderStatistics()
    /// What the connections of clients that pipeline requests hold (`PipelinedRequestGate`).
    public let pipelines = PipelineStatistics()
    /// Sent as `X-Served-By` on every answer when set (`kiosk serve --instance`).
    public let instanceName: String?
    /// The per-client limits on plans, speech and maps (`[server] rate_limits`).
    let rateLimiter: ClientRateLimiter
    /// `/health`'s answer for the database in service, made once per database (its bytes, tag and headers).
    private let healthAnswers = Mutex<(feedHash: String, answer: Answer)?>(nil)

    public init(
        config: KioskConfig, databases: LiveRouteDatabase, logger: Logger = Logger(label: "stopkiosk.web"),
        metrics: WebMetrics = WebMetrics(), now: @escaping @Sendable () -> Date = { Date() },
        live: LiveFeedPolling? = nil, speechWaitingLimit: Int = 16, instanceName: String? = nil,
        rateLimitClock: (@Sendable () -> Double)? = nil, plans: BlockingWork = .plans()
    ) throws {
        self.plans = plans
        self.instanceName = instanceName
        self.rateLimiter = ClientRateLimiter(settings: config.server, now: rateLimitClock ?? ClientRateLimiter.uptime)
        self.live = live
        self.speech = SpeechQueue(maxWaiting: speechWaitingLimit)
        self.config = config
        self.databases = databases
        self.logger = logger
        self.metrics = metrics
        self.now = now
        self.pages = try PageRenderer(display: config.display)
        self.scans = ScanBroadcaster()
    }

    /// The stop view with the latest live data applied when live data is configured (freshness judged at the
    /// server's clock, as on the kiosk), else the timetable's.
    func stopView(
        _ database: RouteDatabase, for stop: ResolvedStop, at: Date, window: Int, nearby: Int, language: Language
    ) throws -> StopView {
        try database.liveStopView(
            for: stop, at: at, windowMinutes: window, nearbyRadiusMeters: nearby, live: live?.live, now: now(),
            language: language.rawValue)
    }

    /// `GET /health`: 200 with the feed in service while its reads succeed. Once the database in service failed a
    /// read (or its background check) its answers are 503 until a good import replaces it, and so is this one, as
    /// `application/problem+json` naming SQLite's first error, so a load balancer stops sending work here. A
    /// replacement that was refused while the previous database still answers is not a failure here (the log
    /// and `stopkiosk_database_replacement_refused` say it).
    func healthAnswer() throws -> Response {
        let database = databases.current()
        let health = databases.health
        guard health.isHealthy else {
            throw Problem(
                status: .serviceUnavailable, title: "Route database failing",
                detail:
                    "reads of the route database fail (\(health.firstError ?? "unknown error"); \(health.readFailures) failed \(health.readFailures == 1 ? "read" : "reads")): answers that need it fail until the operator imports the feed again"
            )
        }
        let hash = database.feedHash
        if let kept = healthAnswers.withLock({ $0 }), kept.feedHash == hash { return kept.answer.response }
        let answer = Answers.json("{\"status\":\"ok\",\"feed_hash\":\"\(hash)\"}\n", cacheSeconds: nil)
        healthAnswers.withLock { $0 = (hash, answer) }
        return answer.response
    }

    /// The router with every route and middleware; `application` serves it, tests drive it in process.
    public func router() -> Router<WebRequestContext> {
        let router = Router(context: WebRequestContext.self, options: .autoGenerateHeadEndpoints)
        if let instanceName { router.add(middleware: InstanceHeaderMiddleware(name: instanceName)) }
        let addresses = ClientAddressResolver(trustedProxies: config.server.trustedProxies)
        let on = BenchSwitch.isOn
        if on("access-log") { router.add(middleware: AccessLogMiddleware(logger: logger, addresses: addresses)) }
        if on("metrics") { router.add(middleware: metrics.middleware) }
        // Outside the error answers, so problem+json is compressed too; it answers If-None-Match for either variant.
        if on("compression") { router.add(middleware: CompressionMiddleware()) }
        if rateLimiter.isActive && on("rate-limits") {
            router.add(
                middleware: ClientRateLimitMiddleware(
                    limiter: rateLimiter,
                    addresses: addresses,
                    problems: ProblemMiddleware(pages: pages, config: config), metrics: metrics))
        }
        if on("problems") { router.add(middleware: ProblemMiddleware(pages: pages, config: config)) }
        if on("limits") { router.add(middleware: RequestLimitsMiddleware(settings: config.server)) }
        if on("security-headers") { router.add(middleware: SecurityHeadersMiddleware()) }
        if on("cors") { router.add(middleware: CORSAllowListMiddleware(origins: config.server.corsOrigins)) }
        APIRoutes(service: self).register(on: router)
        PageRoutes(service: self).register(on: router)
        TimetablePageRoutes(service: self).register(on: router)
        KioskRoutes(service: self).register(on: router)
        return router
    }

    /// What each connection's pipeline gets besides Hummingbird's own handlers.
    func connectionHandlers() -> [any RemovableChannelHandler] {
        let server = config.server
        let on = BenchSwitch.isOn
        var handlers: [any RemovableChannelHandler] = []
        if on("persistence") { handlers.append(ConnectionPersistenceHandler.Installer()) }
        if on("slow-readers") { handlers.append(slowReaderGuard()) }
        if on("pipelining-gate") {
            handlers.append(
                PipelinedRequestGate.Installer(
                    statistics: pipelines, maxHeaderBytes: server.maxHeaderBytes, maxURLBytes: server.maxURLBytes))
        }
        return handlers
    }

    /// The HTTP server: HTTP/1.1 with the configured idle timeout and header limit (a request that does not keep the
    /// connection alive closes it after the answer: `ConnectionPersistenceHandler`), graceful shutdown on SIGTERM
    /// and SIGINT when run in a `ServiceGroup` (stop accepting, finish what is in flight).
    public func application(
        host: String, port: Int, services: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let server = config.server
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderListSize = server.maxHeaderBytes
        decoder.maxHeaderFieldSize = server.maxHeaderBytes
        decoder.maxHeaderFieldCount = 100
        return Application(
            router: router(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: self.connectionHandlers(),
                    idleTimeout: .seconds(Int64(server.idleConnectionSeconds)),
                    httpDecoderConfiguration: decoder)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "stopkiosk"),
            services: services,
            onServerRunning: { channel in
                await self.installConnectionGate(on: channel)
                await onServerRunning(channel)
            },
            logger: logger.deferringMetadata())
    }
}

/// The request context: the core storage and the client's address for the access log.
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// For `kiosk-bench serve --middleware-shares` only: `STOPKIOSK_BENCH_WITHOUT` names, comma-separated, the
/// middlewares and connection handlers a server is started without (`access-log`, `metrics`, `compression`,
/// `rate-limits`, `problems`, `limits`, `security-headers`, `cors`, `persistence`, `slow-readers`,
/// `pipelining-gate`), so that each one's share of an answer can be measured. Unset, everything is on.
enum BenchSwitch {
    static let without: Set<String> = Set(
        (ProcessInfo.processInfo.environment["STOPKIOSK_BENCH_WITHOUT"] ?? "").split(separator: ",").map(String.init))

    static func isOn(_ name: String) -> Bool { !without.contains(name) }
}
