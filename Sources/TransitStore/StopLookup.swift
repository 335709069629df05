import Foundation
import GRDB
import TransitModel

/// A stop a query resolved to: a platform, or a station standing for all its boarding platforms.
public struct ResolvedStop: Sendable, Equatable {
    public var stop: StopInfo
    public var platforms: [StopInfo]
    /// Dense database keys (`stop_idx`) of the stop and of the platforms it stands for, for adapters that
    /// index stops the way the database does (the journey planner uses `stop_idx - 1`).
    public let stopIndex: Int
    public let platformIndexes: [Int]

    var platformsByIndex: [Int: StopInfo] { Dictionary(uniqueKeysWithValues: zip(platformIndexes, platforms)) }
}

/// How a scanned or typed reference names a stop.
public enum StopKey: Sendable, Equatable {
    case id(String)
    case code(String)
    /// Typed text: an exact stop_id first, then an exact stop_code.
    case idOrCode(String)

    /// The text looked for.
    var text: String {
        switch self {
        case .id(let value), .code(let value), .idOrCode(let value): value
        }
    }
}

extension RouteDatabase {
    /// Rejects queries no stop could match before they reach the database: empty, absurdly long, or carrying
    /// control characters (a pasted escape sequence is an error to show, not a stop to look for).
    public static func validateQuery(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw LookupError.invalidQuery("the stop query is empty: give a stop ID, a stop code or a scanned code")
        }
        guard trimmed.unicodeScalars.count <= maxQueryLength else {
            throw LookupError.invalidQuery(
                "the stop query is \(trimmed.unicodeScalars.count) characters long; stop IDs and codes are at most \(maxQueryLength)"
            )
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw LookupError.invalidQuery(
                "the stop query contains control characters: '\(TerminalText.sanitize(trimmed, maxLength: 40))'")
        }
        return trimmed
    }

    static let stopColumns = """
        s.stop_idx, s.stop_id, s.stop_code, s.stop_name, p.stop_id, p.stop_name, s.platform_code, s.wheelchair_boarding,
        COALESCE(s.stop_lat, p.stop_lat), COALESCE(s.stop_lon, p.stop_lon), s.location_type, p.wheelchair_boarding, s.parent_idx
        FROM stops s LEFT JOIN stops p ON p.stop_idx = s.parent_idx
        """

    static func stopInfo(_ row: Row) -> StopInfo {
        var wheelchair: Int = row[7]
        if wheelchair == 0, let parent: Int = row[11] { wheelchair = parent }  // platforms inherit their station's value
        return StopInfo(
            id: row[1], code: row[2], name: row[3] ?? row[5] ?? row[1], parentStationID: row[4],
            parentStationName: row[5],
            platformCode: row[6], wheelchairBoarding: WheelchairAccess(gtfs: wheelchair), latitude: row[8],
            longitude: row[9],
            locationType: row[10])
    }

    /// Finds a stop by exact ID, then exact code. A station resolves to all its platforms; an entrance or other
    /// station part resolves to its station. Unknown → `LookupError.noSuchStop` with suggestions.
    public func resolveStop(_ reference: StopKey) throws -> ResolvedStop {
        if let found = try findStop(reference) { return found }
        let query = try RouteDatabase.validateQuery(reference.text)
        throw LookupError.noSuchStop(query: query, suggestions: try read { try suggestions(for: query, db: $0) })
    }

    /// `resolveStop` without the suggestions: nil for an unknown stop (a search that goes on to names does not
    /// pay for comparing the query with every stop code).
    public func findStop(_ reference: StopKey) throws -> ResolvedStop? {
        let (text, columns): (String, [String])
        switch reference {
        case let .id(value): (text, columns) = (value, ["stop_id"])
        case let .code(value): (text, columns) = (value, ["stop_code"])
        case let .idOrCode(value): (text, columns) = (value, ["stop_id", "stop_code"])
        }
        let query = try RouteDatabase.validateQuery(text)
        return try read { db in
            for column in columns {
                // A code may be shared by several stops; prefer boarding stops, then the lowest index.
                guard
                    let row = try Row.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT \(RouteDatabase.stopColumns) WHERE s.\(column) = ? ORDER BY s.location_type != 0, s.stop_idx LIMIT 1"
                        ),
                        arguments: [query])
                else {
                    if column == "stop_id", let inFeed = try stopInOneFeed(query, db) { return inFeed }
                    continue
                }
                if column == "stop_code", !namespaces.isEmpty { try checkCodeInOneFeed(query, db) }
                return try resolved(row, db)
            }
            return nil
        }
    }

    /// Stop codes are not namespaced (they are what a passenger types): in a database of several feeds a code
    /// two feeds' stops share is refused with the candidates, unless those stops are one interchange.
    private func checkCodeInOneFeed(_ code: String, _ db: Database) throws {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_code = ? AND s.location_type IN (0, 1) ORDER BY s.stop_idx LIMIT 20"
            ),
            arguments: [code])
        let stops = rows.map(stopInfo)
        guard Set(stops.compactMap(\.feedID)).count > 1 else { return }
        let places = Set(rows.map { interchangeGroup(of: ($0[12] as Int?) ?? $0[0]) })  // a platform's place: its station
        guard places.count > 1 else { return }
        let list = stops.map { "\(TerminalText.sanitize($0.name, maxLength: 60)) (\($0.id))" }
        throw LookupError.invalidQuery(
            "'\(TerminalText.sanitize(code, maxLength: 60))' is a stop code in several feeds: \(list.joined(separator: ", ")); give the stop id with its feed, e.g. \(stops[0].id)"
        )
    }

    /// The boarding stops of the other feeds' members of `place`'s interchange (none when it is not one).
    func interchangePlatforms(of place: Int, _ db: Database) throws -> [Int] {
        guard let others = interchangeMembers[place] else { return [] }
        return try others.flatMap { member in
            try Int.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT stop_idx FROM stops WHERE (parent_idx = ?1 AND location_type = 0) OR (stop_idx = ?1 AND location_type = 0)"
                ),
                arguments: [member])
        }
    }

    /// The lowest stop key of the stop's interchange (its own key when it is none).
    func interchangeGroup(of stop: Int) -> Int { min(stop, interchangeMembers[stop]?.min() ?? stop) }

    /// A bare stop id in a database of several feeds: the stop of the one feed that has it. Several feeds having
    /// it is an error listing them, as a name several stops have is.
    private func stopInOneFeed(_ id: String, _ db: Database) throws -> ResolvedStop? {
        let candidates = namespaces.candidates(for: id)
        guard !candidates.isEmpty else { return nil }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_id IN (\(databaseQuestionMarks(count: candidates.count))) ORDER BY s.stop_idx"
            ),
            arguments: StatementArguments(candidates))
        // Several feeds' copies of one interchange are one place: the id names it.
        if rows.count > 1, Set(rows.map { interchangeGroup(of: ($0[12] as Int?) ?? $0[0]) }).count > 1 {
            let list = rows.map(RouteDatabase.stopInfo).map {
                "\(TerminalText.sanitize($0.name, maxLength: 60)) (\($0.id))"
            }
            throw LookupError.invalidQuery(
                "'\(TerminalText.sanitize(id, maxLength: 60))' is a stop id in several feeds: \(list.joined(separator: ", ")); give it with its feed, e.g. \(RouteDatabase.stopInfo(rows[0]).id)"
            )
        }
        return try rows.first.map { try resolved($0, db) }
    }

    /// The stop a row names, with the platforms it stands for; at an interchange of several feeds, those of
    /// every feed's stop there (`Interchanges`).
    private func resolved(_ row: Row, _ db: Database) throws -> ResolvedStop {
        let place = try resolvedAlone(row, db)
        guard let others = interchangeMembers[place.stopIndex] else { return place }
        var platforms = place.platforms, indexes = place.platformIndexes
        for other in others {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?"),
                    arguments: [other])
            else { continue }
            let member = try resolvedAlone(row, db)
            for (platform, index) in zip(member.platforms, member.platformIndexes) where !indexes.contains(index) {
                platforms.append(platform)
                indexes.append(index)
            }
        }
        return ResolvedStop(
            stop: place.stop, platforms: platforms, stopIndex: place.stopIndex, platformIndexes: indexes)
    }

    private func resolvedAlone(_ row: Row, _ db: Database) throws -> ResolvedStop {
        let locationType: Int = row[10]
        if locationType >= 2, let parent: Int = row[12],
            let station = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?"), arguments: [parent]
            )
        {
            return try resolvedAlone(station, db)
        }
        let index: Int = row[0]
        let stop = stopInfo(row)
        guard locationType == 1 else {
            return ResolvedStop(stop: stop, platforms: [stop], stopIndex: index, platformIndexes: [index])
        }
        let children = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT \(RouteDatabase.stopColumns) WHERE s.parent_idx = ? AND s.location_type = 0 ORDER BY s.platform_code, s.stop_id"
            ),
            arguments: [index])
        if children.isEmpty {
            return ResolvedStop(stop: stop, platforms: [stop], stopIndex: index, platformIndexes: [index])
        }
        return ResolvedStop(
            stop: stop, platforms: children.map(stopInfo), stopIndex: index,
            platformIndexes: children.map { $0[0] })
    }

    /// Up to `limit` stops a mistyped query probably meant: codes one or two edits away, then names containing
    /// the query (accent-, case- and punctuation-insensitive).
    func suggestions(for query: String, db: Database, limit: Int = 5) throws -> [StopInfo] {
        var found: [StopInfo] = []
        var seen = Set<String>()
        let codes = try Row.fetchAll(
            db, sql: "SELECT stop_code, stop_idx FROM stops WHERE stop_code IS NOT NULL AND location_type IN (0, 1)")
        // At most half the query may be wrong: otherwise `%` or `_` would be "one edit" from every one-character
        // code, and a feed with short codes would list arbitrary stops.
        let allowedEdits = min(2, query.unicodeScalars.count / 2)
        let close = codes.compactMap { row -> (Int, Int, String)? in
            let code: String = row[0]
            let distance = Self.editDistance(code.lowercased(), query.lowercased(), limit: allowedEdits)
            return distance <= allowedEdits ? (distance, row[1], code) : nil
        }.sorted { ($0.0, $0.2) < ($1.0, $1.2) }
        let key = TextFolding.searchKey(query)
        var candidates = close.prefix(limit).map(\.1)
        if !key.isEmpty {
            let pattern =
                "%"
                + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            candidates += try Int.fetchAll(
                db,
                sql: """
                    SELECT stop_idx FROM stops WHERE name_key LIKE ? ESCAPE '\\' AND location_type IN (0, 1)
                    ORDER BY name_key != ?, name_key NOT LIKE ? ESCAPE '\\', location_type DESC, stop_name LIMIT ?
                    """, arguments: [pattern, key, String(pattern.dropFirst()), limit * 2])
        }
        for index in candidates where found.count < limit {
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
            else { continue }
            let info = stopInfo(row)
            if seen.insert(info.id).inserted { found.append(info) }
        }
        return found
    }

    /// Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count), current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension RouteDatabase {
    /// Every boarding stop's ID (for benchmarks and sampling).
    public func boardingStopIDs() throws -> [String] {
        try read { try String.fetchAll($0, sql: "SELECT stop_id FROM stops WHERE location_type = 0 ORDER BY stop_idx") }
    }

    /// The internal keys of the services running on `date` (for benchmarks that query the database directly).
    public func activeServiceIndexes(on date: ServiceDate) -> [Int] { calendar.activeServices(on: date) }
}

extension RouteDatabase {
    /// The date in the feed's range on which the most services run (ties: the earliest), for benchmarks and demos
    /// that need a representative day.
    public func busiestServiceDate() -> ServiceDate? {
        guard let start = serviceStart, let end = serviceEnd else { return nil }
        var best: (date: ServiceDate, count: Int)?
        for day in start.dayNumber...end.dayNumber {
            let date = ServiceDate(dayNumber: day)
            let count = calendar.activeServices(on: date).count
            if count > (best?.count ?? 0) { best = (date, count) }
        }
        return best?.date
    }
}

extension RouteDatabase {
    /// The IDs of the stops with the most departures (for benchmarks that want the heaviest stop views).
    public func busiestStopIDs(limit: Int) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT s.stop_id FROM stop_times st JOIN stops s ON s.stop_idx = st.stop_idx
                    GROUP BY st.stop_idx ORDER BY COUNT(*) DESC, s.stop_id LIMIT ?
                    """, arguments: [limit])
        }
    }
}
