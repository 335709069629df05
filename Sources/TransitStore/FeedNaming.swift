import GRDB
import TransitModel

extension RouteDatabase {
    /// A row of `stopColumns` as a `StopInfo`, naming its feed (`feedID`) in a database of several feeds. Every
    /// stop an answer shows is read through this; the static `stopInfo(_:)` leaves the feed unnamed (the import's
    /// name index, which keeps names and ids only).
    func stopInfo(_ row: Row) -> StopInfo {
        var stop = Self.stopInfo(row)
        stop.feedID = namespaces.feedID(of: stop.id)
        return stop
    }
}
