import Foundation

/// A TripUpdate as the matcher reads it, kept compactly. swift-protobuf gives every decoded message its own storage
/// and extension map: a stop time update of ~20 bytes on the wire costs hundreds in memory, so a large feed held
/// as messages needs gigabytes. Each entity is turned into this record as soon as it is decoded, and the message
/// is dropped. The field names are the protobuf's, so the matcher reads either the same way.
public struct TripUpdateRecord: Sendable, Equatable {
    /// One StopTimeEvent: an absolute time and/or a delay (56 bytes for a whole stop time update).
    public struct Event: Sendable, Equatable {
        public private(set) var time: Int64 = 0
        public private(set) var delay: Int32 = 0
        private var present: UInt8 = 0

        public var hasTime: Bool { present & 1 != 0 }
        public var hasDelay: Bool { present & 2 != 0 }

        init(_ event: TransitRealtime_TripUpdate.StopTimeEvent) {
            if event.hasTime { time = event.time; present |= 1 }
            if event.hasDelay { delay = event.delay; present |= 2 }
        }

        init() {}
    }

    public struct StopTimeUpdate: Sendable, Equatable {
        public private(set) var stopID: String = ""
        public private(set) var arrival = Event()
        public private(set) var departure = Event()
        public private(set) var stopSequence: UInt32 = 0
        public private(set) var scheduleRelationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship =
            .scheduled
        private var present: UInt8 = 0

        public var hasStopID: Bool { present & 1 != 0 }
        public var hasStopSequence: Bool { present & 2 != 0 }
        public var hasArrival: Bool { present & 4 != 0 }
        public var hasDeparture: Bool { present & 8 != 0 }

        mutating func prefixStopID(_ prefix: String) {
            if hasStopID, !stopID.isEmpty { stopID = prefix + stopID }
        }

        init(_ update: TransitRealtime_TripUpdate.StopTimeUpdate) {
            if update.hasStopID { stopID = update.stopID; present |= 1 }
            if update.hasStopSequence { stopSequence = update.stopSequence; present |= 2 }
            if update.hasArrival { arrival = Event(update.arrival); present |= 4 }
            if update.hasDeparture { departure = Event(update.departure); present |= 8 }
            scheduleRelationship = update.scheduleRelationship
        }
    }

    /// The TripDescriptor: absent text fields are nil.
    public struct Trip: Sendable, Equatable {
        public var tripID: String?
        public var routeID: String?
        public var directionID: UInt32?
        public var startTime: String?
        public var startDate: String?
        public var scheduleRelationship: TransitRealtime_TripDescriptor.ScheduleRelationship

        init(_ trip: TransitRealtime_TripDescriptor) {
            tripID = trip.hasTripID ? trip.tripID : nil
            routeID = trip.hasRouteID ? trip.routeID : nil
            directionID = trip.hasDirectionID ? trip.directionID : nil
            startTime = trip.hasStartTime ? trip.startTime : nil
            startDate = trip.hasStartDate ? trip.startDate : nil
            scheduleRelationship = trip.scheduleRelationship
        }
    }

    public var trip: Trip
    public var stopTimeUpdate: [StopTimeUpdate]
    /// The trip-level delay and the update's own timestamp, when given.
    public var delay: Int32?
    public var timestamp: UInt64?
    /// TripProperties.trip_headsign, for ADDED trips.
    public var tripHeadsign: String?
    /// The entity was flagged `is_deleted` (DIFFERENTIAL feeds): counted, never applied.
    public var isDeleted: Bool

    /// Reads the update's trip, route and stop ids in a static feed's namespace (`prefix` "metro:").
    mutating func prefixIDs(_ prefix: String) {
        if let id = trip.tripID, !id.isEmpty { trip.tripID = prefix + id }
        if let id = trip.routeID, !id.isEmpty { trip.routeID = prefix + id }
        for index in stopTimeUpdate.indices { stopTimeUpdate[index].prefixStopID(prefix) }
    }

    public init(_ update: TransitRealtime_TripUpdate, isDeleted: Bool = false) {
        trip = Trip(update.trip)
        stopTimeUpdate = update.stopTimeUpdate.map(StopTimeUpdate.init)
        delay = update.hasDelay ? update.delay : nil
        timestamp = update.hasTimestamp ? update.timestamp : nil
        tripHeadsign =
            update.hasTripProperties && update.tripProperties.hasTripHeadsign ? update.tripProperties.tripHeadsign : nil
        self.isDeleted = isDeleted
    }
}
