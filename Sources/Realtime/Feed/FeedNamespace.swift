import Foundation
import TransitModel
import TransitStore

extension RealtimeFeed {
    /// Reads the feed's ids in the namespace of the static feed it belongs to: in a route database of several
    /// feeds, trip `T1` of feed `metro` is `metro:T1`, so every trip_id, route_id, stop_id and agency_id the feed
    /// names (trip updates, vehicle positions, alerts' informed entities) gains the prefix, and is then matched
    /// in that feed only. An empty prefix (a database of one feed) leaves the feed as it is, and so does a staff
    /// messages file, which names stops and routes with the database's own ids.
    public mutating func readInNamespace(_ prefix: String) {
        guard !prefix.isEmpty, !isStaffMessages else { return }
        for index in tripUpdates.indices { tripUpdates[index].prefixIDs(prefix) }
        func prefixed(_ id: String) -> String { id.isEmpty ? id : prefix + id }
        func namespace(_ trip: inout TransitRealtime_TripDescriptor) {
            if trip.hasTripID { trip.tripID = prefixed(trip.tripID) }
            if trip.hasRouteID { trip.routeID = prefixed(trip.routeID) }
        }
        for index in message.entity.indices {
            if message.entity[index].hasVehicle {
                if message.entity[index].vehicle.hasTrip { namespace(&message.entity[index].vehicle.trip) }
                if message.entity[index].vehicle.hasStopID {
                    message.entity[index].vehicle.stopID = prefixed(message.entity[index].vehicle.stopID)
                }
            }
            if message.entity[index].hasAlert {
                for selector in message.entity[index].alert.informedEntity.indices {
                    var entity = message.entity[index].alert.informedEntity[selector]
                    if entity.hasAgencyID { entity.agencyID = prefixed(entity.agencyID) }
                    if entity.hasRouteID { entity.routeID = prefixed(entity.routeID) }
                    if entity.hasStopID { entity.stopID = prefixed(entity.stopID) }
                    if entity.hasTrip { namespace(&entity.trip) }
                    message.entity[index].alert.informedEntity[selector] = entity
                }
            }
        }
    }

    /// The feed read in a namespace (see `readInNamespace`).
    public func inNamespace(_ prefix: String) -> RealtimeFeed {
        var copy = self
        copy.readInNamespace(prefix)
        return copy
    }
}

/// A realtime publisher (`[realtime]` or one `[[realtime.feeds]]` table) bound to the route database: its
/// sources and the prefix its ids take there.
public struct RealtimeBinding: Sendable, Equatable {
    public var sources: RealtimeFeedSources
    /// "metro:" in a database of several feeds; "" in a database of one, and for alerts given in the
    /// database's own ids (`[realtime] alerts` beside `[[realtime.feeds]]`: the staff messages file).
    public var idPrefix: String

    public init(sources: RealtimeFeedSources, idPrefix: String) {
        self.sources = sources
        self.idPrefix = idPrefix
    }

    /// The static feed's id, or nil.
    public var feedID: String? { sources.feed }

    /// How reports name the publisher: "metro", or "" for the only one without a feed.
    public var name: String { sources.feed ?? "" }
}

/// A `[realtime]` config that does not fit the route database: names the key, the feed id and the database's
/// feeds.
public struct RealtimeBindingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var problem: String

    public var description: String { "\(key): \(problem)" }
}

extension RealtimeSettings {
    /// Each publisher with the namespace its ids are read in. Refused: a feed id the database does not hold, and,
    /// in a database of several feeds, trip updates or vehicle positions that name no feed (their ids could not
    /// be matched). A database written before feeds were recorded accepts any feed id, with no prefix.
    public func bind(to database: RouteDatabase) throws(RealtimeBindingError) -> [RealtimeBinding] {
        try bind(feeds: database.feeds, databasePath: database.path)
    }

    public func bind(feeds: [FeedRecord], databasePath: String) throws(RealtimeBindingError) -> [RealtimeBinding] {
        let ids = feeds.map(\.id)
        let listed = ids.map { "'\($0)'" }.joined(separator: ", ")
        let several = feeds.contains { !$0.idPrefix.isEmpty }
        var result: [RealtimeBinding] = []
        for publisher in publishers where publisher.hasFeeds {
            if let id = publisher.feed {
                guard !feeds.isEmpty else {
                    result.append(RealtimeBinding(sources: publisher, idPrefix: ""))
                    continue
                }
                guard let record = feeds.first(where: { $0.id == id }) else {
                    throw RealtimeBindingError(
                        key: "\(publisher.key).feed",
                        problem:
                            "\"\(TerminalText.sanitize(id, maxLength: 40))\" is not a feed of the route database \(databasePath) (its feeds: \(listed)); use one of those ids, as kiosk import named them"
                    )
                }
                result.append(RealtimeBinding(sources: publisher, idPrefix: record.idPrefix))
            } else if several && (publisher.tripUpdates != nil || publisher.vehiclePositions != nil) {
                throw RealtimeBindingError(
                    key: "\(publisher.key).feed",
                    problem:
                        "is missing: the route database \(databasePath) holds several feeds (\(listed)), so the realtime feed's trip and stop ids could not be matched; name the feed it belongs to (feed = \"\(ids.first ?? "")\"), or give one [[realtime.feeds]] table per feed"
                )
            } else {
                result.append(RealtimeBinding(sources: publisher, idPrefix: ""))
            }
        }
        return result
    }
}
