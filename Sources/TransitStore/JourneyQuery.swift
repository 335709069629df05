import Foundation
import GRDB
import JourneyPlanner
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
            "\(TerminalText.sanitize(m.stop.name, maxLength: 60))" + (m.stop.code.map { " [\($0)]" } ?? " (\(m.stop.id))")
        }
        return .invalidQuery("'\(TerminalText.sanitize(query, maxLength: 60))' matches several stops: \(list.joined(separator: ", ")); give a stop code to choose")
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
            "%" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        return try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.name_key, COALESCE(CASE WHEN s.location_type = 0 THEN s.parent_idx END, s.stop_idx) AS target
                FROM stops s WHERE (s.name_key LIKE ? ESCAPE '\\' OR replace(s.name_key, ' ', '') LIKE ? ESCAPE '\\') AND s.location_type IN (0, 1)
                """, arguments: [like(key), like(compact)])
            var best: [Int: StopMatch.Rank] = [:]
            for row in rows {
                let name: String = row[0]
                let squeezed = name.replacingOccurrences(of: " ", with: "")
                let rank: StopMatch.Rank = name == key || squeezed == compact ? .exact
                    : name.hasPrefix(key) || squeezed.hasPrefix(compact) ? .prefix
                    : name.contains(" " + key) ? .wordPrefix : .contains
                let target: Int = row[1]
                best[target] = min(best[target] ?? rank, rank)
            }
            var matches: [StopMatch] = []
            for (index, rank) in best {
                guard let row = try Row.fetchOne(db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [index]) else { continue }
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
            guard let first = matches.first else { throw LookupError.noSuchStop(query: query, suggestions: suggestions) }
            let tied = matches.filter { $0.rank == first.rank }
            guard tied.count == 1 || (first.rank == .exact && tied.count == 1) else { throw LookupError.ambiguous(query, tied) }
            return try resolveStop(.id(first.stop.id))
        }
    }

    /// The best ways from `origin` to `destination` leaving at `at`: Pareto-optimal on arrival and transfers,
    /// at most `limit`, each leaving as late as possible. Pass a `network` (and a reusable `planner`) built
    /// around `at` to answer many queries without rebuilding.
    public func plan(from origin: ResolvedStop, to destination: ResolvedStop, at: Date, maxTransfers: Int = 3, rules: PlanningRules = PlanningRules(),
                     network: PlanningNetwork? = nil, planner: Planner? = nil, limit: Int = 3) throws -> JourneyPlan {
        guard (0...PlanQuery.maxTransfersLimit).contains(maxTransfers) else {
            throw LookupError.invalidQuery("--max-transfers must be between 0 and \(PlanQuery.maxTransfersLimit) (got \(maxTransfers))")
        }
        guard (0...PlanningRules.walkRadiusLimit).contains(rules.walkRadiusMeters) else {
            throw LookupError.invalidQuery("--walk-radius must be between 0 and \(PlanningRules.walkRadiusLimit) metres (got \(rules.walkRadiusMeters))")
        }
        guard Set(origin.platformIndexes).isDisjoint(with: destination.platformIndexes), origin.stopIndex != destination.stopIndex else {
            throw LookupError.invalidQuery("the origin and the destination are the same stop (\(TerminalText.sanitize(origin.stop.name, maxLength: 60)))")
        }
        try checkServiceRange(ServiceDate.containing(at, in: timeZone))
        let network = try network ?? planningNetwork(around: at, rules: rules)
        let planner = planner ?? Planner(timetable: network.timetable)
        let query = PlanQuery(origins: origin.platformIndexes.map { StopOffset(stop: $0 - 1) },
                              destinations: destination.platformIndexes.map { StopOffset(stop: $0 - 1) },
                              departure: network.timelineSeconds(at), maxTransfers: maxTransfers)
        let journeys = planner.plan(query).filter { $0.rides > 0 }
        return try read { db in
            let options = try journeys.sorted { ($0.arrival, $0.transfers) < ($1.arrival, $1.transfers) }.prefix(limit).map {
                try option($0, network: network, db)
            }
            let routesAtEnds = options.isEmpty
                ? (try routesAt(origin.platformIndexes, db).map(\.route), try routesAt(destination.platformIndexes, db).map(\.route)) : ([], [])
            return JourneyPlan(from: origin.stop, to: destination.stop, at: at, timeZone: timeZone.identifier, maxTransfers: maxTransfers,
                               walkRadiusMeters: network.rules.walkRadiusMeters, options: options,
                               routesAtOrigin: routesAtEnds.0, routesAtDestination: routesAtEnds.1)
        }
    }

    private func option(_ journey: Journey, network: PlanningNetwork, _ db: Database) throws -> JourneyOption {
        var stops: [Int: StopInfo] = [:]
        func stop(_ plannerIndex: Int) throws -> StopInfo {
            if let known = stops[plannerIndex] { return known }
            guard let row = try Row.fetchOne(db, sql: "SELECT \(RouteDatabase.stopColumns) WHERE s.stop_idx = ?", arguments: [plannerIndex + 1]) else {
                throw LookupError.notARouteDatabase(path: path, reason: "stop \(plannerIndex + 1) vanished")
            }
            let info = RouteDatabase.stopInfo(row)
            stops[plannerIndex] = info
            return info
        }
        let steps: [JourneyStep] = try journey.legs.map { leg in
            switch leg {
            case let .walk(walk):
                return JourneyStep(kind: .walk, from: try stop(walk.fromStop), to: try stop(walk.toStop), departure: network.instant(walk.departure),
                                   arrival: network.instant(walk.arrival), minutes: max(1, (walk.arrival - walk.departure + 59) / 60)) // walking time, rounded up
            case let .ride(ride):
                let instance = network.tripInstances[ride.tripRef]
                let trip = try Row.fetchOne(db, sql: "SELECT trip_id, trip_headsign FROM trips WHERE trip_idx = ?", arguments: [Int(instance.trip)])
                let route = routes[ride.routeRef]
                let headsign: String? = trip?[1]
                return JourneyStep(kind: .ride, from: try stop(ride.boardStop), to: try stop(ride.alightStop), departure: network.instant(ride.boardTime),
                                   arrival: network.instant(ride.alightTime), minutes: Self.minutes(from: ride.boardTime, to: ride.alightTime), route: route,
                                   headsign: headsign ?? route?.longName, tripID: trip?[0], serviceDate: ServiceDate(dayNumber: Int(instance.day)).description,
                                   stops: ride.stopCount)
            }
        }
        return JourneyOption(departure: network.instant(journey.departure), arrival: network.instant(journey.arrival),
                             durationMinutes: Self.minutes(from: journey.departure, to: journey.arrival), transfers: journey.transfers, legs: steps)
    }

    /// Minutes between the clock minutes shown for two timeline instants (timeline second 0 is a whole hour),
    /// so that "08:00 → 08:58" always reads as 58 min.
    static func minutes(from start: Int, to end: Int) -> Int {
        func minute(_ t: Int) -> Int { t >= 0 ? t / 60 : (t - 59) / 60 }
        return minute(end) - minute(start)
    }
}

extension RouteDatabase {
    /// The planner's index of a stop (`stop_idx - 1`), for callers that drive a `Planner` directly.
    public func plannerIndex(ofStopID id: String) -> Int? {
        (try? read { try Int.fetchOne($0, sql: "SELECT stop_idx FROM stops WHERE stop_id = ?", arguments: [id]) }).flatMap { $0.map { $0 - 1 } }
    }
}
