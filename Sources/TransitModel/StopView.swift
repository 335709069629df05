import Foundation

/// Everything a passenger sees about one stop at one moment. The kiosk screen, `kiosk lookup` text and
/// `kiosk lookup --json` are three renderings of this one value, so they can never disagree.
///
/// Field names are part of the JSON contract documented in the README: add fields, never rename them.
public struct StopView: Sendable, Codable, Equatable {
    /// At most this many alerts are shown with a stop (the most severe and most specific), then "and N more":
    /// a feed may put thousands on one stop, and a screen, a page or a voice can carry a few.
    public static let maximumAlertsShown = 5

    public var stop: StopInfo
    /// The boarding platforms the view covers: the stop itself, or every platform of a station.
    public var platforms: [StopInfo]
    public var at: Date
    public var windowMinutes: Int
    public var timeZone: String
    /// The service date whose first and last departures `serviceSpans` gives.
    public var serviceDate: String
    public var routes: [RouteAtStop]
    /// Departures in [at, at + window], sorted by time.
    public var departures: [Departure]
    public var serviceSpans: [ServiceSpan]
    /// When `departures` is empty: the first departure after the window (nil when none in the next week).
    public var nextDeparture: Departure?
    public var nearby: [NearbyStop]
    public var nearbyRadiusMeters: Int
    /// Service alerts in force for this stop, its routes or the agency (nil: built without live data).
    public var alerts: [StopAlert]?
    /// Alerts in force here beyond the `maximumAlertsShown` in `alerts` (nil: none left out).
    public var alertsNotShown: Int?
    /// How old the live data behind `departures` is, in seconds (nil: built without live data).
    public var realtimeAgeSeconds: Int?
    /// Whether live data is in force (nil: built without live data).
    public var realtimeStatus: LiveDataStatus?
    /// When the live data is not in force: the moment of the last live data there was (nil: never any).
    public var realtimeUnavailableSince: Date?

    enum CodingKeys: String, CodingKey {
        case stop, platforms, at, windowMinutes = "window_minutes", timeZone = "time_zone",
            serviceDate = "service_date", routes, departures, serviceSpans = "service_spans",
            nextDeparture = "next_departure", nearby, nearbyRadiusMeters = "nearby_radius_meters", alerts,
            alertsNotShown = "alerts_not_shown",
            realtimeAgeSeconds = "realtime_age_seconds", realtimeStatus = "realtime_status",
            realtimeUnavailableSince = "realtime_unavailable_since"
    }

    public init(
        stop: StopInfo, platforms: [StopInfo], at: Date, windowMinutes: Int, timeZone: String, serviceDate: String,
        routes: [RouteAtStop], departures: [Departure], serviceSpans: [ServiceSpan], nextDeparture: Departure?,
        nearby: [NearbyStop], nearbyRadiusMeters: Int, alerts: [StopAlert]? = nil, realtimeAgeSeconds: Int? = nil
    ) {
        self.stop = stop
        self.platforms = platforms
        self.at = at
        self.windowMinutes = windowMinutes
        self.timeZone = timeZone
        self.serviceDate = serviceDate
        self.routes = routes
        self.departures = departures
        self.serviceSpans = serviceSpans
        self.nextDeparture = nextDeparture
        self.nearby = nearby
        self.nearbyRadiusMeters = nearbyRadiusMeters
        self.alerts = alerts
        self.realtimeAgeSeconds = realtimeAgeSeconds
    }
}

public enum WheelchairAccess: String, Sendable, Codable {
    case unknown, accessible, notAccessible = "not_accessible"

    /// GTFS `wheelchair_boarding` / `wheelchair_accessible`: 0 or empty unknown, 1 yes, 2 no.
    public init(gtfs value: Int) {
        switch value {
        case 1: self = .accessible
        case 2: self = .notAccessible
        default: self = .unknown
        }
    }
}

public struct StopInfo: Sendable, Codable, Equatable, Hashable {
    public var id: String
    public var code: String?
    public var name: String
    public var parentStationID: String?
    public var parentStationName: String?
    public var platformCode: String?
    public var wheelchairBoarding: WheelchairAccess
    public var latitude: Double?
    public var longitude: Double?
    /// 0 stop or platform, 1 station, 2 entrance (GTFS `location_type`).
    public var locationType: Int
    /// In a database of several feeds, the feed the stop (and its parent station) belongs to (`metro` for
    /// `metro:1`); nil, and absent from the JSON, in a database of one feed.
    public var feedID: String?

    enum CodingKeys: String, CodingKey {
        case id, code, name, parentStationID = "parent_station_id", parentStationName = "parent_station_name",
            platformCode = "platform_code", wheelchairBoarding = "wheelchair_boarding", latitude, longitude,
            locationType = "location_type", feedID = "feed_id"
    }

    public init(
        id: String, code: String?, name: String, parentStationID: String?, parentStationName: String?,
        platformCode: String?,
        wheelchairBoarding: WheelchairAccess, latitude: Double?, longitude: Double?, locationType: Int,
        feedID: String? = nil
    ) {
        self.id = id
        self.code = code
        self.name = name
        self.parentStationID = parentStationID
        self.parentStationName = parentStationName
        self.platformCode = platformCode
        self.wheelchairBoarding = wheelchairBoarding
        self.latitude = latitude
        self.longitude = longitude
        self.locationType = locationType
        self.feedID = feedID
    }

    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

public struct RouteInfo: Sendable, Codable, Equatable, Hashable {
    public var id: String
    public var shortName: String?
    public var longName: String?
    public var mode: RouteMode
    /// Six hex digits without '#', as in GTFS; nil when the feed gives none.
    public var color: String?
    public var textColor: String?
    public var agency: String
    /// In a database of several feeds, the feed the route belongs to; nil (absent from the JSON) with one feed.
    public var feedID: String?

    enum CodingKeys: String, CodingKey {
        case id, shortName = "short_name", longName = "long_name", mode, color, textColor = "text_color", agency,
            feedID = "feed_id"
    }

    public init(
        id: String, shortName: String?, longName: String?, mode: RouteMode, color: String?, textColor: String?,
        agency: String, feedID: String? = nil
    ) {
        self.id = id
        self.shortName = shortName
        self.longName = longName
        self.mode = mode
        self.color = color
        self.textColor = textColor
        self.agency = agency
        self.feedID = feedID
    }

    /// What fits on a badge: the short name, else the long name.
    public var label: String { shortName ?? longName ?? id }
}

public struct RouteAtStop: Sendable, Codable, Equatable {
    public struct Direction: Sendable, Codable, Equatable {
        /// GTFS `direction_id` (0 or 1), nil when the feed does not say.
        public var directionID: Int?
        public var headsigns: [String]

        enum CodingKeys: String, CodingKey {
            case directionID = "direction_id", headsigns
        }

        public init(directionID: Int?, headsigns: [String]) {
            self.directionID = directionID
            self.headsigns = headsigns
        }
    }

    public var route: RouteInfo
    public var directions: [Direction]

    public init(route: RouteInfo, directions: [Direction]) {
        self.route = route
        self.directions = directions
    }
}

public struct Departure: Sendable, Codable, Equatable {
    public var route: RouteInfo
    /// The headsign as the feed gives it for this stop time (stop_headsign, else trip_headsign; may be empty).
    public var headsign: String
    /// Where the trip goes, as every surface shows it (`TripDestination`): never empty, without the route's own
    /// short name repeated in front.
    public var destination: String
    /// The trip's own number where the feed gives one (`trip_short_name`, a train number), shown beside the route.
    public var tripShortName: String?
    public var directionID: Int?
    /// The scheduled departure instant.
    public var time: Date
    /// Whole minutes from the view's `at` (0 = leaving now).
    public var minutesFromNow: Int
    public var tripID: String
    /// The service date the trip belongs to (`YYYY-MM-DD`); differs from the calendar date after midnight.
    public var serviceDate: String
    /// The time as the feed writes it, counted from the service date (`25:10:00`).
    public var scheduledTime: String
    public var wheelchairAccessible: WheelchairAccess
    /// The platform it leaves from (one of the view's `platforms`).
    public var stopID: String
    public var platformCode: String?
    /// From a frequency-based trip with `exact_times` 0: the time is an estimate from the headway.
    public var approximate: Bool
    /// Live state and prediction (nil: built without live data). `time` stays the timetable time.
    public var realtime: DepartureRealtime?
    /// In a database of several feeds, the feed of `trip_id` and `stop_id` (a trip runs on its own feed's route
    /// and stops: the route's feed); nil, and absent from the JSON, with one feed.
    public var feedID: String?

    enum CodingKeys: String, CodingKey {
        case route, headsign, destination, tripShortName = "trip_short_name", directionID = "direction_id", time,
            minutesFromNow = "minutes_from_now", tripID = "trip_id", serviceDate = "service_date", scheduledTime = "scheduled_time",
            wheelchairAccessible = "wheelchair_accessible", stopID = "stop_id", platformCode = "platform_code",
            approximate, realtime, feedID = "feed_id"
    }

    public init(
        route: RouteInfo, headsign: String, directionID: Int?, time: Date, minutesFromNow: Int, tripID: String,
        serviceDate: String,
        scheduledTime: String, wheelchairAccessible: WheelchairAccess, stopID: String, platformCode: String?,
        approximate: Bool,
        realtime: DepartureRealtime? = nil, destination: String? = nil, tripShortName: String? = nil
    ) {
        self.route = route
        self.headsign = headsign
        self.destination = destination ?? TripDestination.named(headsign: headsign, lastStopName: nil, route: route)
        self.tripShortName = tripShortName
        self.directionID = directionID
        self.time = time
        self.minutesFromNow = minutesFromNow
        self.tripID = tripID
        self.serviceDate = serviceDate
        self.scheduledTime = scheduledTime
        self.wheelchairAccessible = wheelchairAccessible
        self.stopID = stopID
        self.platformCode = platformCode
        self.approximate = approximate
        self.realtime = realtime
        self.feedID = route.feedID
    }
}

/// The first and last departure of one route in one direction on the view's service date.
public struct ServiceSpan: Sendable, Codable, Equatable {
    public var route: RouteInfo
    public var directionID: Int?
    public var headsigns: [String]
    public var first: Date
    public var last: Date

    enum CodingKeys: String, CodingKey {
        case route, directionID = "direction_id", headsigns, first, last
    }

    public init(route: RouteInfo, directionID: Int?, headsigns: [String], first: Date, last: Date) {
        self.route = route
        self.directionID = directionID
        self.headsigns = headsigns
        self.first = first
        self.last = last
    }
}

public struct NearbyStop: Sendable, Codable, Equatable {
    public var stop: StopInfo
    public var distanceMeters: Int
    public var direction: CompassPoint
    /// Labels of the routes that board there.
    public var routes: [String]

    enum CodingKeys: String, CodingKey {
        case stop, distanceMeters = "distance_meters", direction, routes
    }

    public init(stop: StopInfo, distanceMeters: Int, direction: CompassPoint, routes: [String]) {
        self.stop = stop
        self.distanceMeters = distanceMeters
        self.direction = direction
        self.routes = routes
    }
}
