import Foundation
import HTTPTypes
import Hummingbird
import KioskConfiguration
import Prometheus
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A client address as the limits count it: an IPv4 address, or an IPv6 address's /64 (one phone or household
/// holds a whole /64 and may pick any address in it). Parsed, not compared as text, so `::ffff:10.0.0.1` and
/// `10.0.0.1` are one client.
struct ClientAddress: Hashable, Sendable {
    let high: UInt64
    let low: UInt64
    /// The full address, for matching the trusted proxies (the key above drops an IPv6 address's last 64 bits).
    let bytes: [UInt8]

    init?(_ text: some StringProtocol) {
        var text = String(text.trimmingSpaces())
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }  // a zone: fe80::1%eth0
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: v6) { Array($0) }
            bytes = all[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] ? Array(all[12...]) : all
        } else {
            return nil
        }
        func number(_ slice: ArraySlice<UInt8>) -> UInt64 { slice.reduce(0) { $0 << 8 | UInt64($1) } }
        if bytes.count == 4 {
            high = 0
            low = 1 << 32 | number(bytes[...])
        } else {
            high = number(bytes[0..<8])
            low = 0
        }
    }

    /// The full address as text (`203.0.113.9`, `2001:db8::1`), for the access log.
    var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return written == nil ? "-" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func == (a: ClientAddress, b: ClientAddress) -> Bool { a.high == b.high && a.low == b.low }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    /// Whether this address is inside `network` (an address, or an address/prefix-length such as `10.0.0.0/8`).
    func isIn(_ network: Network) -> Bool {
        guard network.bytes.count == bytes.count else { return false }
        var bits = network.prefixLength
        for (a, b) in zip(bytes, network.bytes) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if a & mask != b & mask { return false }
            bits -= 8
        }
        return true
    }

    /// A trusted proxy's address or network.
    struct Network: Sendable {
        let bytes: [UInt8]
        let prefixLength: Int

        /// `127.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`; nil for anything else.
        init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = parts.first.flatMap({ ClientAddress($0) }) else { return nil }
            bytes = address.bytes
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...bytes.count * 8).contains(length) else { return nil }
                // An IPv4-mapped network (::ffff:10.0.0.0/104) counts in IPv4 bits.
                prefixLength = text.contains(":") && bytes.count == 4 ? max(0, length - 96) : length
            } else {
                prefixLength = bytes.count * 8
            }
        }
    }
}

/// Token buckets per client address for the expensive endpoints (`ClientRateLimitMiddleware`).
///
/// Each client has one bucket per kind of request, holding at most `burst` tokens and refilled at `perMinute` a
/// minute; a request takes a token or, with none left, is refused with the seconds until the next one. The table
/// holds at most `maxClients` addresses: when it is full, the clients whose buckets have refilled (as good as
/// absent) are dropped, and if that is not enough, the least recently seen down to three quarters of the
/// bound, so a scan from many addresses cannot grow memory without bound (a client dropped early starts again
/// with full buckets: the limit fails open, never shut). The clock is injected (seconds, monotonic), so tests
/// need no sleeps.
final class ClientRateLimiter: Sendable {
    enum Kind: Int, CaseIterable, Sendable {
        case plan, speech, map

        var label: String {
            switch self {
            case .plan: "plan"
            case .speech: "speech"
            case .map: "map"
            }
        }
    }

    struct Rule: Sendable, Equatable {
        var perMinute: Int
        var burst: Int
        var perSecond: Double { Double(perMinute) / 60 }
    }

    enum Decision: Equatable, Sendable {
        case allowed
        /// Refused: a token is back in this many seconds (at least 1).
        case limited(retryAfter: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private struct Client {
        var buckets: [Bucket?]
        var lastSeen: Double
    }

    /// The rule per kind (nil: that kind is not limited).
    let rules: [Rule?]
    let maxClients: Int
    let now: @Sendable () -> Double
    private let clients = Mutex([ClientAddress: Client]())

    init(rules: [Kind: Rule], maxClients: Int, now: @escaping @Sendable () -> Double = ClientRateLimiter.uptime) {
        self.rules = Kind.allCases.map { rules[$0].flatMap { $0.perMinute > 0 && $0.burst > 0 ? $0 : nil } }
        self.maxClients = max(1, maxClients)
        self.now = now
    }

    /// The limits `[server]` configures (none when `rate_limits` is false).
    convenience init(settings: ServerSettings, now: @escaping @Sendable () -> Double = ClientRateLimiter.uptime) {
        var rules: [Kind: Rule] = [:]
        if settings.rateLimits {
            rules[.plan] = Rule(perMinute: settings.planRequestsPerMinute, burst: settings.planBurst)
            rules[.speech] = Rule(perMinute: settings.speechRequestsPerMinute, burst: settings.speechBurst)
            rules[.map] = Rule(perMinute: settings.mapRequestsPerMinute, burst: settings.mapBurst)
        }
        self.init(rules: rules, maxClients: settings.rateLimitClients, now: now)
    }

    /// Seconds since boot (`CLOCK_MONOTONIC`): never goes back when the wall clock is set.
    static let uptime: @Sendable () -> Double = {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    var isActive: Bool { rules.contains { $0 != nil } }

    /// Addresses in the table.
    var count: Int { clients.withLock { $0.count } }

    /// Takes a token of `kind` from `client`'s bucket.
    func take(_ kind: Kind, for client: ClientAddress) -> Decision {
        guard let rule = rules[kind.rawValue] else { return .allowed }
        let time = now()
        return clients.withLock { table in
            if table[client] == nil, table.count >= maxClients { evict(&table, at: time) }
            var entry = table[client] ?? Client(buckets: Array(repeating: nil, count: Kind.allCases.count), lastSeen: time)
            var bucket = entry.buckets[kind.rawValue] ?? Bucket(tokens: Double(rule.burst), updated: time)
            bucket.tokens = min(Double(rule.burst), bucket.tokens + max(0, time - bucket.updated) * rule.perSecond)
            bucket.updated = time
            let decision: Decision
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                decision = .allowed
            } else {
                // (Less a nanosecond: 1/3 of a token at 1/3 a second is 1 s, not the 1.000…1 s floating point makes of it.)
                let wait = (1 - bucket.tokens) / rule.perSecond - 1e-9
                decision = .limited(retryAfter: max(1, Int(wait.rounded(.up))))
            }
            entry.buckets[kind.rawValue] = bucket
            entry.lastSeen = time
            table[client] = entry
            return decision
        }
    }

    private func evict(_ table: inout [ClientAddress: Client], at time: Double) {
        table = table.filter { _, client in
            client.buckets.enumerated().contains { index, bucket in
                guard let bucket, let rule = rules[index] else { return false }
                return bucket.tokens + (time - bucket.updated) * rule.perSecond < Double(rule.burst)
            }
        }
        guard table.count >= maxClients else { return }
        let keep = maxClients * 3 / 4
        let newest = table.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(keep)
        table = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }

    /// Which limit a request falls under, by the route it reaches: plans (`/plan` with a query, `/api/v1/plan`,
    /// and a journey map, `/api/v1/plan/map.svg`, which makes the plan it draws), the spoken stop view, and the
    /// other SVG pictures (stop and route maps, line diagrams). Anything else: nil.
    ///
    /// The path is cut into segments exactly as the router matches it (split at `/`, empty segments skipped:
    /// `/api/v1/plan/`, `/api/v1//plan` and `//api/v1/plan` all reach the plan route), case-sensitive and not
    /// percent-decoded, as the router is; comparing the raw spelling let those variants dodge the limit. The
    /// variants are classified, not refused: the router answers them, and so does nginx's `merge_slashes`.
    static func kind(of request: Request) -> Kind? {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        switch segments.count {
        case 1 where segments[0] == "plan":
            return (request.uri.query ?? "").isEmpty ? nil : .plan
        case 3, 4, 5:
            guard segments[0] == "api", segments[1] == "v1" else { return nil }
        default:
            return nil
        }
        switch (segments.count, segments[2], segments.last!) {
        case (3, "plan", _), (4, "plan", "map.svg"): return .plan
        case (5, "stops", "speech"): return .speech
        case (5, "stops", "map.svg"), (5, "routes", "map.svg"), (5, "routes", "diagram.svg"): return .map
        default: return nil
        }
    }
}

/// Which address a request comes from: the peer's, unless the peer is one of `trusted_proxies`; then the
/// address the proxy names in `X-Real-IP` (what `kiosk/deploy/nginx` sets to its client's address), else the
/// last address in `X-Forwarded-For` that is not itself a trusted proxy (the ones before it are the client's own
/// word). Headers from any other peer are ignored: a client cannot choose its own address. A trusted peer that
/// names no client is the proxy itself or a program on the box (the kiosk's own browser on loopback, by
/// default): nil, not limited.
struct ClientAddressResolver: Sendable {
    let trusted: [ClientAddress.Network]

    init(trustedProxies: [String]) {
        trusted = trustedProxies.compactMap(ClientAddress.Network.init)
    }

    func isTrusted(_ address: ClientAddress) -> Bool { trusted.contains { address.isIn($0) } }

    func client(peer: String?, headers: HTTPFields) -> ClientAddress? {
        guard let peer = peer.flatMap({ ClientAddress($0) }) else { return nil }
        guard isTrusted(peer) else { return peer }
        if let real = headers[.xRealIP].flatMap({ ClientAddress($0) }) { return real }
        let forwarded = headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
        for hop in forwarded.reversed() {
            guard let address = ClientAddress(hop) else { return nil }
            if !isTrusted(address) { return address }
        }
        return nil
    }

    /// The address the access log names: the client a trusted proxy names (nginx's `X-Real-IP`), else the peer's.
    func loggedAddress(peer: String?, headers: HTTPFields) -> String? {
        if trusted.isEmpty { return peer }  // no proxy to believe: the peer, without parsing it
        guard let peer, let address = ClientAddress(peer), isTrusted(address),
            let client = client(peer: peer, headers: headers)
        else { return peer }
        return client.text
    }
}

/// Per-client limits on the expensive endpoints (`ClientRateLimiter`), for a server with no proxy in front (or
/// one named in `trusted_proxies`): over its allowance a client gets `429` with `Retry-After` (problem+json under
/// `/api/`, the error page in the reader's language on `/plan`), counted in
/// `stopkiosk_rate_limited_total{limit}`. Other clients, and every other endpoint, are served as before.
struct ClientRateLimitMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let limiter: ClientRateLimiter
    let addresses: ClientAddressResolver
    let problems: ProblemMiddleware
    let metrics: WebMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let kind = ClientRateLimiter.kind(of: request),
            let client = addresses.client(peer: context.remoteAddress, headers: request.headers),
            case .limited(let retryAfter) = limiter.take(kind, for: client)
        else { return try await next(request, context) }
        metrics.recordRateLimited(kind.label)
        let rule = limiter.rules[kind.rawValue]
        var response = problems.respond(
            Problem(
                status: .tooManyRequests, title: "Too Many Requests",
                detail:
                    "this address asked for more \(kind.label == "map" ? "maps" : kind.label == "plan" ? "plans" : "spoken stop views") than the server answers one client (\(rule?.perMinute ?? 0) a minute, \(rule?.burst ?? 0) at once); try again in \(retryAfter) s",
                retryAfter: retryAfter),
            to: request)
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }
}

extension WebMetrics {
    /// `stopkiosk_rate_limited_total{limit}`: requests refused `429` by the per-client limits, by limit.
    func recordRateLimited(_ limit: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "rate_limited", unitName: "total",
                helpText: "Requests refused 429 by the per-client limits (plan, speech, map)"),
            labels: [("limit", limit)]
        ).increment()
    }
}

extension HTTPField.Name {
    static let xRealIP = HTTPField.Name("X-Real-IP")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
