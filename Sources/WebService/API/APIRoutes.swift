import Foundation
import Hummingbird
import KioskConfiguration
import Realtime
import ScanService
import StopCodes
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

/// `/api/v1/…`, `/health`, `/metrics`. Stop views and plans are `KioskJSON` renderings of the same values
/// `kiosk lookup --json` and `kiosk plan --json` print, byte for byte (a trailing newline included), so fields added
/// to `StopView` appear here without a change. `/api/v1/openapi.json` is the contract.
struct APIRoutes {
    let service: WebService

    func register(on router: Router<WebRequestContext>) {
        router.resource("/health") { _, _ in try service.healthAnswer() }
        router.resource("/metrics") { _, _ in
            let database = service.databases.current()
            service.metrics.updateFeed(
                importedAt: database.importedAt, generation: service.databases.generation, now: service.now())
            service.metrics.updateDatabase(service.databases.health)
            SharedGauges.update(service.metrics.registry, database: database, live: service.live, now: service.now())
            service.metrics.updateConnections(service.connections)
            service.metrics.updateLoad(blocking: service.blocking, slowReaders: service.slowReaders)
            var response = Responses.body(
                service.metrics.registry.emitToString(), contentType: "text/plain; version=0.0.4; charset=utf-8",
                cacheSeconds: nil)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.resource("/api/v1/stops/{id}") { request, context in try await stopView(request, context) }
        router.blockingResource("/api/v1/stops", on: service.blocking) { request, _ in try searchStops(request) }
        router.resource("/api/v1/plan") { request, _ in try await service.plans.run { try plan(request) } }
        router.blockingResource("/api/v1/resolve", on: service.blocking) { request, _ in try resolve(request) }
        router.resource("/api/v1/feed") { _, _ in try feed() }
        MediaRoutes(service: service).register(on: router)
        RouteAPIRoutes(service: service).register(on: router)
        router.resource("/api/v1/openapi.json") { _, _ in
            Responses.body(OpenAPIDocument.json, contentType: "application/json; charset=utf-8", cacheSeconds: 3600)
        }
    }

    /// `GET /api/v1/stops/{id}?at=&window=&nearby=&lang=`: the stop view for a stop ID or code (rendered on the
    /// blocking pool unless shared within its minute).
    func stopView(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let query = try QueryParameters(request)
        let lang = try LanguageChoice.choose(request: request, config: service.config, strict: true)
        let window = try query.int("window", in: 1...1440) ?? service.config.windowMinutes
        let nearby = try query.int("nearby", in: 0...5000) ?? service.config.nearbyRadiusMeters
        let database = service.databases.current()
        let at = try query.instant(in: database.timeZone, now: service.now())
        let stopValue = context.parameters.get("id") ?? ""
        return try await service.sharedNowOffPool(request, key: "api", database: database, at: at) {
            [service] instant in
            do {
                let stop = try service.pathStop(stopValue, in: database)
                let view = try service.stopView(
                    database, for: stop, at: instant, window: window, nearby: nearby, language: lang)
                return Answers.json(
                    try StopViewJSON.render(view) + "\n",
                    cacheSeconds: service.config.server.cacheSeconds)
            } catch let error as LookupError {
                throw Problem.from(error, atGiven: at.given)
            }
        }
    }

    struct SearchAnswer: Encodable {
        struct Match: Encodable {
            var stop: StopInfo
            var match: String
            var page: String
        }
        var query: String
        var stops: [Match]
    }

    struct NearAnswer: Encodable {
        struct Point: Encodable {
            var latitude: Double
            var longitude: Double
        }
        var near: Point
        var radiusMeters: Int
        var stops: [NearbyStop]
    }

    /// `GET /api/v1/stops?q=…` (name, code or ID; accents and case ignored) or `?near=lat,lon&radius=…`.
    func searchStops(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let limit = try query.int("limit", in: 1...50) ?? 10
        let database = service.databases.current()
        switch (query["q"], query["near"]) {
        case (let text?, nil):
            do {
                let matches = try StopSearch.find(text, in: database, limit: limit)
                let answer = SearchAnswer(
                    query: text,
                    stops: matches.map { .init(stop: $0.stop, match: $0.match, page: StopLinks.page($0.stop)) })
                return Responses.json(
                    try KioskJSON.encode(answer, timeZone: database.timeZone) + "\n",
                    cacheSeconds: service.config.server.cacheSeconds)
            } catch let error as LookupError {
                throw Problem.from(error)
            }
        case (nil, let near?):
            let parts = near.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                throw Problem.badRequest(
                    "near must be 'latitude,longitude' in degrees, e.g. near=-0.2105,-78.4934 (got '\(String(near.prefix(60)))')"
                )
            }
            let radius = try query.int("radius", in: 1...5000) ?? service.config.nearbyRadiusMeters
            let point = Coordinate(latitude: latitude, longitude: longitude)
            do {
                let stops = try database.stopsNear(point, radiusMeters: radius, limit: limit)
                let answer = NearAnswer(
                    near: .init(latitude: latitude, longitude: longitude), radiusMeters: radius, stops: stops)
                return Responses.json(
                    try KioskJSON.encode(answer, timeZone: database.timeZone) + "\n",
                    cacheSeconds: service.config.server.cacheSeconds)
            } catch let error as LookupError {
                throw Problem.from(error)
            }
        case (nil, nil):
            throw Problem.badRequest("give q (a stop name, code or ID) or near (latitude,longitude)")
        case (.some, .some):
            throw Problem.badRequest("give either q or near, not both")
        }
    }

    /// `GET /api/v1/plan?from=&to=&at=&max_transfers=`: the journey plan `kiosk plan --json` prints.
    func plan(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let from = try query.require("from", example: "from=1091")
        let to = try query.require("to", example: "to=1011")
        let maxTransfers = try query.int("max_transfers", in: 0...8) ?? service.config.maxTransfers
        let database = service.databases.current()
        let at = try query.instant(in: database.timeZone, now: service.now())
        let (options, earliest) = try query.planOptions(in: database.timeZone, at: at, now: service.now())
        do {
            let plan = try JourneyPlanning.plan(
                from: from, to: to, at: earliest, maxTransfers: maxTransfers, database: database,
                config: service.config,
                options: options, live: service.live?.live, now: service.now())
            return Responses.json(
                try KioskJSON.encode(plan, timeZone: database.timeZone) + "\n",
                cacheSeconds: service.config.server.cacheSeconds)
        } catch let error as LookupError {
            throw Problem.from(error, atGiven: at.given)
        }
    }

    struct ResolveAnswer: Encodable {
        struct Stop: Encodable {
            var id: String
            var code: String?
            var name: String
            var platforms: [String]?
        }
        struct Reference: Encodable {
            var kind: String
            var value: String
            var signature: String
            var keyId: String?
            var source: String
        }
        struct Links: Encodable {
            var stop: String
            var page: String
        }
        var status: String
        var text: String
        var detail: String?
        var stop: Stop?
        var reference: Reference?
        var links: Links?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(text, forKey: .text)
            try container.encode(detail, forKey: .detail)  // null when absent: every answer has the same keys
            try container.encode(stop, forKey: .stop)
            try container.encode(reference, forKey: .reference)
            try container.encode(links, forKey: .links)
        }

        enum CodingKeys: String, CodingKey { case status, text, detail, stop, reference, links }
    }

    /// `GET /api/v1/resolve?payload=…`: what the kiosk would make of a scanned payload (the same parser, keys and
    /// signature policy): the stop, and the signature verdict.
    func resolve(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        guard let payload = query["payload"] else {
            throw Problem.badRequest("the query parameter 'payload' is required: the scanned text, percent-encoded")
        }
        let database = service.databases.current()
        let resolver: ScanResolver
        do {
            resolver = try ScanResolver(config: service.config, database: database)
        } catch {
            throw Problem(
                status: .internalServerError, title: "Scanner settings unusable",
                detail: "the server's [labels] settings cannot be used: \(error)")
        }
        let outcome = resolver.resolve(payload)
        service.metrics.recordScan(status: outcome.status.rawValue, source: "api")
        let answer = Self.answer(outcome)
        return Responses.json(try KioskJSON.encode(answer, timeZone: database.timeZone) + "\n", cacheSeconds: nil)
    }

    static func answer(_ outcome: ScanOutcome) -> ResolveAnswer {
        let stop = outcome.stop.map { resolved in
            ResolveAnswer.Stop(
                id: resolved.stop.id, code: resolved.stop.code, name: resolved.stop.name,
                platforms: resolved.platforms.count > 1 || resolved.platforms.first?.id != resolved.stop.id
                    ? resolved.platforms.map(\.id) : nil)
        }
        let reference = outcome.reference.map { reference in
            let signature: (String, String?) =
                switch reference.signature {
                case .verified(let keyID): ("verified", keyID)
                case .unsigned: ("unsigned", nil)
                case .notChecked: ("not_checked", nil)
                }
            let kind: String =
                switch reference.kind {
                case .stopCode: "stop_code"
                case .stopID: "stop_id"
                case .codeOrID: "code_or_id"
                }
            let source: String =
                switch reference.source {
                case .ownLabel: "own_label"
                case .foreignLabel: "foreign_label"
                case .bare: "bare"
                }
            return ResolveAnswer.Reference(
                kind: kind, value: reference.value, signature: signature.0, keyId: signature.1, source: source)
        }
        return ResolveAnswer(
            status: outcome.status.rawValue, text: outcome.text, detail: outcome.detail, stop: stop,
            reference: reference,
            links: outcome.stop.map { .init(stop: StopLinks.api($0.stop), page: StopLinks.page($0.stop)) })
    }

    struct FeedAnswer: Encodable {
        var feedName: String
        var feedId: String
        var feedHash: String
        var importedAt: String?
        var serviceStart: String?
        var serviceEnd: String?
        var timeZone: String
        var databaseGeneration: Int
        /// Every GTFS feed of the database, in import order (one for a database of one feed; none for a file
        /// written before feeds were recorded).
        var feeds: [Feed]

        /// One GTFS feed of the database: its id (the `FEEDID` of `FEEDID:ID` when there are several), the file it
        /// came from, its hash, validity dates, counts and the warnings its import gave.
        struct Feed: Encodable {
            var id: String
            var source: String
            var feedHash: String
            var timeZone: String
            var serviceStart: String?
            var serviceEnd: String?
            var agencies: Int, stops: Int, routes: Int, trips: Int, stopTimes: Int, warnings: Int

            init(_ record: FeedRecord) {
                id = record.id
                source = record.source
                feedHash = record.feedHash
                timeZone = record.timeZone
                serviceStart = record.serviceStart?.description
                serviceEnd = record.serviceEnd?.description
                (agencies, stops, routes, trips) = (record.agencies, record.stops, record.routes, record.trips)
                (stopTimes, warnings) = (record.stopTimes, record.warnings)
            }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(source, forKey: .source)
                try container.encode(feedHash, forKey: .feedHash)
                try container.encode(timeZone, forKey: .timeZone)
                try container.encode(serviceStart, forKey: .serviceStart)  // null when absent: the same keys always
                try container.encode(serviceEnd, forKey: .serviceEnd)
                try container.encode(agencies, forKey: .agencies)
                try container.encode(stops, forKey: .stops)
                try container.encode(routes, forKey: .routes)
                try container.encode(trips, forKey: .trips)
                try container.encode(stopTimes, forKey: .stopTimes)
                try container.encode(warnings, forKey: .warnings)
            }

            enum CodingKeys: String, CodingKey {
                case id, source, feedHash, timeZone, serviceStart, serviceEnd, agencies, stops, routes, trips,
                    stopTimes, warnings
            }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feedName, forKey: .feedName)
            try container.encode(feedId, forKey: .feedId)
            try container.encode(feedHash, forKey: .feedHash)
            try container.encode(importedAt, forKey: .importedAt)
            try container.encode(serviceStart, forKey: .serviceStart)
            try container.encode(serviceEnd, forKey: .serviceEnd)
            try container.encode(timeZone, forKey: .timeZone)
            try container.encode(databaseGeneration, forKey: .databaseGeneration)
            try container.encode(feeds, forKey: .feeds)
        }

        enum CodingKeys: String, CodingKey {
            case feedName, feedId, feedHash, importedAt, serviceStart, serviceEnd, timeZone, databaseGeneration, feeds
        }
    }

    /// `GET /api/v1/feed`: which timetable the server answers from, and each GTFS feed in it.
    func feed() throws -> Response {
        let database = service.databases.current()
        let answer = FeedAnswer(
            feedName: database.feedName, feedId: service.config.feedID ?? database.feedID, feedHash: database.feedHash,
            importedAt: database.importedAt, serviceStart: database.serviceStart?.description,
            serviceEnd: database.serviceEnd?.description, timeZone: database.timeZone.identifier,
            databaseGeneration: service.databases.generation, feeds: database.feeds.map(FeedAnswer.Feed.init))
        return Responses.json(
            try KioskJSON.encode(answer, timeZone: database.timeZone) + "\n",
            cacheSeconds: service.config.server.cacheSeconds)
    }
}

extension WebService {
    /// The stop `{id}` in the path names (an ID or code, percent-decoded); 400 for a malformed escape.
    func pathStop(_ context: WebRequestContext, in database: RouteDatabase) throws -> ResolvedStop {
        try pathStop(context.parameters.get("id") ?? "", in: database)
    }

    func pathStop(_ raw: String, in database: RouteDatabase) throws -> ResolvedStop {
        guard let value = QueryParameters.percentDecode(raw) else {
            throw Problem.badRequest("the stop in the path has a malformed percent-encoding")
        }
        return try database.resolveStop(.idOrCode(try RouteDatabase.validateQuery(value)))
    }
}

/// Stop search shared by the API and the `/` page: an exact ID or code first, then names (accent-insensitive).
enum StopSearch {
    struct Found {
        var stop: StopInfo
        var match: String
    }

    static func find(_ text: String, in database: RouteDatabase, limit: Int) throws -> [Found] {
        let query = try RouteDatabase.validateQuery(text)
        var found: [Found] = []
        if let exact = (try? database.findStop(.idOrCode(query))) ?? nil {
            found.append(Found(stop: exact.stop, match: "id_or_code"))
        }
        for match in try database.searchStops(query, limit: limit)
        where !found.contains(where: { $0.stop.id == match.stop.id }) {
            let rank: String =
                switch match.rank {
                case .exact: "exact"
                case .prefix: "prefix"
                case .wordPrefix: "word_prefix"
                case .contains: "contains"
                }
            found.append(Found(stop: match.stop, match: rank))
        }
        return Array(found.prefix(limit))
    }
}

/// Plans as `kiosk plan` makes them: endpoints by ID, code or name, the config's walking rules.
enum JourneyPlanning {
    static func plan(
        from: String, to: String, at: Date, maxTransfers: Int, database: RouteDatabase, config: KioskConfig,
        options: PlanOptions = PlanOptions(), live: LiveData? = nil, now: Date = Date()
    ) throws -> JourneyPlan {
        let origin = try database.resolveJourneyEnd(from)
        let destination = try database.resolveJourneyEnd(to)
        guard live != nil || options != PlanOptions() else {
            return try database.plan(
                from: origin, to: destination, at: at, maxTransfers: maxTransfers,
                rules: PlanningRules(walkRadiusMeters: config.walkRadiusMeters))
        }
        // Live data and step-free facts through one overlay per poll and network, shared by every request.
        return try database.livePlan(
            from: origin, to: destination, at: at, maxTransfers: maxTransfers,
            rules: PlanningRules(walkRadiusMeters: config.walkRadiusMeters), options: options, live: live, now: now,
            cache: overlays)
    }

    static let overlays = PlanningOverlayCache()
}

extension WebService {
    /// Builds the planning overlay of the live data that has just arrived, for the network that plans use now: the
    /// poller calls it after each poll, so the first plan after a poll finds the overlay ready instead of building
    /// it on its own request (and every plan after it shares it).
    public func prepareLivePlans() {
        guard let live = live?.live, live.mode != .offline, live.hasTripUpdatesFeed,
            live.tripUpdatesFreshness(now: now()).display == .live
        else { return }
        let database = databases.current()
        do {
            let network = try database.planningNetwork(
                around: now(), rules: PlanningRules(walkRadiusMeters: config.walkRadiusMeters))
            _ = try JourneyPlanning.overlays.live(for: network, live: live, database: database)
        } catch {
            // A plan builds it on its request and reports what fails there; here it only came early.
            logger.debug("live planning overlay not prepared: \(error)")
        }
    }

    /// The live overlay plans would use now, if it is ready (tests).
    func preparedLiveOverlay() throws -> PlanningOverlay? {
        guard let live = live?.live else { return nil }
        let network = try databases.current().planningNetwork(
            around: now(), rules: PlanningRules(walkRadiusMeters: config.walkRadiusMeters))
        return JourneyPlanning.overlays.publishedLive(for: network, live: live)
    }
}
