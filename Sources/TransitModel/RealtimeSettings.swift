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

/// The `[realtime]` section of a kiosk's config, as values (the TOML reading lives with the rest of the
/// config): where the three feeds come from, how often they are polled, the mode, and request headers
/// (API keys). A source is a local file path or an http(s):// URL.
public struct RealtimeSettings: Sendable, Equatable {
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

    /// Whether any feed is configured.
    public var hasFeeds: Bool { tripUpdates != nil || !alertFeeds.isEmpty || vehiclePositions != nil }

    /// Every configured source with its key, each once per kind (`trip_updates`, `alerts`, `vehicle_positions`).
    public var sources: [(key: String, source: String)] {
        (tripUpdates.map { [("trip_updates", $0)] } ?? []) + alertFeeds.map { ("alerts", $0) }
            + (vehiclePositions.map { [("vehicle_positions", $0)] } ?? [])
    }

    public init(
        tripUpdates: String? = nil, alerts: String? = nil, vehiclePositions: String? = nil,
        pollSeconds: Int = RealtimeSettings.defaultPollSeconds, mode: RealtimeMode = .mixed,
        headers: [String: String] = [:], moreAlerts: [String] = []
    ) {
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
        for (key, value) in sources {
            if value.isEmpty { result.append("[realtime] \(key) is empty: give a file path or an http(s):// URL") }
            if value.contains("://") && !(value.hasPrefix("http://") || value.hasPrefix("https://")) {
                result.append("[realtime] \(key) '\(value.prefix(60))' is neither a file path nor an http(s):// URL")
            }
        }
        for (index, source) in alertFeeds.enumerated() where alertFeeds[..<index].contains(source) {
            result.append("[realtime] alerts names '\(source.prefix(60))' twice")
        }
        for name in headers.keys
        where name.isEmpty || name.contains(where: { $0 == ":" || $0.isWhitespace || !$0.isASCII }) {
            result.append("[realtime] headers: '\(name.prefix(40))' is not a valid HTTP header name")
        }
        for (name, value) in headers where value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            result.append("[realtime] headers: the value of '\(name.prefix(40))' contains a line break")
        }
        if mode == .online && tripUpdates == nil { result.append("[realtime] mode = \"online\" needs trip_updates") }
        return result
    }
}
