import Foundation
import JourneyPlanner
import TransitModel
import TransitStore

/// Journey plans from the route database: the adapter between the store's schedule and the planner.
extension RouteDatabase {
    /// The best ways from `origin` to `destination` leaving at `at`: Pareto-optimal on arrival and transfers,
    /// at most `limit`, each leaving as late as possible. Pass a `network` built around `at` to answer many
    /// queries without rebuilding (its idle planners are reused, or pass your own `planner`).
    ///
    /// With an `overlay` built over that network, the planner reads it (live times, step-free facts); with
    /// `arriveBy`, the options are the latest departures (not before `at`) that arrive by then; with `stepFree`
    /// (which needs an overlay) only step-free trips and stops are used.
    public func plan(
        from origin: ResolvedStop, to destination: ResolvedStop, at: Date, maxTransfers: Int = 3,
        rules: PlanningRules = PlanningRules(),
        network: PlanningNetwork? = nil, planner: Planner? = nil, limit: Int = 3,
        overlay: PlanningOverlay? = nil, arriveBy: Date? = nil, stepFree: Bool = false
    ) throws -> JourneyPlan {
        guard (0...PlanQuery.maxTransfersLimit).contains(maxTransfers) else {
            throw LookupError.invalidQuery(
                "--max-transfers must be between 0 and \(PlanQuery.maxTransfersLimit) (got \(maxTransfers))")
        }
        guard (0...PlanningRules.walkRadiusLimit).contains(rules.walkRadiusMeters) else {
            throw LookupError.invalidQuery(
                "--walk-radius must be between 0 and \(PlanningRules.walkRadiusLimit) metres (got \(rules.walkRadiusMeters))"
            )
        }
        guard Set(origin.platformIndexes).isDisjoint(with: destination.platformIndexes),
            origin.stopIndex != destination.stopIndex
        else {
            throw LookupError.invalidQuery(
                "the origin and the destination are the same stop (\(TerminalText.sanitize(origin.stop.name, maxLength: 60)))"
            )
        }
        try checkServiceRange(ServiceDate.containing(at, in: timeZone))
        let network = try overlay?.network ?? network ?? planningNetwork(around: at, rules: rules)
        var query = PlanQuery(
            origins: origin.platformIndexes.map { StopOffset(stop: $0 - 1) },
            destinations: destination.platformIndexes.map { StopOffset(stop: $0 - 1) },
            departure: network.timelineSeconds(at), maxTransfers: maxTransfers)
        query.stepFreeOnly = stepFree
        func search(_ planner: Planner) -> [Journey] {
            if let arriveBy {
                return planner.plan(
                    query, arrivingBy: Int(arriveBy.timeIntervalSince(network.reference).rounded(.down)),
                    overlay: overlay?.overlay)
            }
            return planner.plan(query, overlay: overlay?.overlay)
        }
        let found = planner.map(search) ?? network.withPlanner(search)
        let journeys: [Journey]
        if arriveBy != nil {
            // The latest departures first: the passenger wants to leave as late as possible.
            journeys = found.filter { $0.rides > 0 }.sorted {
                ($0.departure, -$0.transfers) > ($1.departure, -$1.transfers)
            }
        } else {
            // A timetable image holds several days' trips; rides start on the query's service day or the next, as
            // in a timetable compiled for that day (else a Saturday-only route shows up as Wednesday's direct option).
            let lastDay = ServiceDate.containing(at, in: timeZone).dayNumber + 1
            func withinNextDay(_ journey: Journey) -> Bool {
                journey.legs.allSatisfy { leg in
                    guard case let .ride(ride) = leg, overlay?.addedTrips[ride.tripRef] == nil,
                        ride.tripRef < network.tripInstances.count
                    else { return true }
                    return Int(network.tripInstances[ride.tripRef].day) <= lastDay
                }
            }
            journeys = found.filter { $0.rides > 0 && withinNextDay($0) }
                .sorted { ($0.arrival, $0.transfers) < ($1.arrival, $1.transfers) }
        }
        let chosen = journeys.prefix(limit)
        let names = try PlanNames(chosen, network: network, database: self)
        let options = try chosen.map { try option($0, network: network, overlay: overlay, names: names) }
        let routesAtEnds =
            options.isEmpty
            ? (
                try routesServing(stopIndexes: origin.platformIndexes),
                try routesServing(stopIndexes: destination.platformIndexes)
            ) : ([], [])
        return JourneyPlan(
            from: origin.stop, to: destination.stop, at: at, timeZone: timeZone.identifier, maxTransfers: maxTransfers,
            walkRadiusMeters: network.rules.walkRadiusMeters, options: options,
            routesAtOrigin: routesAtEnds.0, routesAtDestination: routesAtEnds.1)
    }

    private func option(
        _ journey: Journey, network: PlanningNetwork, overlay: PlanningOverlay?, names: PlanNames
    ) throws -> JourneyOption {
        func stop(_ plannerIndex: Int) throws -> StopInfo {
            try names.stops[plannerIndex + 1] ?? self.stop(atIndex: plannerIndex + 1)
        }
        let steps: [JourneyStep] = try journey.legs.map { leg in
            switch leg {
            case let .walk(walk):
                return JourneyStep(
                    kind: .walk, from: try stop(walk.fromStop), to: try stop(walk.toStop),
                    departure: network.instant(walk.departure),
                    arrival: network.instant(walk.arrival), minutes: max(1, (walk.arrival - walk.departure + 59) / 60))  // walking time, rounded up
            case let .ride(ride):
                if let overlay, let step = try overlay.rideStep(ride, database: self, stop: stop) { return step }
                let instance = network.tripInstances[ride.tripRef]
                let trip = try names.trips[Int(instance.trip)] ?? self.trip(atIndex: Int(instance.trip))
                let route = self.route(atIndex: ride.routeRef)
                let scheduled = overlay?.scheduledTimes(ride) ?? (ride.boardTime, ride.alightTime)
                return JourneyStep(
                    kind: .ride, from: try stop(ride.boardStop), to: try stop(ride.alightStop),
                    departure: network.instant(scheduled.departure),
                    arrival: network.instant(scheduled.arrival),
                    minutes: Self.minutes(from: ride.boardTime, to: ride.alightTime), route: route,
                    headsign: trip?.headsign, tripID: trip?.id,
                    serviceDate: ServiceDate(dayNumber: Int(instance.day)).description,
                    stops: ride.stopCount, realtime: overlay?.rideRealtime(ride), lastStopName: trip?.lastStopName,
                    tripShortName: trip?.shortName)
            }
        }
        return JourneyOption(
            departure: network.instant(journey.departure), arrival: network.instant(journey.arrival),
            durationMinutes: Self.minutes(from: journey.departure, to: journey.arrival), transfers: journey.transfers,
            legs: steps)
    }

    /// Minutes between the clock minutes shown for two timeline instants (timeline second 0 is a whole hour),
    /// so that "08:00 → 08:58" always reads as 58 min.
    static func minutes(from start: Int, to end: Int) -> Int {
        func minute(_ t: Int) -> Int { t >= 0 ? t / 60 : (t - 59) / 60 }
        return minute(end) - minute(start)
    }
}

/// The stops and trips some journeys name, read from the database at once (by their dense keys).
private struct PlanNames {
    let stops: [Int: StopInfo]
    let trips: [Int: RouteDatabase.TripNames]

    init(_ journeys: some Collection<Journey>, network: PlanningNetwork, database: RouteDatabase) throws {
        var stopIndexes = Set<Int>(), tripIndexes = Set<Int>()
        for journey in journeys {
            for leg in journey.legs {
                switch leg {
                case let .walk(walk):
                    stopIndexes.formUnion([walk.fromStop + 1, walk.toStop + 1])
                case let .ride(ride):
                    stopIndexes.formUnion([ride.boardStop + 1, ride.alightStop + 1])
                    // (Trips a live overlay added are not in the database.)
                    if ride.tripRef < network.tripInstances.count {
                        tripIndexes.insert(Int(network.tripInstances[ride.tripRef].trip))
                    }
                }
            }
        }
        stops = try database.stops(atIndexes: stopIndexes)
        trips = try database.trips(atIndexes: tripIndexes)
    }
}

extension RouteDatabase {
    /// The planner's index of a stop (`stop_idx - 1`), for callers that drive a `Planner` directly.
    public func plannerIndex(ofStopID id: String) -> Int? {
        (try? resolveStop(.id(id))).map { $0.stopIndex - 1 }
    }
}
