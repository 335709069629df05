import Foundation
import Prometheus
import Realtime
import TransitModel
import TransitStore

/// The gauges `kiosk serve` and `kiosk run` both export under the same names (kiosk/deploy/prometheus/ alerts on
/// them whichever program reports):
///
/// - `stopkiosk_timetable_days_left`: days from today to the last day of the database's service period, in the
///   agency's time zone (0 on the last day, negative after it);
/// - `stopkiosk_realtime_feed_age_seconds{feed}`: for each configured live feed (`trip_updates`, `alerts`), seconds
///   since the data in use was produced (the feed header's time, else when it was fetched); a feed that never
///   arrived counts from when it was first expected;
/// - `stopkiosk_realtime_trip_match_ratio`: of the trips in the latest TripUpdates feed, the share the timetable
///   has (0…1; 1 when the feed names none).
enum SharedGauges {
    /// `kiosk serve`'s: the database in service and the live data its stop views use.
    static func update(
        _ registry: PrometheusCollectorRegistry, database: RouteDatabase, live: LiveFeedPolling?, now: Date
    ) {
        timetable(registry, database: database, now: now)
        realtime(registry, live: live?.live, expectedSince: processStart, now: now)
    }

    static func timetable(_ registry: PrometheusCollectorRegistry, database: RouteDatabase, now: Date) {
        guard let end = database.serviceEnd else { return }
        let today = ServiceDate.containing(now, in: database.timeZone)
        registry.namedGauge(
            "stopkiosk_timetable_days_left", labels: [],
            help: "Days from today to the last day of the route database's service period (negative: past it)"
        ).set(Double(end.dayNumber - today.dayNumber))
    }

    static func realtime(
        _ registry: PrometheusCollectorRegistry, live: LiveData?, expectedSince: Date?, now: Date
    ) {
        guard let live else { return }
        func age(_ timestamp: Date?, _ fetched: Date?) -> Double? {
            (timestamp ?? fetched ?? expectedSince).map { max(0, now.timeIntervalSince($0)) }
        }
        let feeds: [(String, Bool, Double?)] = [
            ("trip_updates", live.hasTripUpdatesFeed, age(live.tripUpdates?.headerTimestamp, live.tripUpdates?.fetchedAt)),
            ("alerts", live.hasAlertsFeed, age(live.alerts?.headerTimestamp, live.alerts?.fetchedAt)),
        ]
        for (feed, configured, seconds) in feeds where configured {
            guard let seconds else { continue }
            registry.namedGauge(
                "stopkiosk_realtime_feed_age_seconds", labels: [("feed", feed)],
                help: "Seconds since the live data in use was produced (feed header time, else fetch time)"
            ).set(seconds)
        }
        if let statistics = live.tripUpdates?.value.statistics {
            registry.namedGauge(
                "stopkiosk_realtime_trip_match_ratio", labels: [],
                help: "Share of the latest TripUpdates feed's trips that the timetable has (0-1)"
            ).set(statistics.tripMatchRate)
        }
    }

    /// When this process started (`/proc/self/stat`), for a live feed that has not arrived since.
    static let processStart: Date? = {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, starttime field 22 (clock ticks after boot).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
            let uptime = uptimeText.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Date().addingTimeInterval(-(uptime - ticks / max(hertz, 1)))
    }()
}

extension PrometheusCollectorRegistry {
    /// A gauge or counter by its whole name (`stopkiosk_camera_up`), as the alert rules spell it.
    func namedGauge(_ name: String, labels: [(String, String)], help: String) -> Gauge {
        makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
    }

    func namedCounter(_ name: String, labels: [(String, String)], help: String) -> Counter {
        makeCounter(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
    }
}
