import Foundation

/// A route's path as the maps draw it: the trip's shape from shapes.txt, or — when the feed has none — the
/// straight lines between its stops, which the pictures say in their text.
public struct RouteLine: Sendable, Equatable {
    public var route: RouteInfo
    public var directionID: Int?
    public var headsign: String?
    public var points: [Coordinate]
    /// False: drawn stop to stop because the trip has no shape.
    public var fromShape: Bool

    public init(route: RouteInfo, directionID: Int?, headsign: String?, points: [Coordinate], fromShape: Bool) {
        self.route = route
        self.directionID = directionID
        self.headsign = headsign
        self.points = points
        self.fromShape = fromShape
    }
}

/// Everything a stop map shows: the stop (at the centre), the boarding stops within the radius, and the
/// lines of the routes that serve the stop, clipped to what the map can show by the renderer.
public struct StopMap: Sendable, Equatable {
    public var stop: StopInfo
    public var center: Coordinate
    public var radiusMeters: Int
    public var nearby: [NearbyStop]
    public var lines: [RouteLine]

    public init(stop: StopInfo, center: Coordinate, radiusMeters: Int, nearby: [NearbyStop], lines: [RouteLine]) {
        self.stop = stop
        self.center = center
        self.radiusMeters = radiusMeters
        self.nearby = nearby
        self.lines = lines
    }
}

/// One direction of a route as a strip map: its stops in travel order, the viewer's stop, and at each stop the
/// other routes a passenger can change to.
public struct RouteDiagram: Sendable, Equatable {
    public struct Stop: Sendable, Equatable {
        public var stop: StopInfo
        /// Other routes that board here (or at another platform of the same station), in display order.
        public var transfers: [RouteInfo]

        public init(stop: StopInfo, transfers: [RouteInfo]) {
            self.stop = stop
            self.transfers = transfers
        }
    }

    public var route: RouteInfo
    public var directionID: Int?
    public var headsign: String
    public var stops: [Stop]
    /// The index in `stops` of the viewer's stop, if it is on this direction.
    public var highlighted: Int?

    public init(route: RouteInfo, directionID: Int?, headsign: String, stops: [Stop], highlighted: Int?) {
        self.route = route
        self.directionID = directionID
        self.headsign = headsign
        self.stops = stops
        self.highlighted = highlighted
    }
}

/// A journey option drawn on a map: each leg's path (rides along their shape between boarding and alighting,
/// walks as a straight line) beside the option itself, whose steps are numbered as in the text plan.
public struct JourneyMap: Sendable, Equatable {
    public struct Leg: Sendable, Equatable {
        public var step: JourneyStep
        public var points: [Coordinate]
        /// Rides only: false when the trip has no shape and the ride is drawn stop to stop.
        public var fromShape: Bool

        public init(step: JourneyStep, points: [Coordinate], fromShape: Bool) {
            self.step = step
            self.points = points
            self.fromShape = fromShape
        }
    }

    public var plan: JourneyPlan
    public var optionNumber: Int
    public var legs: [Leg]

    public init(plan: JourneyPlan, optionNumber: Int, legs: [Leg]) {
        self.plan = plan
        self.optionNumber = optionNumber
        self.legs = legs
    }
}
