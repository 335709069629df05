// The planner with a `TimetableOverlay` (realtime changes, step-free restrictions) and arrive-by queries,
// against the brute-force time-expanded search run on the network as the changes leave it. The changes are
// applied to the raw network independently of the overlay (a cancelled trip removed, a live copy in place
// of its trip, an added trip appended, a step-free query without the trips and stop calls it may not use),
// and every returned journey is replayed on that modified network.

import JourneyPlanner
import KioskTesting
import Testing

/// Random live changes to `net`: the overlay for the planner and the network as they leave it.
struct LiveChanges {
    var overlay: TimetableOverlay
    var modified: RawNetwork
    var cancelled = 0, replaced = 0, added = 0
}

func randomLiveChanges(
    _ net: RawNetwork, timetable: Timetable, seed: UInt64, stepFree: Bool, live: Bool = true
) throws -> LiveChanges {
    var rng = SplitMix64(seed: seed ^ 0x1234_5678)
    var builder = TimetableOverlayBuilder(index: TripReferenceIndex(timetable))
    var modified = net
    modified.trips = []
    var notStepFreeStops = Set<Int>()
    if stepFree {
        builder.noteStepFreeData()
        for s in 0..<net.stopCount where rng.chance(0.2) {
            builder.markNotStepFree(stop: s)
            notStepFreeStops.insert(s)
        }
    }
    var cancelled = 0, replaced = 0, added = 0
    for trip in net.trips {
        let tripStepFree = !stepFree || !rng.chance(0.3)
        if !tripStepFree { builder.markNotStepFree(trip: trip.ref) }
        let roll = live ? rng.int(0...99) : 99
        if roll < 12 {
            builder.cancel(trip: trip.ref)
            cancelled += 1
            continue
        }
        var events = trip.events
        if roll < 50 {
            // Delays that change along the way (early too), skipped calls, times kept in travel order.
            var delay = rng.int(-120...900)
            for i in events.indices {
                if rng.chance(0.3) { delay = rng.int(-300...1200) }
                events[i].arrival += delay
                events[i].departure += delay + (rng.chance(0.2) ? rng.int(0...120) : 0)
                if i > 0 && i < events.count - 1 && rng.chance(0.15) {
                    events[i].canBoard = false
                    events[i].canAlight = false
                }
            }
            for i in events.indices {
                if i > 0 { events[i].arrival = max(events[i].arrival, events[i - 1].departure) }
                events[i].departure = max(events[i].departure, events[i].arrival)
            }
            let known = try builder.replace(trip: trip.ref, events: events)
            #expect(known)
            replaced += 1
        }
        if tripStepFree { modified.trips.append(RawTrip(ref: trip.ref, route: trip.route, events: events)) }
    }
    if live {
        for a in 0..<rng.int(0...4) {
            let length = rng.int(2...6)
            var time = rng.int(0...160_000)
            var events: [StopEvent] = []
            for _ in 0..<length {
                let arrival = time
                time += rng.int(0...120)
                events.append(
                    StopEvent(
                        stop: rng.int(0...(net.stopCount - 1)), arrival: arrival, departure: time,
                        canBoard: !rng.chance(0.1), canAlight: !rng.chance(0.1)))
                time += rng.int(30...900)
            }
            let tripStepFree = !stepFree || rng.chance(0.5)
            try builder.add(trip: 900_000 + a, route: 77, events: events, stepFree: tripStepFree)
            added += 1
            if tripStepFree { modified.trips.append(RawTrip(ref: 900_000 + a, route: 77, events: events)) }
        }
    }
    if stepFree {
        for t in modified.trips.indices {
            for i in modified.trips[t].events.indices where notStepFreeStops.contains(modified.trips[t].events[i].stop) {
                modified.trips[t].events[i].canBoard = false
                modified.trips[t].events[i].canAlight = false
            }
        }
    }
    return LiveChanges(
        overlay: builder.build(), modified: modified, cancelled: cancelled, replaced: replaced, added: added)
}

/// Compares one leave-at query answered by `plan` with the oracle; failure descriptions (empty: agreement).
func compareLeaveAt(_ plan: (PlanQuery) -> [Journey], _ oracle: Oracle, _ query: PlanQuery, label: String) -> [String] {
    let journeys = plan(query)
    let front = oracle.paretoFront(query)
    let got = journeys.map { "\($0.rides)@\($0.arrival)" }
    let want = front.map { "\($0.rides)@\($0.arrival)" }
    guard got == want else { return ["\(label): Pareto set \(got), oracle \(want); query \(query)"] }
    var problems: [String] = []
    for journey in journeys {
        for v in violations(of: journey, for: query, in: oracle.net, oracle.sem) {
            problems.append("\(label): invalid journey (\(v)): \(journey)")
        }
        let latest = oracle.latestDeparture(query, arrival: journey.arrival, rides: journey.rides)
        if latest != journey.departure {
            problems.append(
                "\(label): departs \(journey.departure), latest possible \(String(describing: latest)): \(journey)")
        }
    }
    return problems
}

/// Arrive by `deadline`: per number of rides the latest departure (not before the query's), kept when later
/// than with fewer rides, and the earliest arrival from it.
func compareArriveBy(
    _ plan: (PlanQuery, Int) -> [Journey], _ oracle: Oracle, _ query: PlanQuery, deadline: Int, label: String
) -> [String] {
    let journeys = plan(query, deadline)
    var want: [String] = []
    var previous = query.departure - 1
    for k in 1...(query.maxTransfers + 1) {
        guard let leave = oracle.latestDeparture(query, arrival: deadline, rides: k), leave > previous else { continue }
        previous = leave
        let arrival = oracle.earliestArrivals(query, departure: leave)[k]
        want.append("\(k)@\(leave)→\(arrival.map(String.init) ?? "none")")
    }
    let got = journeys.map { "\($0.rides)@\($0.departure)→\($0.arrival)" }
    guard got == want else { return ["\(label): arrive-by \(deadline): \(got), oracle \(want); query \(query)"] }
    var problems: [String] = []
    for journey in journeys {
        for v in violations(of: journey, for: query, in: oracle.net, oracle.sem) {
            problems.append("\(label): invalid journey (\(v)): \(journey)")
        }
        if journey.arrival > deadline { problems.append("\(label): arrives \(journey.arrival) after \(deadline)") }
    }
    return problems
}

func runOverlayCase(
    seed: UInt64, shape: NetworkShape, queries: Int, stepFree: Bool, live: Bool
) throws -> (journeys: Int, problems: [String]) {
    let net = randomNetwork(seed: seed, shape: shape)
    let timetable = try net.timetable(shuffleWith: seed ^ 0x5555)
    let changes = try randomLiveChanges(net, timetable: timetable, seed: seed, stepFree: stepFree, live: live)
    let planner = Planner(timetable: timetable)
    let oracle = Oracle(changes.modified)
    var rng = SplitMix64(seed: seed ^ 0xA5A5_A5A5)
    var problems: [String] = []
    var journeys = 0
    for q in 0..<queries {
        var query = randomQuery(&rng, stopCount: net.stopCount)
        query.stepFreeOnly = stepFree
        let label = "seed \(seed) query \(q) (stepFree \(stepFree), live \(live))"
        problems += compareLeaveAt({ planner.plan($0, overlay: changes.overlay) }, oracle, query, label: label)
        let deadline = query.departure + rng.int(0...40_000)
        problems += compareArriveBy(
            { planner.plan($0, arrivingBy: $1, overlay: changes.overlay) }, oracle, query, deadline: deadline,
            label: label)
        journeys += planner.plan(query, overlay: changes.overlay).count
        if problems.count > 5 { break }
    }
    return (journeys, problems)
}

@Suite("Planner with live changes, arrive-by and step-free, against the oracle")
struct OverlayOracleTests {
    /// 20 batches × 20 small networks × 8 queries, each asked leave-at and arrive-by, with live changes.
    @Test(arguments: 0..<20)
    func liveChangesOnSmallNetworks(batch: Int) throws {
        var problems: [String] = []
        var journeys = 0
        for i in 0..<20 {
            let result = try runOverlayCase(
                seed: UInt64(3_000_000 + batch * 1000 + i), shape: .small, queries: 8, stepFree: false, live: true)
            problems += result.problems
            journeys += result.journeys
            if !problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(journeys > 0)
    }

    @Test(arguments: 0..<6)
    func liveChangesOnMediumNetworks(batch: Int) throws {
        var problems: [String] = []
        for i in 0..<4 {
            problems +=
                try runOverlayCase(
                    seed: UInt64(4_000_000 + batch * 100 + i), shape: .medium, queries: 30, stepFree: false, live: true
                ).problems
            if !problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// Step-free only, with and without live changes (copies inherit their trip's restriction).
    @Test(arguments: 0..<10)
    func stepFreeOnRandomNetworks(batch: Int) throws {
        var problems: [String] = []
        var journeys = 0
        for i in 0..<10 {
            let seed = UInt64(5_000_000 + batch * 1000 + i)
            let shape: NetworkShape = i % 3 == 0 ? .medium : .small
            let result = try runOverlayCase(seed: seed, shape: shape, queries: 10, stepFree: true, live: i % 2 == 0)
            problems += result.problems
            journeys += result.journeys
            if !problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(journeys > 0)
    }

    /// Arrive-by on the timetable alone (no overlay) against the oracle on the unchanged network.
    @Test(arguments: 0..<10)
    func arriveByWithoutOverlay(batch: Int) throws {
        var problems: [String] = []
        var found = 0
        for i in 0..<20 {
            let seed = UInt64(6_000_000 + batch * 1000 + i)
            let net = randomNetwork(seed: seed, shape: i % 4 == 0 ? .medium : .small)
            let planner = Planner(timetable: try net.timetable())
            let oracle = Oracle(net)
            var rng = SplitMix64(seed: seed)
            for q in 0..<8 {
                let query = randomQuery(&rng, stopCount: net.stopCount)
                let deadline = query.departure + rng.int(0...60_000)
                found += planner.plan(query, arrivingBy: deadline).count
                problems += compareArriveBy(
                    { planner.plan($0, arrivingBy: $1) }, oracle, query, deadline: deadline,
                    label: "seed \(seed) query \(q)")
            }
            if !problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(found > 0)
    }

    /// The overlay with changes applied must be exercised: cancellations, copies and added trips all occur.
    @Test func randomChangesCoverEveryKind() throws {
        var cancelled = 0, replaced = 0, added = 0
        for seed in UInt64(100)..<120 {
            let net = randomNetwork(seed: seed, shape: .medium)
            let changes = try randomLiveChanges(
                net, timetable: try net.timetable(), seed: seed, stepFree: false)
            cancelled += changes.overlay.cancelledTripCount
            replaced += changes.overlay.replacedTripCount
            added += changes.overlay.addedTripCount
            #expect(changes.cancelled == changes.overlay.cancelledTripCount)
        }
        #expect(cancelled > 20 && replaced > 50 && added > 10)
    }
}

@Suite("Live changes on a hand-made line")
struct LiveOverlayExamples {
    /// Three trips A→B at 08:00, 08:10, 08:20.
    func line() throws -> Timetable {
        var builder = TimetableBuilder(stopCount: 2)
        for (i, start) in [8 * 3600, 8 * 3600 + 600, 8 * 3600 + 1200].enumerated() {
            try builder.addTrip(
                tripRef: i, routeRef: 0,
                events: [StopEvent(stop: 0, time: start), StopEvent(stop: 1, time: start + 900)])
        }
        return builder.build()
    }

    @Test func aCancelledTripIsNeverBoardedTheNextOneIs() throws {
        let timetable = try line()
        let planner = Planner(timetable: timetable)
        let query = PlanQuery(from: 0, to: 1, departure: 8 * 3600)
        guard case .ride(let before) = planner.plan(query).first?.legs.first else {
            Issue.record("no ride without changes")
            return
        }
        #expect(before.tripRef == 0)
        var changes = TimetableOverlayBuilder(index: TripReferenceIndex(timetable))
        let known = changes.cancel(trip: 0)
        #expect(known)
        let journeys = planner.plan(query, overlay: changes.build())
        guard case .ride(let after) = journeys.first?.legs.first else {
            Issue.record("no ride after the cancellation")
            return
        }
        #expect(after.tripRef == 1)
        #expect(after.boardTime == 8 * 3600 + 600)
        #expect(journeys.first?.arrival == 8 * 3600 + 1500)
    }

    @Test func aDelayedTripThatOvertakesIsRiddenAtItsPredictedTimes() throws {
        let timetable = try line()
        var changes = TimetableOverlayBuilder(index: TripReferenceIndex(timetable))
        // Trip 0 leaves 15 minutes late: after trip 1, which now arrives first.
        var events = try #require(changes.events(ofTrip: 0))
        for i in events.indices { events[i].arrival += 900; events[i].departure += 900 }
        let replaced = try changes.replace(trip: 0, events: events)
        #expect(replaced)
        let overlay = changes.build()
        let planner = Planner(timetable: timetable)
        let journeys = planner.plan(PlanQuery(from: 0, to: 1, departure: 8 * 3600 + 700), overlay: overlay)
        guard case .ride(let ride) = journeys.first?.legs.first else {
            Issue.record("no journey")
            return
        }
        #expect(ride.tripRef == 0)
        #expect(ride.boardTime == 8 * 3600 + 900)
        #expect(ride.alightTime == 8 * 3600 + 1800)
        // Arrive by 08:32: trip 1 (08:10 → 08:25) is the latest that makes it; the late trip 0 arrives 08:30
        // and leaves later still (08:15), so it wins.
        let arriveBy = planner.plan(PlanQuery(from: 0, to: 1, departure: 7 * 3600), arrivingBy: 8 * 3600 + 1920, overlay: overlay)
        #expect(arriveBy.map(\.departure) == [8 * 3600 + 900])
    }

    @Test func aSkippedStopIsNeitherBoardedNorLeft() throws {
        var builder = TimetableBuilder(stopCount: 3)
        try builder.addTrip(
            tripRef: 0, routeRef: 0,
            events: [StopEvent(stop: 0, time: 100), StopEvent(stop: 1, time: 200), StopEvent(stop: 2, time: 300)])
        try builder.addTrip(
            tripRef: 1, routeRef: 0,
            events: [StopEvent(stop: 0, time: 1100), StopEvent(stop: 1, time: 1200), StopEvent(stop: 2, time: 1300)])
        let timetable = builder.build()
        var changes = TimetableOverlayBuilder(index: TripReferenceIndex(timetable))
        var events = try #require(changes.events(ofTrip: 0))
        events[1].canBoard = false
        events[1].canAlight = false
        try changes.replace(trip: 0, events: events)
        let overlay = changes.build()
        let planner = Planner(timetable: timetable)
        #expect(planner.plan(PlanQuery(from: 0, to: 1, departure: 0), overlay: overlay).first?.arrival == 1200)
        #expect(planner.plan(PlanQuery(from: 1, to: 2, departure: 0), overlay: overlay).first?.departure == 1200)
        #expect(planner.plan(PlanQuery(from: 0, to: 2, departure: 0), overlay: overlay).first?.arrival == 300)
    }
}
