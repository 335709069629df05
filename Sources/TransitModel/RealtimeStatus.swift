import Foundation

/// What live data says about one departure (`realtime` in a stop view's JSON). Absent when the view was built
/// without live data; `scheduled` when live data is in force but says nothing about this departure's time.
public struct DepartureRealtime: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable {
        /// No live prediction for this departure: the timetable time stands.
        case scheduled
        /// A live prediction: `predictedTime`, `delaySeconds` later than the timetable.
        case updated
        /// The whole trip is cancelled.
        case canceled
        /// The trip runs but does not stop here.
        case skipped
        /// A trip the timetable does not have, shown with its own live times.
        case added
    }

    public var state: State
    /// Predicted minus scheduled departure, in seconds (negative: early). Absent for added trips and when unknown.
    public var delaySeconds: Int?
    /// The predicted departure instant, when there is a prediction.
    public var predictedTime: Date?

    enum CodingKeys: String, CodingKey {
        case state, delaySeconds = "delay_seconds", predictedTime = "predicted_time"
    }

    public init(state: State, delaySeconds: Int? = nil, predictedTime: Date? = nil) {
        self.state = state
        self.delaySeconds = delaySeconds
        self.predictedTime = predictedTime
    }
}

/// A service alert that applies to a stop view: to the stop, one of its routes, or the agency.
/// Texts are in the passenger's language when the feed has that translation.
public struct StopAlert: Sendable, Codable, Equatable {
    /// The feed entity's id.
    public var id: String
    public var header: String
    public var description: String?
    public var url: String?
    /// The language of `header` as the feed tags it (BCP 47), absent when untagged.
    public var language: String?
    /// GTFS-Realtime cause and effect, lower snake case (`medical_emergency`, `significant_delays`).
    public var cause: String
    public var effect: String
    /// `unknown_severity`, `info`, `warning` or `severe`.
    public var severity: String
    /// What it was selected by: `stop`, `route`, `trip`, `route_type` or `agency`.
    public var scope: String
    /// The active period in force at the view's moment; absent ends are open.
    public var activeFrom: Date?
    public var activeUntil: Date?

    enum CodingKeys: String, CodingKey {
        case id, header, description, url, language, cause, effect, severity, scope, activeFrom = "active_from",
            activeUntil = "active_until"
    }

    public init(
        id: String, header: String, description: String?, url: String?, language: String?, cause: String,
        effect: String,
        severity: String, scope: String, activeFrom: Date?, activeUntil: Date?
    ) {
        self.id = id
        self.header = header
        self.description = description
        self.url = url
        self.language = language
        self.cause = cause
        self.effect = effect
        self.severity = severity
        self.scope = scope
        self.activeFrom = activeFrom
        self.activeUntil = activeUntil
    }
}

/// Whether a stop view's departures carry live data (`realtime_status` in its JSON).
public enum LiveDataStatus: String, Sendable, Codable {
    /// Live data is fresh: departures carry predictions where the feed has them.
    case live
    /// Live data is missing or too old: the departures are the timetable's (mixed mode).
    case stale
    /// Live data is missing or too old and the kiosk shows live departures only (online mode): none shown.
    case withheld
}

extension Departure {
    /// When the passenger should expect it: the prediction when there is one, else the timetable time.
    public var expectedTime: Date { realtime?.predictedTime ?? time }
}
