import Foundation
import Hummingbird
import Prometheus
import Synchronization
import TransitStore

/// The server's Prometheus metrics (`GET /metrics`, text exposition format), in a registry of its own so that
/// several servers in one process (the tests) do not share counters:
///
/// - `stopkiosk_http_requests_total{route,method,status}`: requests by route pattern (not the raw path, so the
///   label set stays small) and status;
/// - `stopkiosk_http_request_duration_seconds{route}`: the latency histogram;
/// - `stopkiosk_scans_total{status}`: scans the server's scan service resolved (`/kiosk`) and `/api/v1/resolve`
///   calls;
/// - `stopkiosk_feed_age_seconds`: time since the database in service was imported;
/// - `stopkiosk_database_generation`: how many times the database was swapped without a restart;
/// - `stopkiosk_database_healthy`: 1 while every read of the database in service succeeds, 0 once one failed (or
///   its check did): answers that need it are 503 until a good import replaces it;
/// - `stopkiosk_database_read_failures_total`: failed reads of the databases served since start;
/// - `stopkiosk_database_replacement_refused`: 1 while the file at the database path is a replacement that failed
///   its check (the previous database is still served), else 0.
public final class WebMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The read failures already added to the counter.
    private let reportedReadFailures = Mutex(0)
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    var middleware: MetricsMiddleware { MetricsMiddleware(metrics: self) }

    /// The counter and histogram of a (route, method, status), resolved in the registry once: the registry's own
    /// look-up builds the metric's name and label key and takes its lock on every call (issue 41).
    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }
    private let requestMetrics = Mutex<[RequestKey: (counter: Counter, duration: DurationHistogram)]>([:])

    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let metrics =
            requestMetrics.withLock { $0[key] }
            ?? {
                let made = (
                    counter: registry.makeCounter(
                        descriptor: MetricNameDescriptor(
                            namespace: "stopkiosk", subsystem: "http", metricName: "requests", unitName: "total",
                            helpText: "HTTP requests by route pattern, method and status"),
                        labels: [("route", route), ("method", method), ("status", String(status))]),
                    duration: registry.makeDurationHistogram(
                        descriptor: MetricNameDescriptor(
                            namespace: "stopkiosk", subsystem: "http", metricName: "request_duration",
                            unitName: "seconds", helpText: "Time to answer a request, by route pattern"),
                        labels: [("route", route)], buckets: Self.buckets)
                )
                requestMetrics.withLock { $0[key] = made }
                return made
            }()
        metrics.counter.increment()
        metrics.duration.record(duration)
    }

    /// A scanned payload resolved (by the scan service behind `/kiosk`, or `/api/v1/resolve`).
    public func recordScan(status: String, source: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "scans", unitName: "total",
                helpText: "Scanned payloads resolved, by outcome and where they came from"),
            labels: [("status", status), ("source", source)]
        ).increment()
    }

    func updateFeed(importedAt: String?, generation: Int, now: Date) {
        if let importedAt, let date = ISO8601DateFormatter().date(from: importedAt) {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "stopkiosk", metricName: "feed_age", unitName: "seconds",
                    helpText: "Seconds since the route database in service was imported")
            ).set(now.timeIntervalSince(date))
        }
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "database_generation", unitName: "",
                helpText: "Times the route database was replaced under the running server")
        ).set(Double(generation))
    }

    /// The database's health as `/metrics` shows it (called when it is scraped).
    func updateDatabase(_ health: LiveRouteDatabase.Health) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "database_healthy", unitName: "",
                helpText: "1 while every read of the route database in service succeeds, 0 once one failed")
        ).set(health.isHealthy ? 1.0 : 0.0)
        let added = reportedReadFailures.withLock { reported in
            defer { reported = max(reported, health.totalReadFailures) }
            return max(0, health.totalReadFailures - reported)
        }
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "database_read_failures", unitName: "total",
                helpText: "Failed reads of the route databases served since start")
        ).increment(by: Int64(added))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "stopkiosk", metricName: "database_replacement_refused", unitName: "",
                helpText: "1 while the file at the database path is a replacement that failed its check, else 0")
        ).set(health.refusedReplacement == nil ? 0.0 : 1.0)
    }
}

/// Counts and times every request under its route pattern (`/api/v1/stops/{id}`); unknown paths count as
/// `unmatched`, so a scanner probing random URLs cannot grow the label set.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let metrics: WebMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let method: String =
            switch request.method {
            case .get: "GET"
            case .head: "HEAD"
            case .post: "POST"
            case .put: "PUT"
            case .delete: "DELETE"
            case .patch: "PATCH"
            case .options: "OPTIONS"
            default: "other"
            }
        metrics.recordRequest(
            route: context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched", method: method,
            status: Int(response.status.code),
            duration: ContinuousClock.now - start)
        return response
    }
}
