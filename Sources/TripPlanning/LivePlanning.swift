import Foundation
import JourneyPlanner
import Realtime
import Synchronization
import TransitModel
import TransitStore

/// Live and step-free data for plans over one `PlanningNetwork`: the planner's `TimetableOverlay` plus what
/// it takes to describe a live ride (the board's states and delays). Immutable and shared by every plan:
/// built once per realtime poll (live data) or per network (step-free facts), then swapped in whole
/// (`PlanningOverlayCache`); a plan keeps the overlay it started with.
public final class PlanningOverlay: Sendable {
    public let network: PlanningNetwork
    public let overlay: TimetableOverlay
    let index: TripReferenceIndex
    /// The live trips the overlay replaced or cancelled, by trip reference.
    let liveTrips: [Int: LiveTrip]
    /// Added trips by trip reference (beyond the network's own).
    let addedTrips: [Int: AddedRide]
    /// Whether the overlay carries a realtime feed (else only step-free facts).
    public let carriesLiveData: Bool
    /// The feed this overlay was built from (its header time and fetch time), to tell polls apart.
    public let liveKey: LiveKey?
    /// Trip instances the feed names that the network does not hold (another day, not in the window).
    public let tripsOutsideNetwork: Int

    public struct LiveKey: Sendable, Hashable {
        public var headerTimestamp: Date?
        public var fetchedAt: Date

        public init(headerTimestamp: Date?, fetchedAt: Date) {
            self.headerTimestamp = headerTimestamp
            self.fetchedAt = fetchedAt
        }
    }

    struct AddedRide: Sendable {
        var trip: AddedTrip
        /// The route as the board shows it, and each event's stop (`stop_idx`).
        var route: RouteInfo
        var eventStops: [Int]
        var serviceDate: ServiceDate
    }

    init(
        network: PlanningNetwork, overlay: TimetableOverlay, index: TripReferenceIndex, liveTrips: [Int: LiveTrip],
        addedTrips: [Int: AddedRide],
        carriesLiveData: Bool, liveKey: LiveKey?, tripsOutsideNetwork: Int
    ) {
        self.network = network
        self.overlay = overlay
        self.index = index
        self.liveTrips = liveTrips
        self.addedTrips = addedTrips
        self.carriesLiveData = carriesLiveData
        self.liveKey = liveKey
        self.tripsOutsideNetwork = tripsOutsideNetwork
    }
}

extension RouteDatabase {
    /// The step-free facts of the network's trips and stops as an overlay (see `stepFreeFacts()` for how
    /// unknown values count: as not step-free).
    public func stepFreeOverlay(
        for network: PlanningNetwork, index: TripReferenceIndex? = nil
    ) throws
        -> PlanningOverlay
    {
        let index = index ?? TripReferenceIndex(network.timetable)
        var builder = TimetableOverlayBuilder(index: index)
        try markStepFree(&builder, network: network)
        return PlanningOverlay(
            network: network, overlay: builder.build(), index: index, liveTrips: [:], addedTrips: [:],
            carriesLiveData: false,
            liveKey: nil, tripsOutsideNetwork: 0)
    }

    private func markStepFree(_ builder: inout TimetableOverlayBuilder, network: PlanningNetwork) throws {
        let facts = try stepFreeFacts()
        builder.noteStepFreeData()
        for ref in network.tripInstances.indices {
            let trip = Int(network.tripInstances[ref].trip)
            if !(trip < facts.tripAccessible.count && facts.tripAccessible[trip]) { builder.markNotStepFree(trip: ref) }
        }
        for stop in 0..<network.timetable.stopCount {
            if !(stop + 1 < facts.stopAccessible.count && facts.stopAccessible[stop + 1]) {
                builder.markNotStepFree(stop: stop)
            }
        }
    }

    /// The feed applied to the network, exactly as the board applies it (`LiveTimetable`'s matching): a
    /// cancelled or deleted trip is never boarded; a trip with predictions runs at its predicted times (arrival
    /// and departure delays per stop, propagated downstream as matched) and neither picks up nor sets down at
    /// stops it skips; stops without a prediction keep the timetable; a trip added by the feed is boardable
    /// at its stops with known times (step-free: unknown, so not used). A vehicle cannot leave a stop before it
    /// reached it: predicted times running backwards along a trip are raised to the previous time.
    /// Step-free facts come from `stepFree` (the network's step-free overlay) when given.
    public func liveOverlay(
        for network: PlanningNetwork, live: LiveTimetable, key: PlanningOverlay.LiveKey,
        routes: [String: RouteRecord], stepFree: PlanningOverlay? = nil, index: TripReferenceIndex? = nil
    ) throws -> PlanningOverlay {
        let index = index ?? TripReferenceIndex(network.timetable)
        var builder =
            stepFree.map { TimetableOverlayBuilder(index: index, startingFrom: $0.overlay) }
            ?? TimetableOverlayBuilder(index: index)

        // trip_id → trip_idx → the network's instances of it.
        var named: [(tripID: String, trip: LiveTrip)] = []
        for entry in live.allLiveTrips { named.append(entry) }
        let tripIndexes = try tripIndexes(ids: named.map(\.tripID))
        let wanted = Set(tripIndexes.values.map(Int32.init))
        var instances: [Int32: [Int]] = [:]
        let all = network.tripInstances
        for ref in all.indices where wanted.contains(all[ref].trip) {
            instances[all[ref].trip, default: []].append(ref)
        }

        var liveTrips: [Int: LiveTrip] = [:]
        var outside = 0
        for (tripID, trip) in named {
            guard let tripIndex = tripIndexes[tripID] else { continue }
            let day = Int32(trip.serviceDate.dayNumber)
            var refs = (instances[Int32(tripIndex)] ?? []).filter { all[$0].day == day }
            if trip.schedule.frequencyBased, let start = trip.startTime {
                // The instance starting at `start`: its first departure sits `start - first` after the template's.
                let origin = network.timelineSeconds(trip.serviceDate.serviceDayOrigin(in: timeZone))
                refs = refs.filter { builder.events(ofTrip: $0)?.first?.departure == origin + start }
            }
            if refs.isEmpty { outside += 1 }
            for ref in refs {
                switch trip.state {
                case .canceled, .deleted:
                    builder.cancel(trip: ref)
                    liveTrips[ref] = trip
                case .running:
                    guard let scheduled = builder.events(ofTrip: ref), scheduled.count == trip.stops.count,
                        let events = Self.predicted(scheduled, trip.stops)
                    else { continue }
                    if (try? builder.replace(trip: ref, events: events)) == true { liveTrips[ref] = trip }
                }
            }
        }

        // Added trips: references after the network's own.
        var added: [Int: PlanningOverlay.AddedRide] = [:]
        let stopIndexes = try stopIndexes(ids: live.addedTrips.flatMap { $0.stops.map(\.stopID) })
        let routeIndexes = try routeIndexes()
        for (i, trip) in live.addedTrips.enumerated() {
            var events: [StopEvent] = []
            var eventStops: [Int] = []
            for stop in trip.stops {
                guard let index = stopIndexes[stop.stopID], let time = stop.departure ?? stop.arrival else { continue }
                let departure = network.timelineSeconds(time)
                let arrival = network.timelineSeconds(stop.arrival ?? time)
                guard TimetableBuilder.timeRange.contains(arrival), TimetableBuilder.timeRange.contains(departure)
                else { continue }
                events.append(
                    StopEvent(
                        stop: index - 1, arrival: min(arrival, departure), departure: departure,
                        canBoard: !stop.skipped,
                        canAlight: !stop.skipped))
                eventStops.append(index)
            }
            guard events.count >= 2 else { continue }
            let ref = network.tripInstances.count + i
            let routeIndex = trip.routeID.flatMap { routeIndexes[$0] } ?? -1
            do {
                try builder.add(trip: ref, route: routeIndex, events: events, stepFree: false)
            } catch {
                continue  // times running backwards: not a trip anyone can plan on
            }
            let route =
                trip.routeID.flatMap { routes[$0]?.info }
                ?? RouteInfo(
                    id: trip.routeID ?? "", shortName: nil, longName: nil, mode: .other, color: nil, textColor: nil,
                    agency: "")
            let first = trip.stops.first { $0.departure ?? $0.arrival != nil }.flatMap { $0.departure ?? $0.arrival }
            added[ref] = PlanningOverlay.AddedRide(
                trip: trip, route: route, eventStops: eventStops,
                serviceDate: trip.startDate ?? ServiceDate.containing(first ?? network.reference, in: timeZone))
        }
        return PlanningOverlay(
            network: network, overlay: builder.build(), index: index, liveTrips: liveTrips, addedTrips: added,
            carriesLiveData: true, liveKey: key, tripsOutsideNetwork: outside)
    }

    /// The trip's events at their predicted times, or nil when no stop has a prediction or a skip.
    static func predicted(_ scheduled: [StopEvent], _ stops: [StopPrediction]) -> [StopEvent]? {
        var events = scheduled
        var changed = false
        var carry = 0
        for i in events.indices {
            switch stops[i] {
            case let .delay(arrival, departure, _):
                events[i].arrival += arrival
                events[i].departure += departure
                carry = departure
                changed = true
            case .skipped:
                events[i].arrival += carry
                events[i].departure += carry
                events[i].canBoard = false
                events[i].canAlight = false
                changed = true
            case .none, .noData:
                carry = 0
            }
            if i > 0 { events[i].arrival = max(events[i].arrival, events[i - 1].departure) }
            events[i].departure = max(events[i].departure, events[i].arrival)
        }
        return changed ? events : nil
    }
}

/// The overlays plans read, one per network: the step-free one (built once per network) and the live one
/// (built once per realtime poll, from the step-free one). Publishing is a swap under a lock held for
/// nothing but the swap; a plan holds the overlay it got until it finishes.
public final class PlanningOverlayCache: Sendable {
    private struct State {
        var stepFree: PlanningOverlay?
        var live: PlanningOverlay?
        var index: TripReferenceIndex?
    }
    private let state = Mutex(State())
    /// Serialises builds, so that concurrent plans after a poll build the overlay once.
    private let building = Mutex(())

    public init() {}

    /// The step-free overlay of `network`, built on first use.
    public func stepFree(for network: PlanningNetwork, database: RouteDatabase) throws -> PlanningOverlay {
        if let known = state.withLock({ $0.stepFree }), known.network === network { return known }
        return try building.withLock { _ in
            if let known = state.withLock({ $0.stepFree }), known.network === network { return known }
            let index = try self.index(for: network)
            let built = try database.stepFreeOverlay(for: network, index: index)
            state.withLock { $0.stepFree = built }
            return built
        }
    }

    /// The overlay of `live`'s trip updates over `network`: the published one when it was built from the same
    /// poll, else built now and published (a poller calls this as data arrives, so plans find it ready).
    public func live(
        for network: PlanningNetwork, live: LiveData, database: RouteDatabase
    ) throws -> PlanningOverlay? {
        guard let fetched = live.tripUpdates else { return nil }
        let key = PlanningOverlay.LiveKey(headerTimestamp: fetched.headerTimestamp, fetchedAt: fetched.fetchedAt)
        if let known = state.withLock({ $0.live }), known.network === network, known.liveKey == key { return known }
        return try building.withLock { _ in
            if let known = state.withLock({ $0.live }), known.network === network, known.liveKey == key {
                return known
            }
            let index = try self.index(for: network)
            let stepFree: PlanningOverlay?
            if let known = state.withLock({ $0.stepFree }), known.network === network {
                stepFree = known
            } else {
                stepFree = try database.stepFreeOverlay(for: network, index: index)
                state.withLock { $0.stepFree = stepFree }
            }
            let built = try database.liveOverlay(
                for: network, live: fetched.value, key: key, routes: live.routes, stepFree: stepFree, index: index)
            state.withLock { $0.live = built }
            return built
        }
    }

    /// The overlay already published for `live`'s current trip updates over `network`, never building one: what a
    /// plan would find ready.
    public func publishedLive(for network: PlanningNetwork, live: LiveData) -> PlanningOverlay? {
        guard let fetched = live.tripUpdates, let known = state.withLock({ $0.live }), known.network === network,
            known.liveKey
                == PlanningOverlay.LiveKey(headerTimestamp: fetched.headerTimestamp, fetchedAt: fetched.fetchedAt)
        else { return nil }
        return known
    }

    private func index(for network: PlanningNetwork) throws -> TripReferenceIndex {
        if let index = state.withLock({ $0.index }), index.belongs(to: network.timetable) { return index }
        let index = TripReferenceIndex(network.timetable)
        state.withLock { $0.index = index }
        return index
    }
}

extension PlanningOverlay {
    /// A ride's timetable times at boarding and alighting when the overlay replaced its trip (the journey
    /// rides the predicted ones), else nil.
    func scheduledTimes(_ ride: RideLeg) -> (departure: Int, arrival: Int)? {
        guard liveTrips[ride.tripRef] != nil, let events = index.events(ofTrip: ride.tripRef),
            ride.boardEventIndex < events.count, ride.alightEventIndex < events.count
        else { return nil }
        return (events[ride.boardEventIndex].departure, events[ride.alightEventIndex].arrival)
    }

    /// A ride's live state, as the board would show its departure: `updated` with the delay at boarding when
    /// the feed predicts the trip there (or at the alighting stop), `scheduled` otherwise. Nil without live data.
    func rideRealtime(_ ride: RideLeg) -> RideRealtime? {
        guard carriesLiveData else { return nil }
        guard let trip = liveTrips[ride.tripRef], let scheduled = scheduledTimes(ride) else {
            return RideRealtime(state: .scheduled)
        }
        let predictedAtBoarding: Bool
        if case .delay = trip.stops[ride.boardEventIndex] {
            predictedAtBoarding = true
        } else {
            predictedAtBoarding = false
        }
        let predictedAtAlighting: Bool
        if case .delay = trip.stops[ride.alightEventIndex] {
            predictedAtAlighting = true
        } else {
            predictedAtAlighting = false
        }
        guard predictedAtBoarding || predictedAtAlighting else { return RideRealtime(state: .scheduled) }
        return RideRealtime(
            state: .updated, delaySeconds: ride.boardTime - scheduled.departure,
            predictedDeparture: network.instant(ride.boardTime), predictedArrival: network.instant(ride.alightTime))
    }

    /// The step of a ride on a trip the feed added, or nil for the timetable's trips.
    func rideStep(_ ride: RideLeg, database: RouteDatabase, stop: (Int) throws -> StopInfo) throws -> JourneyStep? {
        guard let added = addedTrips[ride.tripRef] else { return nil }
        return JourneyStep(
            kind: .ride, from: try stop(ride.boardStop), to: try stop(ride.alightStop),
            departure: network.instant(ride.boardTime), arrival: network.instant(ride.alightTime),
            minutes: RouteDatabase.minutes(from: ride.boardTime, to: ride.alightTime), route: added.route,
            headsign: added.trip.headsign, tripID: added.trip.tripID,
            serviceDate: added.serviceDate.description, stops: ride.stopCount,
            realtime: RideRealtime(
                state: .added, predictedDeparture: network.instant(ride.boardTime),
                predictedArrival: network.instant(ride.alightTime)))
    }
}

/// How a plan may be asked beyond origin, destination and time.
public struct PlanOptions: Sendable, Equatable {
    /// Arrive by this moment (the plan's `at` is then the earliest departure considered).
    public var arriveBy: Date?
    /// Step-free trips and stops only.
    public var stepFree: Bool

    /// How far before an arrive-by moment departures are considered when no earlier bound is given.
    public static let arriveByWindow: TimeInterval = 3 * 3600

    public init(arriveBy: Date? = nil, stepFree: Bool = false) {
        self.arriveBy = arriveBy
        self.stepFree = stepFree
    }
}

extension RouteDatabase {
    /// The plan a passenger sees at `now`: on live times when `live` carries fresh trip updates (through the
    /// cache's overlay for that poll, built once), else on the timetable with the plan saying why, as the
    /// stop view does (`stale` in mixed mode, `withheld` in online mode: the options are the timetable's, the
    /// screens say live data is unavailable). Without live data configured (`live` nil or offline) the plan is
    /// exactly `plan(...)`'s. A step-free plan with no option also carries the ordinary options, separately.
    public func livePlan(
        from origin: ResolvedStop, to destination: ResolvedStop, at: Date, maxTransfers: Int = 3,
        rules: PlanningRules = PlanningRules(), options: PlanOptions = PlanOptions(),
        live: LiveData?, now: Date, cache: PlanningOverlayCache, network: PlanningNetwork? = nil
    ) throws -> JourneyPlan {
        try checkServiceRange(ServiceDate.containing(options.arriveBy ?? at, in: timeZone))
        let network = try network ?? planningNetwork(around: options.arriveBy ?? at, rules: rules)
        var overlay: PlanningOverlay?
        var status: LiveDataStatus?
        var unavailableSince: Date?
        let liveConfigured = live.map { $0.mode != .offline && $0.hasTripUpdatesFeed } ?? false
        if let live, liveConfigured {
            let freshness = live.tripUpdatesFreshness(now: now)
            switch freshness.display {
            case .live:
                overlay = try cache.live(for: network, live: live, database: self)
                status = overlay == nil ? .stale : .live
            case .scheduled: status = .stale
            case .nothing: status = .withheld
            }
            if status != .live, let fetched = live.tripUpdates {
                unavailableSince = min(fetched.fetchedAt, fetched.headerTimestamp ?? fetched.fetchedAt)
            }
        }
        if options.stepFree && overlay == nil { overlay = try cache.stepFree(for: network, database: self) }
        var result = try plan(
            from: origin, to: destination, at: at, maxTransfers: maxTransfers, rules: rules, network: network,
            overlay: overlay, arriveBy: options.arriveBy, stepFree: options.stepFree)
        if liveConfigured {
            result.liveTimesUsed = overlay?.carriesLiveData == true
            result.realtimeStatus = status
            result.realtimeUnavailableSince = unavailableSince
        }
        result.arriveBy = options.arriveBy
        if options.stepFree {
            result.stepFree = true
            if result.options.isEmpty {
                let ordinary = try plan(
                    from: origin, to: destination, at: at, maxTransfers: maxTransfers, rules: rules, network: network,
                    overlay: overlay?.carriesLiveData == true ? overlay : nil, arriveBy: options.arriveBy)
                result.withoutStepFree = ordinary.options
            }
        }
        return result
    }
}
