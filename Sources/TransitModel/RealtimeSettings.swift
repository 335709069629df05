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
    public var alerts: String?
    public var vehiclePositions: String?
    public var pollSeconds: Int
    public var mode: RealtimeMode
    public var headers: [String: String]

    /// Seconds between polls when the config does not say.
    public static let defaultPollSeconds = 30
    /// The range `poll_seconds` may take.
    public static let pollSecondsRange = 5...3600

    /// Whether any feed is configured.
    public var hasFeeds: Bool { tripUpdates != nil || alerts != nil || vehiclePositions != nil }

    public init(
        tripUpdates: String? = nil, alerts: String? = nil, vehiclePositions: String? = nil,
        pollSeconds: Int = RealtimeSettings.defaultPollSeconds, mode: RealtimeMode = .mixed,
        headers: [String: String] = [:]
    ) {
        self.tripUpdates = tripUpdates
        self.alerts = alerts
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
        for (key, value) in [
            ("trip_updates", tripUpdates), ("alerts", alerts), ("vehicle_positions", vehiclePositions),
        ] {
            guard let value else { continue }
            if value.isEmpty { result.append("[realtime] \(key) is empty: give a file path or an http(s):// URL") }
            if value.contains("://") && !(value.hasPrefix("http://") || value.hasPrefix("https://")) {
                result.append("[realtime] \(key) '\(value.prefix(60))' is neither a file path nor an http(s):// URL")
            }
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
