import Foundation
import Synchronization
import TransitModel
import TransitStore

/// What a journey end typed by a passenger names: one stop, or several to choose from.
public enum PlaceChoice: Sendable {
    case stop(ResolvedStop)
    /// The name is partial or shared: the stops it matches (best first), each with the routes that serve it.
    case choose([PlaceCandidate])
}

public struct PlaceCandidate: Sendable {
    public var match: StopMatch
    public var routes: [RouteInfo]
    public var stop: StopInfo { match.stop }
}

extension RouteDatabase {
    /// A journey end as typed: a stop ID or code that matches exactly is that stop; a name is a stop only when it
    /// names one place — the only stop it matches, or the only one whose whole name it is. Anything else ("airport"
    /// for four terminals, "Main St" for both sides of the street) is a choice for the passenger, never a guess.
    public func resolvePlace(_ text: String, limit: Int = 8) throws -> PlaceChoice {
        let query = try RouteDatabase.validateQuery(text)
        do {
            return .stop(try resolveStop(.idOrCode(query)))
        } catch LookupError.noSuchStop(_, let suggestions) {
            let matches = try searchStops(query, limit: limit)
            guard let first = matches.first else {
                throw LookupError.noSuchStop(query: query, suggestions: suggestions)
            }
            let exact = matches.filter { $0.rank == .exact }
            if matches.count == 1 || exact.count == 1 {
                return .stop(try resolveStop(.id((exact.first ?? first).stop.id)))
            }
            return .choose(
                try matches.map { match in
                    let resolved = try resolveStop(.id(match.stop.id))
                    return PlaceCandidate(
                        match: match, routes: try routesServing(stopIndexes: resolved.platformIndexes))
                })
        }
    }

    /// `resolvePlace` for callers that cannot offer a choice (`kiosk plan`, the plan API): several matches are
    /// `LookupError.ambiguous`, which lists them with their codes.
    public func resolveJourneyEnd(_ text: String) throws -> ResolvedStop {
        switch try resolvePlace(text) {
        case .stop(let stop): return stop
        case .choose(let candidates):
            throw LookupError.ambiguous(
                try RouteDatabase.validateQuery(text), candidates.map(\.match))
        }
    }

    /// Whether the feed says which stops and which trips are step-free (some stop or station with
    /// `wheelchair_boarding` 1, and some trip with `wheelchair_accessible` 1): without both no step-free journey
    /// can be found (Vilnius marks trips, never stops), and a plan says the feed does not tell rather than that
    /// there is none. Read once per feed.
    public func hasStepFreeData() throws -> Bool {
        if !feedHash.isEmpty, let known = StepFreeDataCache.known.withLock({ $0[feedHash] }) { return known }
        let facts = try stepFreeFacts()
        let known = facts.tripAccessible.contains(true) && facts.stopAccessible.contains(true)
        if !feedHash.isEmpty { StepFreeDataCache.known.withLock { $0[feedHash] = known } }
        return known
    }
}

private enum StepFreeDataCache {
    static let known = Mutex<[String: Bool]>([:])
}
