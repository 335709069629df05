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
        let key = TextFolding.searchKey(text)
        guard !key.isEmpty else { return [] }
        // People type names without their spaces ("lay" for "La Y", "elejido"): compare those too.
        let compact = key.replacingOccurrences(of: " ", with: "")
        func like(_ value: String) -> String {
            "%"
                + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.name_key, COALESCE(CASE WHEN s.location_type = 0 THEN s.parent_idx END, s.stop_idx) AS target
                    FROM stops s WHERE (s.name_key LIKE ? ESCAPE '\\' OR replace(s.name_key, ' ', '') LIKE ? ESCAPE '\\') AND s.location_type IN (0, 1)
                    """, arguments: [like(key), like(compact)])
            var best: [Int: StopMatch.Rank] = [:]
            for row in rows {
                let name: String = row[0]
                let squeezed = name.replacingOccurrences(of: " ", with: "")
                let rank: StopMatch.Rank =
                    name == key || squeezed == compact
                    ? .exact
                    : name.hasPrefix(key) || squeezed.hasPrefix(compact)
                        ? .prefix
                        : name.contains(" " + key) ? .wordPrefix : .contains
                let target: Int = row[1]
                best[target] = min(best[target] ?? rank, rank)
            }
            var matches: [StopMatch] = []
            for (index, rank) in best {
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index])
                else { continue }
                matches.append(StopMatch(stop: RouteDatabase.stopInfo(row), rank: rank, index: index))
            }
            matches.sort { ($0.rank, $0.stop.name, $0.stop.id) < ($1.rank, $1.stop.name, $1.stop.id) }
            return Array(matches.prefix(limit))
        }
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
