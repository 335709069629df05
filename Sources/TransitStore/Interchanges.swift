import Foundation
import GRDB
import TransitModel

/// Places where several feeds' stops are the same place: a metro station and a bus operator's stop of the same
/// name a few metres apart. Each feed knows only its own stops (parent_station cannot name another feed's), so
/// the import groups them: the stop view of any member covers the platforms of every member, whichever operator
/// runs there. Members are the places a passenger asks for: stations (within `radiusMeters` of the other), and
/// boarding stops without a station (within `sameStopMeters` of another such stop).
public enum Interchanges {
    /// How far apart a station and another feed's station or stop of its name may be and still be one place.
    public static let radiusMeters = 50.0
    /// How far apart two boarding stops of one name may be and still be one stop: the two sides of a street
    /// (15–40 m apart, one name) are two stops, each feed's copy of one pole is one.
    public static let sameStopMeters = 10.0

    static let table = """
        CREATE TABLE stop_groups (
            stop_idx INTEGER PRIMARY KEY REFERENCES stops(stop_idx),
            group_idx INTEGER NOT NULL -- the lowest stop_idx of the group
        ) WITHOUT ROWID;
        CREATE INDEX stop_groups_by_group ON stop_groups(group_idx);
        """

    /// Two places the region's interchanges file declares one, from its line `line`.
    struct Declared: Equatable {
        var a: Int, b: Int, line: Int
    }

    /// Groups the places of different feeds (`stopKeys`: each feed's stop key range) that the region declares
    /// one (`declared`, joined first), then those that share a folded name and lie within `radiusMeters`;
    /// returns how many groups were made. A declaration that would make two places of one feed one is refused.
    static func build(_ db: Database, stopKeys: [ClosedRange<Int>], declared: [Declared] = []) throws -> Int {
        guard stopKeys.count > 1 else { return 0 }
        func feed(of stop: Int) -> Int { stopKeys.firstIndex { $0.contains(stop) } ?? -1 }
        struct Place { var stop: Int, feed: Int, isStation: Bool, latitude: Double, longitude: Double }
        var byName: [String: [Place]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT stop_idx, name_key, stop_lat, stop_lon, location_type FROM stops
                WHERE (location_type = 1 OR (location_type = 0 AND parent_idx IS NULL))
                AND name_key != '' AND stop_lat IS NOT NULL AND stop_lon IS NOT NULL
                """)
        while let row = try rows.next() {
            let stop: Int = row[0]
            byName[row[1], default: []].append(
                Place(
                    stop: stop, feed: feed(of: stop), isStation: (row[4] as Int) == 1, latitude: row[2],
                    longitude: row[3]))
        }
        // The pairs of different feeds' places close enough to be one, nearest first; each joins two groups only
        // when no feed has a place in both, so a group holds at most one place of each feed: two stops a feed keeps
        // apart (its copy of a pole and another pole of the name a few metres on) are never made one through a
        // third feed's stop between them.
        struct Pair { var a: Int, b: Int, distance: Double }
        var pairs: [Pair] = []
        for places in byName.values where Set(places.map(\.feed)).count > 1 {
            for (i, a) in places.enumerated() {
                for b in places[(i + 1)...] where a.feed != b.feed {
                    let distance = Coordinate(latitude: a.latitude, longitude: a.longitude)
                        .distance(to: Coordinate(latitude: b.latitude, longitude: b.longitude))
                    guard distance <= (a.isStation || b.isStation ? radiusMeters : sameStopMeters) else { continue }
                    pairs.append(Pair(a: min(a.stop, b.stop), b: max(a.stop, b.stop), distance: distance))
                }
            }
        }
        pairs.sort { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }
        // The declared places are joined first, in the file's order.
        let declaredPairs = declared.map { Pair(a: $0.a, b: $0.b, distance: 0) }
        var parent: [Int: Int] = [:]
        var feeds: [Int: Set<Int>] = [:]  // by group root
        func root(_ stop: Int) -> Int {
            var stop = stop
            while let up = parent[stop], up != stop { stop = up }
            return stop
        }
        for (n, pair) in (declaredPairs + pairs).enumerated() {
            let (ra, rb) = (root(pair.a), root(pair.b))
            guard ra != rb else { continue }
            let (fa, fb) = (feeds[ra] ?? [feed(of: pair.a)], feeds[rb] ?? [feed(of: pair.b)])
            guard fa.isDisjoint(with: fb) else {
                guard n < declared.count else { continue }
                func id(_ stop: Int) throws -> String {
                    try String.fetchOne(db, sql: "SELECT stop_id FROM stops WHERE stop_idx = ?", arguments: [stop])
                        ?? "?"
                }
                let what =
                    feed(of: pair.a) == feed(of: pair.b)
                    ? "both are stops of one feed (its own stations are its parent_station)"
                    : "one of them is already one place with another stop of the other's feed"
                throw ImportError.inconsistentFeed(
                    "interchanges.txt line \(declared[n].line): '\(try id(pair.a))' and '\(try id(pair.b))' cannot be one place: \(what)"
                )
            }
            let (low, high) = (min(ra, rb), max(ra, rb))
            parent[low] = low
            parent[high] = low
            feeds[low] = fa.union(fb)
            feeds[high] = nil
        }
        let insert = try db.makeStatement(sql: "INSERT INTO stop_groups VALUES (?, ?)")
        var groups = Set<Int>()
        for stop in parent.keys.sorted() {
            let group = root(stop)
            groups.insert(group)
            try insert.execute(arguments: [stop, group])
        }
        return groups.count
    }

    /// Every grouped stop's fellow members (itself excluded), by stop key; empty without groups.
    static func load(_ db: Database) throws -> [Int: [Int]] {
        guard try db.tableExists("stop_groups") else { return [:] }
        var members: [Int: [Int]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT stop_idx, group_idx FROM stop_groups ORDER BY stop_idx") {
            members[row[1], default: []].append(row[0])
        }
        var others: [Int: [Int]] = [:]
        for group in members.values {
            for stop in group { others[stop] = group.filter { $0 != stop } }
        }
        return others
    }
}
