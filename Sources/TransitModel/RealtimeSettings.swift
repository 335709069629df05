import Foundation

/// How a kiosk uses live data (`[realtime] mode`).
public enum RealtimeMode: String, Sendable, Codable, CaseIterable {
    /// Live data only: when it is not fresh, show no departures rather than stale or scheduled ones.
    case online
    /// Live where fresh, the timetable elsewhere (the default).
    case mixed
    /// Never fetch: the timetable only.
    case offline
}

/// One publisher's realtime sources for one static feed of the route database: `[realtime]` itself, or one
/// `[[realtime.feeds]]` table. Their trip, stop, route and agency ids are the static feed's own: in a database
/// of several feeds they are read in that feed's namespace (`T1` of feed `metro` is `metro:T1`).
public struct RealtimeFeedSources: Sendable, Equatable {
    /// The static feed the sources belong to (`feed = "mx-metro"`); nil: the database's only feed, or, for
    /// alerts alone, the database's own ids (the staff messages file).
    public var feed: String?
    public var tripUpdates: String?
    public var alertFeeds: [String]
    public var vehiclePositions: String?
    public var headers: [String: String]
    /// Where the config gives them: "realtime" or "realtime.feeds[1]".
    public var key: String

    public init(
        feed: String? = nil, tripUpdates: String? = nil, alertFeeds: [String] = [], vehiclePositions: String? = nil,
        headers: [String: String] = [:], key: String = "realtime"
    ) {
        self.feed = feed
        self.tripUpdates = tripUpdates
        self.alertFeeds = alertFeeds
        self.vehiclePositions = vehiclePositions
        self.headers = headers
        self.key = key
    }

    /// Whether any source is given.
    public var hasFeeds: Bool { tripUpdates != nil || !alertFeeds.isEmpty || vehiclePositions != nil }

    /// Every source with its key, each once per kind (`trip_updates`, `alerts`, `vehicle_positions`).
    public var sources: [(key: String, source: String)] {
        (tripUpdates.map { [("trip_updates", $0)] } ?? []) + alertFeeds.map { ("alerts", $0) }
            + (vehiclePositions.map { [("vehicle_positions", $0)] } ?? [])
    }

    /// "[realtime]" or the table's key ("realtime.feeds[1]", counted from 0 as the config's other lists are).
    public var label: String { key == "realtime" ? "[realtime]" : key }
}

/// The `[realtime]` section of a kiosk's config, as values (the TOML reading lives with the rest of the
/// config): where the feeds come from, how often they are polled, the mode, and request headers
/// (API keys). A source is a local file path or an http(s):// URL.
///
/// One publisher: `trip_updates`, `alerts` and `vehicle_positions` in `[realtime]` (with `feed` naming the
/// static feed, optional in a database of one feed). Several: one `[[realtime.feeds]]` table each (`feeds`),
/// sharing `poll_seconds` and `mode`; `[realtime] alerts` may then still list sources that use the database's
/// own ids (the staff messages file).
public struct RealtimeSettings: Sendable, Equatable {
    /// The static feed `[realtime]`'s own sources belong to.
    public var feed: String?
    /// `[[realtime.feeds]]`, in config order.
    public var feeds: [RealtimeFeedSources] = []
    public var tripUpdates: String?
    /// Every ServiceAlerts source, in config order (`alerts = ["https://…", "/var/lib/stopkiosk/messages.pb"]`):
    /// the agency's feed and the staff messages file (`kiosk message`); their alerts are shown together.
    public var alertFeeds: [String]
    /// The first alerts source (setting it replaces them all with this one).
    public var alerts: String? {
        get { alertFeeds.first }
        set { alertFeeds = newValue.map { [$0] } ?? [] }
    }
    public var vehiclePositions: String?
    public var pollSeconds: Int
    public var mode: RealtimeMode
    public var headers: [String: String]

    /// Seconds between polls when the config does not say.
    public static let defaultPollSeconds = 30
    /// The range `poll_seconds` may take.
    public static let pollSecondsRange = 5...3600

    /// `[realtime]`'s own sources, as one publisher's.
    public var primary: RealtimeFeedSources {
        RealtimeFeedSources(
            feed: feed, tripUpdates: tripUpdates, alertFeeds: alertFeeds, vehiclePositions: vehiclePositions,
            headers: headers)
    }

    /// Every publisher, each polled on its own: `[realtime]`'s sources (when it has any), then each
    /// `[[realtime.feeds]]` table.
    public var publishers: [RealtimeFeedSources] {
        (primary.hasFeeds || feeds.isEmpty ? [primary] : []) + feeds
    }

    /// Whether any feed is configured.
    public var hasFeeds: Bool { publishers.contains(where: \.hasFeeds) }

    /// Whether any publisher has trip updates.
    public var hasTripUpdates: Bool { publishers.contains { $0.tripUpdates != nil } }

    /// `[realtime]`'s own sources with their keys, each once per kind (`trip_updates`, `alerts`,
    /// `vehicle_positions`); `publishers` has every table's.
    public var sources: [(key: String, source: String)] { primary.sources }

    public init(
        feed: String? = nil, tripUpdates: String? = nil, alerts: String? = nil, vehiclePositions: String? = nil,
        pollSeconds: Int = RealtimeSettings.defaultPollSeconds, mode: RealtimeMode = .mixed,
        headers: [String: String] = [:], moreAlerts: [String] = [], feeds: [RealtimeFeedSources] = []
    ) {
        self.feed = feed
        self.feeds = feeds
        self.tripUpdates = tripUpdates
        self.alertFeeds = (alerts.map { [$0] } ?? []) + moreAlerts
        self.vehiclePositions = vehiclePositions
        self.pollSeconds = pollSeconds
        self.mode = mode
        self.headers = headers
    }

    /// Why the settings cannot be used, one sentence each (empty when they can).
    public var problems: [String] {
        var result: [String] = []
        if !Self.pollSecondsRange.contains(pollSeconds) {
            result.append("[realtime] poll_seconds must be between 5 and 3600 (got \(pollSeconds))")
        }
        for publisher in publishers {
            let label = publisher.label
            for (key, value) in publisher.sources {
                if value.isEmpty { result.append("\(label) \(key) is empty: give a file path or an http(s):// URL") }
                if value.contains("://") && !(value.hasPrefix("http://") || value.hasPrefix("https://")) {
                    result.append("\(label) \(key) '\(value.prefix(60))' is neither a file path nor an http(s):// URL")
                }
            }
            let alertFeeds = publisher.alertFeeds
            for (index, source) in alertFeeds.enumerated() where alertFeeds[..<index].contains(source) {
                result.append("\(label) alerts names '\(source.prefix(60))' twice")
            }
            for name in publisher.headers.keys
            where name.isEmpty || name.contains(where: { $0 == ":" || $0.isWhitespace || !$0.isASCII }) {
                result.append("\(label) headers: '\(name.prefix(40))' is not a valid HTTP header name")
            }
            for (name, value) in publisher.headers
            where value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
                result.append("\(label) headers: the value of '\(name.prefix(40))' contains a line break")
            }
        }
        let named = publishers.compactMap(\.feed)
        for (index, id) in named.enumerated() where named[..<index].contains(id) {
            result.append("[realtime] feed \"\(id.prefix(40))\" is named by two tables: give each feed's sources once")
        }
        if mode == .online && !hasTripUpdates { result.append("[realtime] mode = \"online\" needs trip_updates") }
        return result
    }
}
