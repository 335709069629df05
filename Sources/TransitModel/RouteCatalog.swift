import Foundation

/// The network's operators and their routes, as `kiosk routes` prints them and `/api/v1/routes` will serve them:
/// agencies in feed order, each with its routes in the feed's order (`route_sort_order`, then short names in
/// natural order: "2" before "10").
///
/// Field names are part of the JSON contract: add fields, never rename them.
public struct RouteCatalog: Sendable, Codable, Equatable {
    /// The `--agency` filter as given (nil: every agency).
    public var agencyFilter: String?
    /// The `--search` text as given (nil: no search).
    public var search: String?
    public var agencies: [AgencyRoutes]

    enum CodingKeys: String, CodingKey {
        case agencyFilter = "agency_filter", search, agencies
    }

    public init(agencyFilter: String?, search: String?, agencies: [AgencyRoutes]) {
        self.agencyFilter = agencyFilter
        self.search = search
        self.agencies = agencies
    }

    /// How many routes the catalog lists, over all agencies.
    public var routeCount: Int { agencies.reduce(0) { $0 + $1.routes.count } }
}

/// One operator and the routes it runs (only those matching a search, when there was one).
public struct AgencyRoutes: Sendable, Codable, Equatable {
    public var agency: AgencyInfo
    public var routes: [RouteInfo]

    public init(agency: AgencyInfo, routes: [RouteInfo]) {
        self.agency = agency
        self.routes = routes
    }
}

/// An operator as agency.txt describes it: what a passenger needs to contact it.
public struct AgencyInfo: Sendable, Codable, Equatable, Hashable {
    /// `agency_id` (empty when a single-agency feed gives none).
    public var id: String
    public var name: String
    public var url: String?
    public var phone: String?
    /// In a database of several feeds, the feed the agency belongs to; nil (absent from the JSON) with one feed.
    public var feedID: String?

    enum CodingKeys: String, CodingKey {
        case id, name, url, phone, feedID = "feed_id"
    }

    public init(id: String, name: String, url: String?, phone: String?, feedID: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.phone = phone
        self.feedID = feedID
    }
}

/// Parts of the service day a route's headways are given for, in seconds from the service day's origin (noon
/// minus twelve hours). Night runs from 20:00 to 06:00 and so covers both the day's early hours (before 06:00)
/// and its late ones (20:00 and after, including GTFS times past 24:00).
public enum DayPeriod: String, Sendable, Codable, CaseIterable {
    case morningPeak = "morning_peak", midday, evening, night

    /// [start, end) in hours of the service day; night wraps (20 → 6).
    public var hours: (start: Int, end: Int) {
        switch self {
        case .morningPeak: return (6, 9)
        case .midday: return (9, 16)
        case .evening: return (16, 20)
        case .night: return (20, 6)
        }
    }

    /// The period a departure `seconds` after the service day's origin falls in (hours past 24 count as the
    /// next morning's: 25:00 is night, 30:30 morning peak).
    public static func containing(seconds: Int) -> DayPeriod {
        let hour = (seconds / 3600) % 24
        switch hour {
        case 6..<9: return .morningPeak
        case 9..<16: return .midday
        case 16..<20: return .evening
        default: return .night
        }
    }
}

/// A route in full for one service date: each direction's stops in travel order, its branches, and when and how
/// often it runs that day; with the operator's contact. `kiosk route` prints it; `/api/v1/routes/{id}` will
/// serve it.
///
/// Field names are part of the JSON contract: add fields, never rename them.
public struct RouteDetail: Sendable, Codable, Equatable {
    public var route: RouteInfo
    public var agency: AgencyInfo
    /// The date the first/last trips and headways are for (`YYYY-MM-DD`).
    public var serviceDate: String
    public var timeZone: String
    public var directions: [RouteDirection]

    enum CodingKeys: String, CodingKey {
        case route, agency, serviceDate = "service_date", timeZone = "time_zone", directions
    }

    public init(
        route: RouteInfo, agency: AgencyInfo, serviceDate: String, timeZone: String, directions: [RouteDirection]
    ) {
        self.route = route
        self.agency = agency
        self.serviceDate = serviceDate
        self.timeZone = timeZone
        self.directions = directions
    }
}

/// One direction of a route: the stops of its longest stop pattern in travel order, how the other patterns
/// differ from it, and its service on the detail's date.
public struct RouteDirection: Sendable, Codable, Equatable {
    /// GTFS `direction_id` (0 or 1), nil when the feed does not say.
    public var directionID: Int?
    /// The headsign of the longest pattern (its most common one; the last stop's name when the feed gives none).
    public var headsign: String
    /// The longest pattern's boarding and alighting stops, in travel order.
    public var stops: [StopInfo]
    /// The other patterns, where they differ from `stops`.
    public var branches: [RouteBranch]
    /// Trips in this direction on the date (frequency-based trips counted once per departure).
    public var tripsOnDate: Int
    /// The first and last trip's departure from its first stop, as the feed writes it (`05:30:00`, `25:10:00`);
    /// nil when no trip runs on the date.
    public var firstDeparture: String?
    public var lastDeparture: String?
    /// One entry per period of the day, in `DayPeriod` order (morning peak, midday, evening, night).
    public var headways: [PeriodHeadway]

    enum CodingKeys: String, CodingKey {
        case directionID = "direction_id", headsign, stops, branches, tripsOnDate = "trips_on_date",
            firstDeparture = "first_departure", lastDeparture = "last_departure", headways
    }

    public init(
        directionID: Int?, headsign: String, stops: [StopInfo], branches: [RouteBranch], tripsOnDate: Int,
        firstDeparture: String?, lastDeparture: String?, headways: [PeriodHeadway]
    ) {
        self.directionID = directionID
        self.headsign = headsign
        self.stops = stops
        self.branches = branches
        self.tripsOnDate = tripsOnDate
        self.firstDeparture = firstDeparture
        self.lastDeparture = lastDeparture
        self.headways = headways
    }
}

/// A stop pattern other than the longest, described by how it differs: it starts or ends at another stop
/// (a short working: "some trips start at X"), and the stops it serves that the longest does not (a branch).
public struct RouteBranch: Sendable, Codable, Equatable {
    public var headsign: String
    /// Trips with this pattern, over the whole feed.
    public var trips: Int
    /// Its first stop, when that is not the longest pattern's first stop.
    public var startsAt: StopInfo?
    /// Its last stop, when that is not the longest pattern's last stop.
    public var endsAt: StopInfo?
    /// Its stops the longest pattern does not serve, in travel order.
    public var otherStops: [StopInfo]

    enum CodingKeys: String, CodingKey {
        case headsign, trips, startsAt = "starts_at", endsAt = "ends_at", otherStops = "other_stops"
    }

    public init(headsign: String, trips: Int, startsAt: StopInfo?, endsAt: StopInfo?, otherStops: [StopInfo]) {
        self.headsign = headsign
        self.trips = trips
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.otherStops = otherStops
    }
}

/// How often a direction runs in one period of the day: the departures from each trip's first stop in the period,
/// and the typical (median) gap between consecutive ones. A frequencies.txt period counts as departures every
/// `headway_secs`, so its headway is the feed's.
public struct PeriodHeadway: Sendable, Codable, Equatable {
    public var period: DayPeriod
    public var departures: Int
    /// Median gap in whole minutes (nil with fewer than two departures in the period).
    public var typicalMinutes: Int?
    public var shortestMinutes: Int?
    public var longestMinutes: Int?

    enum CodingKeys: String, CodingKey {
        case period, departures, typicalMinutes = "typical_minutes", shortestMinutes = "shortest_minutes",
            longestMinutes = "longest_minutes"
    }

    public init(period: DayPeriod, departures: Int, typicalMinutes: Int?, shortestMinutes: Int?, longestMinutes: Int?) {
        self.period = period
        self.departures = departures
        self.typicalMinutes = typicalMinutes
        self.shortestMinutes = shortestMinutes
        self.longestMinutes = longestMinutes
    }
}
