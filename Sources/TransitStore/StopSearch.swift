import Foundation
import GRDB
import TransitModel

/// A stop found by name, ranked for a person typing it.
public struct StopMatch: Sendable, Equatable {
    public enum Rank: Int, Sendable, Comparable {
        case exact, prefix, wordPrefix, contains
        public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    public var stop: StopInfo
    public var rank: Rank
    let index: Int
}

extension LookupError {
    /// Several stops match a typed name: the candidates, with their codes, instead of a guess.
    public static func ambiguous(_ query: String, _ candidates: [StopMatch]) -> LookupError {
        let list = candidates.map { m in
            "\(TerminalText.sanitize(m.stop.name, maxLength: 60))"
                + (m.stop.code.map { " [\($0)]" } ?? " (\(m.stop.id))")
        }
        return .invalidQuery(
            "'\(TerminalText.sanitize(query, maxLength: 60))' matches several stops: \(list.joined(separator: ", ")); give a stop code to choose"
        )
    }
}

extension RouteDatabase {
    /// Stops whose name matches `text` ignoring accents, case and punctuation ("cumbaya" finds "Cumbayá", "la y"
    /// finds "La Y"): exact names first, then names starting with it, then a word starting with it, then
    /// containing it. Platforms are folded into their station, which stands for all of them.
    public func searchStops(_ text: String, limit: Int = 8) throws -> [StopMatch] {
        guard !interchangeMembers.isEmpty else { return try searchEveryStop(text, limit: limit) }
        // An interchange of several feeds is one place: listed once, as the first of its stops found.
        var places = Set<Int>()
        return Array(
            try searchEveryStop(text, limit: limit * 2).filter { places.insert(interchangeGroup(of: $0.index)).inserted }
                .prefix(limit))
    }

    private func searchEveryStop(_ text: String, limit: Int) throws -> [StopMatch] {
        let key = TextFolding.searchKey(text)
        guard !key.isEmpty else { return [] }
        // People type names without their spaces ("lay" for "La Y", "elejido"): compare those too.
        let compact = key.replacingOccurrences(of: " ", with: "")
        func like(_ value: String) -> String {
            "%"
                + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        func rank(_ name: String, _ squeezed: String) -> StopMatch.Rank {
            name == key || squeezed == compact
                ? .exact
                : name.hasPrefix(key) || squeezed.hasPrefix(compact)
                    ? .prefix
                    : name.contains(" " + key) ? .wordPrefix : .contains
        }
        return try read { db in
            if try StopNameIndex.exists(db) {
                return try indexedSearch(db, key: key, compact: compact, like: like, rank: rank, limit: limit)
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.name_key, COALESCE(CASE WHEN s.location_type = 0 THEN s.parent_idx END, s.stop_idx) AS target
                    FROM stops s WHERE (s.name_key LIKE ? ESCAPE '\\' OR replace(s.name_key, ' ', '') LIKE ? ESCAPE '\\') AND s.location_type IN (0, 1)
                    """, arguments: [like(key), like(compact)])
            var best: [Int: StopMatch.Rank] = [:]
            for row in rows {
                let target: Int = row[1]
                let name: String = row[0]
                let found = rank(name, name.replacingOccurrences(of: " ", with: ""))
                best[target] = min(best[target] ?? found, found)
            }
            var matches: [StopMatch] = []
            for (index, rank) in best {
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
                else { continue }
                matches.append(StopMatch(stop: stopInfo(row), rank: rank, index: index))
            }
            matches.sort { ($0.rank, $0.stop.name, $0.stop.id) < ($1.rank, $1.stop.name, $1.stop.id) }
            return Array(matches.prefix(limit))
        }
    }

    /// The search through `stop_name_index`, with the same answers as reading every stop. SQLite picks the stops
    /// to show from the index's ranges, each stop ranked by the best range holding one of its names: a name equal
    /// to the query without spaces, then starting with it (kind 0), then with a word starting with it (kind 1),
    /// then merely containing it (read only when the ranges give fewer than `limit` stops), and within a rank by
    /// listing order. Each range is read only when the better ones give fewer than `limit` stops, so the stops
    /// read from it are all that rank better. Only the `limit` stops shown come back to Swift, where `rank` checks
    /// the name each was found by; in the rare case where it ranks a name lower than its range (a character
    /// joined to the one after the query, which bytes do not see), `everyRowSearch` decides instead.
    private func indexedSearch(
        _ db: Database, key: String, compact: String, like: (String) -> String, rank: (String, String) -> StopMatch.Rank,
        limit: Int
    ) throws -> [StopMatch] {
        guard limit > 0 else { return [] }
        var chosen: [(target: Int, rank: StopMatch.Rank)] = []
        var known: Set<Int> = []
        func confirms(_ candidate: StopNameIndex.Candidate, _ expected: StopMatch.Rank) -> Bool {
            rank(candidate.name, candidate.name.replacingOccurrences(of: " ", with: "")) == expected
        }
        // Names equal to or starting with the query: all of them when fewer than `limit`.
        for candidate in try StopNameIndex.startingWith(db, compact: compact, count: limit) {
            let found: StopMatch.Rank = candidate.exact ? .exact : .prefix
            guard confirms(candidate, found) else {
                return try everyRowSearch(db, key: key, compact: compact, like: like, rank: rank, limit: limit)
            }
            chosen.append((candidate.target, found))
            known.insert(candidate.target)
        }
        if chosen.count < limit {
            // Names with a word starting with the query, less those of stops already found.
            for candidate in try StopNameIndex.withWordStartingWith(db, key: key, count: limit + known.count)
            where !known.contains(candidate.target) {
                guard confirms(candidate, .wordPrefix) else {
                    return try everyRowSearch(db, key: key, compact: compact, like: like, rank: rank, limit: limit)
                }
                known.insert(candidate.target)
                if chosen.count < limit { chosen.append((candidate.target, .wordPrefix)) }
            }
        }
        if chosen.count < limit {
            for (target, _) in try StopNameIndex.containing(
                db, key: like(key), compact: like(compact), count: limit + known.count)
            where !known.contains(target) && chosen.count < limit {
                chosen.append((target, .contains))
            }
        }
        let statement = try db.cachedStatement(sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?")
        return try chosen.compactMap { target, found in
            try Row.fetchOne(statement, arguments: [target]).map {
                StopMatch(stop: stopInfo($0), rank: found, index: target)
            }
        }
    }

    /// The search through `stop_name_index` that ranks, in Swift, every row of the ranges it reads: names equal to
    /// or starting with the query (a name starting with it also does without its spaces), then names with a word
    /// starting with it; only when those give fewer than `limit` stops are the first stops (in listing order)
    /// merely containing it read. Stops are compared by their place in the listing order, and only the `limit`
    /// shown are read.
    private func everyRowSearch(
        _ db: Database, key: String, compact: String, like: (String) -> String, rank: (String, String) -> StopMatch.Rank,
        limit: Int
    ) throws -> [StopMatch] {
        var best: [Int: (rank: StopMatch.Rank, order: Int)] = [:]
        func add(_ entries: [StopNameIndex.Entry]) {
            for entry in entries {
                let found = rank(entry.name, entry.squeezed)
                if let known = best[entry.target], known.rank <= found { continue }
                best[entry.target] = (found, entry.order)
            }
        }
        func settled(_ rank: StopMatch.Rank) -> Int { best.values.count { $0.rank <= rank } }
        add(try StopNameIndex.rows(db, kind: 0, prefix: compact))
        if settled(.prefix) < limit { add(try StopNameIndex.rows(db, kind: 1, prefix: key)) }
        if settled(.wordPrefix) < limit {
            let known = best.count
            for (target, order) in try StopNameIndex.containing(
                db, key: like(key), compact: like(compact), count: limit + known)
            where best[target] == nil {
                best[target] = (.contains, order)
            }
        }
        let shown = best.sorted { ($0.value.rank, $0.value.order) < ($1.value.rank, $1.value.order) }.prefix(limit)
        var matches: [StopMatch] = []
        for (index, found) in shown {
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
            else { continue }
            matches.append(StopMatch(stop: stopInfo(row), rank: found.rank, index: index))
        }
        return matches
    }

    /// A journey end typed or scanned by a passenger: a stop ID or code if one matches exactly, else a name.
    /// A name with one best match resolves to it; several equally good matches are an `ambiguous` error
    /// listing them.
    public func resolveEndpoint(_ text: String) throws -> ResolvedStop {
        let query = try RouteDatabase.validateQuery(text)
        do {
            return try resolveStop(.idOrCode(query))
        } catch LookupError.noSuchStop(_, let suggestions) {
            let matches = try searchStops(query)
            guard let first = matches.first else {
                throw LookupError.noSuchStop(query: query, suggestions: suggestions)
            }
            let tied = matches.filter { $0.rank == first.rank }
            guard tied.count == 1 || (first.rank == .exact && tied.count == 1) else {
                throw LookupError.ambiguous(query, tied)
            }
            return try resolveStop(.id(first.stop.id))
        }
    }
}
