import Foundation
import TransitModel

extension LiveTimetable {
    /// Every matched trip instance with its trip_id, for a journey planner applying the feed to its timetable
    /// (the same states, delays and skipped stops the board reads).
    public var allLiveTrips: some Sequence<(tripID: String, trip: LiveTrip)> {
        trips.lazy.flatMap { entry in entry.value.lazy.map { (tripID: entry.key, trip: $0) } }
    }
}
