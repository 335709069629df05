import Foundation

/// One stop pattern of a route: the trips of one direction that call at the same stops in the same order, with
/// how many trips follow it and the path they run (the most common shape among them).
///
/// Field names are part of the JSON contract (`/api/v1/routes/{id}`): add fields, never rename them.
public struct RoutePattern: Sendable, Codable, Equatable {
    /// GTFS `direction_id` (0 or 1), nil when the feed does not say.
    public var directionID: Int?
    /// The pattern's most common headsign (its last stop's name when the feed gives none).
    public var headsign: String
    /// Trips with this pattern, over the whole feed.
    public var trips: Int
    /// True for the pattern `RouteDetail` lists each direction's stops from (most stops; ties: most trips).
    public var main: Bool
    /// Its stops' IDs in travel order.
    public var stopIDs: [String]
    /// The `shape_id` its path comes from (nil: no shape; drawn stop to stop).
    public var shapeID: String?

    enum CodingKeys: String, CodingKey {
        case directionID = "direction_id", headsign, trips, main, stopIDs = "stop_ids", shapeID = "shape_id"
    }

    public init(directionID: Int?, headsign: String, trips: Int, main: Bool, stopIDs: [String], shapeID: String?) {
        self.directionID = directionID
        self.headsign = headsign
        self.trips = trips
        self.main = main
        self.stopIDs = stopIDs
        self.shapeID = shapeID
    }
}

/// A route's map: every stop pattern's path (the main ones drawn strongest), every stop it serves, and the
/// viewer's stop when the map is asked for from a stop.
public struct RouteMap: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var pattern: RoutePattern
        public var points: [Coordinate]
        /// False: the pattern's trips have no shape, and the line joins its stops.
        public var fromShape: Bool

        public init(pattern: RoutePattern, points: [Coordinate], fromShape: Bool) {
            self.pattern = pattern
            self.points = points
            self.fromShape = fromShape
        }
    }

    public struct Stop: Sendable, Equatable {
        public var stop: StopInfo
        public var coordinate: Coordinate
        /// First or last stop of a main pattern.
        public var terminal: Bool
        /// Served by a main pattern (else only by a variant).
        public var onMain: Bool
        /// Its place along the main pattern it is on (0-based; variants' own stops after them), for spreading the
        /// named stops evenly along the line.
        public var order: Int

        public init(stop: StopInfo, coordinate: Coordinate, terminal: Bool, onMain: Bool, order: Int) {
            self.stop = stop
            self.coordinate = coordinate
            self.terminal = terminal
            self.onMain = onMain
            self.order = order
        }
    }

    public var route: RouteInfo
    public var lines: [Line]
    /// Every stop with coordinates the route serves, once each.
    public var stops: [Stop]
    /// IDs of the viewer's stop and its platforms (empty: the map was not asked for from a stop).
    public var highlighted: Set<String>
    /// The viewer's stop as asked for, when it is given (whether or not the route serves it).
    public var viewer: StopInfo?

    public init(route: RouteInfo, lines: [Line], stops: [Stop], highlighted: Set<String>, viewer: StopInfo?) {
        self.route = route
        self.lines = lines
        self.stops = stops
        self.highlighted = highlighted
        self.viewer = viewer
    }
}

/// When a route runs over one week: the days that run the same trips grouped into day types ("Monday to Friday",
/// "Saturday", "Sunday", a holiday on its own), each with its trips, first and last per direction.
///
/// Field names are part of the JSON contract: add fields, never rename them.
public struct RouteWeek: Sendable, Codable, Equatable {
    /// The Monday of the week (`YYYY-MM-DD`).
    public var weekStart: String
    public var dayTypes: [RouteDayType]

    enum CodingKeys: String, CodingKey { case weekStart = "week_start", dayTypes = "day_types" }

    public init(weekStart: String, dayTypes: [RouteDayType]) {
        self.weekStart = weekStart
        self.dayTypes = dayTypes
    }
}

/// Days of the week on which the route runs exactly the same trips.
public struct RouteDayType: Sendable, Codable, Equatable {
    /// ISO weekdays, 1 = Monday … 7 = Sunday, ascending.
    public var weekdays: [Int]
    /// The dates (`YYYY-MM-DD`).
    public var dates: [String]
    /// False for days outside the feed's calendar (nothing is known about them).
    public var inFeed: Bool
    /// Per direction with trips on these days; empty when the route does not run.
    public var directions: [RouteDayService]

    enum CodingKeys: String, CodingKey { case weekdays, dates, inFeed = "in_feed", directions }

    public init(weekdays: [Int], dates: [String], inFeed: Bool, directions: [RouteDayService]) {
        self.weekdays = weekdays
        self.dates = dates
        self.inFeed = inFeed
        self.directions = directions
    }
}

/// One direction's service on a day type: trips, and the first and last departure from each trip's first stop
/// as the feed writes them (`05:30:00`, `25:10:00`).
public struct RouteDayService: Sendable, Codable, Equatable {
    public var directionID: Int?
    public var trips: Int
    public var firstDeparture: String
    public var lastDeparture: String

    enum CodingKeys: String, CodingKey {
        case directionID = "direction_id", trips, firstDeparture = "first_departure", lastDeparture = "last_departure"
    }

    public init(directionID: Int?, trips: Int, firstDeparture: String, lastDeparture: String) {
        self.directionID = directionID
        self.trips = trips
        self.firstDeparture = firstDeparture
        self.lastDeparture = lastDeparture
    }
}

/// A route's stop patterns and every stop they serve (`/api/v1/routes/{id}` lists them beside the route's detail).
public struct RoutePatterns: Sendable, Equatable {
    public var route: RouteInfo
    /// Per direction (ascending, no direction last), the main pattern first, then by trips.
    public var patterns: [RoutePattern]
    /// Every stop of every pattern, once, in the order the patterns first reach it.
    public var stops: [StopInfo]

    public init(route: RouteInfo, patterns: [RoutePattern], stops: [StopInfo]) {
        self.route = route
        self.patterns = patterns
        self.stops = stops
    }
}
