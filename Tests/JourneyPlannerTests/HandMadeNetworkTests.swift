// Small networks with exact expected journeys. Times are written as h(8, 10) = 08:10 on the caller's
// timeline; each test also runs the oracle so the reference itself is checked against hand computation.

import JourneyPlanner
import Testing

func h(_ hours: Int, _ minutes: Int, _ seconds: Int = 0) -> Int { hours * 3600 + minutes * 60 + seconds }

extension RawNetwork {
    /// A trip with arrival == departure at every stop: `trip(1, route: 7, (0, h(8, 0)), (1, h(8, 10)))`.
    mutating func trip(_ ref: Int, route: Int = 0, _ calls: (stop: Int, time: Int)...) {
        trips.append(RawTrip(ref: ref, route: route, events: calls.map { StopEvent(stop: $0.stop, time: $0.time) }))
    }
}

/// Plans, checks every journey by replay and against the oracle, and returns the journeys.
func planChecked(
    _ net: RawNetwork, _ query: PlanQuery,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [Journey] {
    let planner = Planner(timetable: try net.timetable())
    let journeys = planner.plan(query)
    let oracle = Oracle(net)
    let problems = compare(planner, oracle, query, label: "hand-made")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
    return journeys
}

func ride(
    _ trip: Int, route: Int = 0, _ board: Int, _ boardTime: Int, _ alight: Int, _ alightTime: Int,
    events: (Int, Int)
) -> JourneyLeg {
    .ride(
        RideLeg(
            tripRef: trip, routeRef: route, boardStop: board, boardTime: boardTime, alightStop: alight,
            alightTime: alightTime, boardEventIndex: events.0, alightEventIndex: events.1))
}

func walk(_ from: Int, _ to: Int, _ departure: Int, _ arrival: Int) -> JourneyLeg {
    .walk(WalkLeg(fromStop: from, toStop: to, departure: departure, arrival: arrival))
}

@Suite("Hand-made networks")
struct HandMadeNetworkTests {
    @Test func directRideLeavesAsLateAsPossible() throws {
        var net = RawNetwork(stopCount: 3)
        net.trip(1, route: 7, (0, h(8, 0)), (1, h(8, 10)), (2, h(8, 20)))
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(7, 0)))
        #expect(
            journeys == [
                Journey(
                    originStop: 0, departure: h(8, 0), destinationStop: 2, arrival: h(8, 20),
                    legs: [ride(1, route: 7, 0, h(8, 0), 2, h(8, 20), events: (0, 2))])
            ])
        #expect(journeys.first?.rides == 1 && journeys.first?.transfers == 0)
        #expect(journeys.first?.duration == h(0, 20))
        // One second too late: nothing else runs.
        #expect(try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(8, 0, 1))).isEmpty)
    }

    @Test func rideTransferRideAndTheSlowerDirectRideAreBothPareto() throws {
        var net = RawNetwork(stopCount: 3, minTransfer: 60)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (1, h(8, 12)), (2, h(8, 30)))
        net.trip(3, (0, h(8, 5)), (2, h(9, 0)))
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(7, 50)))
        #expect(journeys.map(\.rides) == [1, 2])
        #expect(journeys[0].legs == [ride(3, 0, h(8, 5), 2, h(9, 0), events: (0, 1))])
        #expect(journeys[0].departure == h(8, 5))
        #expect(
            journeys[1].legs == [
                ride(1, 0, h(8, 0), 1, h(8, 10), events: (0, 1)),
                ride(2, 1, h(8, 12), 2, h(8, 30), events: (0, 1)),
            ])
        #expect(journeys[1].arrival == h(8, 30))
        // With maxTransfers 0 only the direct ride remains.
        let direct = try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(7, 50), maxTransfers: 0))
        #expect(direct.map(\.rides) == [1])
    }

    @Test func walkingToANearbyStopBeatsWaiting() throws {
        var net = RawNetwork(stopCount: 4, minTransfer: 60)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (2, h(8, 15)), (3, h(8, 30)))
        net.trip(3, (1, h(9, 0)), (3, h(9, 10)))
        net.footpaths = [(1, 2, 120), (2, 1, 120)]
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 3, departure: h(7, 55)))
        #expect(journeys.count == 1)
        #expect(
            journeys[0].legs == [
                ride(1, 0, h(8, 0), 1, h(8, 10), events: (0, 1)),
                walk(1, 2, h(8, 10), h(8, 12)),
                ride(2, 2, h(8, 15), 3, h(8, 30), events: (0, 1)),
            ])
    }

    @Test func firstAndLastMileWalksAndEndpointOffsets() throws {
        var net = RawNetwork(stopCount: 4)
        net.trip(1, (1, h(8, 0)), (2, h(8, 20)))
        net.footpaths = [(0, 1, 300), (2, 3, 180)]
        // Origin 0 is 60 s from the passenger, destination 3 is 30 s from the goal.
        let query = PlanQuery(
            origins: [StopOffset(stop: 0, seconds: 60)],
            destinations: [StopOffset(stop: 3, seconds: 30)], departure: h(7, 0))
        let journeys = try planChecked(net, query)
        #expect(
            journeys == [
                Journey(
                    originStop: 0, departure: h(7, 54), destinationStop: 3,
                    arrival: h(8, 23, 30),
                    legs: [
                        walk(0, 1, h(7, 55), h(8, 0)),
                        ride(1, 1, h(8, 0), 2, h(8, 20), events: (0, 1)),
                        walk(2, 3, h(8, 20), h(8, 23)),
                    ])
            ])
    }

    @Test func forbiddenTransferForcesADetour() throws {
        var net = RawNetwork(stopCount: 4, minTransfer: 60)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)), (2, h(8, 20)))
        net.trip(2, (1, h(8, 15)), (3, h(8, 30)))
        net.trip(3, (2, h(8, 25)), (3, h(8, 50)))
        let query = PlanQuery(from: 0, to: 3, departure: h(7, 55))
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 30)])
        net.forbidden = [(1, 1)]
        let detour = try planChecked(net, query)
        #expect(detour.map(\.arrival) == [h(8, 50)])
        #expect(
            detour.first?.legs == [
                ride(1, 0, h(8, 0), 2, h(8, 20), events: (0, 2)),
                ride(3, 2, h(8, 25), 3, h(8, 50), events: (0, 1)),
            ])
        // Forbidding 2 → 2 as well leaves nothing.
        net.forbidden.append((2, 2))
        #expect(try planChecked(net, query).isEmpty)
    }

    @Test func sameStopTransferMissedBecauseOfMinimumTransferTime() throws {
        var net = RawNetwork(stopCount: 3, minTransfer: 60)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (1, h(8, 10, 30)), (2, h(8, 20)))
        net.trip(3, (1, h(8, 20)), (2, h(8, 30)))
        let query = PlanQuery(from: 0, to: 2, departure: h(7, 55))
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 30)])
        // A stop-specific rule of 20 s makes the tight change possible.
        net.pairRules = [(1, 1, 20)]
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 20)])
        // …and exactly 30 s is still enough (boarding needs ready <= departure).
        net.pairRules = [(1, 1, 30)]
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 20)])
    }

    @Test func pairSpecificTimeRaisesTheWalkBetweenStops() throws {
        var net = RawNetwork(stopCount: 4)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (2, h(8, 12)), (3, h(8, 20)))
        net.trip(3, (2, h(8, 20)), (3, h(8, 28)))
        net.footpaths = [(1, 2, 60)]
        let query = PlanQuery(from: 0, to: 3, departure: h(8, 0))
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 20)])
        net.pairRules = [(1, 2, 300)]  // transfers.txt says 5 minutes between these platforms
        let journeys = try planChecked(net, query)
        #expect(journeys.map(\.arrival) == [h(8, 28)])
        #expect(journeys.first?.legs[1] == walk(1, 2, h(8, 10), h(8, 15)))
        // A pair rule without any footpath still allows the change.
        net.footpaths = []
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 28)])
    }

    @Test func stationGroupPlatformsAreConnected() throws {
        var net = RawNetwork(stopCount: 4, minTransfer: 90)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (2, h(8, 11)), (3, h(8, 20)))
        net.trip(3, (2, h(8, 12)), (3, h(8, 25)))
        let query = PlanQuery(from: 0, to: 3, departure: h(8, 0))
        #expect(try planChecked(net, query).isEmpty)
        net.groups[1] = 5
        net.groups[2] = 5
        let journeys = try planChecked(net, query)
        #expect(journeys.map(\.arrival) == [h(8, 25)])
        #expect(journeys.first?.legs[1] == walk(1, 2, h(8, 10), h(8, 11, 30)))
        // A 30 s footpath is still a change: it takes the minimum change time, as at one platform.
        net.footpaths = [(1, 2, 30)]
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 25)])
        // The walk is what the passenger takes from the alighting platform, change or not.
        #expect(try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(8, 0))).first?.arrival == h(8, 10, 30))
        // transfers.txt may allow a quicker change between the two.
        net.pairRules = [(1, 2, 30)]
        #expect(try planChecked(net, query).map(\.arrival) == [h(8, 20)])
    }

    @Test func boardingAndAlightingRestrictions() throws {
        var net = RawNetwork(stopCount: 3)
        net.trips = [
            RawTrip(
                ref: 1, route: 0,
                events: [
                    StopEvent(stop: 0, time: h(8, 0)),
                    StopEvent(stop: 1, time: h(8, 10), canBoard: false, canAlight: false),
                    StopEvent(stop: 2, time: h(8, 20)),
                ])
        ]
        #expect(try planChecked(net, PlanQuery(from: 0, to: 1, departure: h(7, 0))).isEmpty)
        #expect(try planChecked(net, PlanQuery(from: 1, to: 2, departure: h(7, 0))).isEmpty)
        #expect(try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(7, 0))).map(\.arrival) == [h(8, 20)])
    }

    @Test func afterMidnightTripsOnTheCommonTimeline() throws {
        // Timeline = seconds since midnight of the day before; yesterday's 25:10 trip is 25:10 here.
        var net = RawNetwork(stopCount: 3)
        net.trip(1, (0, h(25, 10)), (1, h(25, 40)))
        net.trip(2, (1, h(24 + 7, 0)), (2, h(24 + 7, 30)))  // today 07:00
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(24 + 0, 30)))
        #expect(journeys.map(\.arrival) == [h(31, 30)])
        #expect(journeys.first?.departure == h(25, 10))
    }

    @Test func overtakingTripsAreSplitAndTheFasterOneIsFound() throws {
        var net = RawNetwork(stopCount: 3)
        net.trip(1, (0, h(8, 0)), (1, h(8, 30)), (2, h(9, 0)))
        net.trip(2, (0, h(8, 10)), (1, h(8, 20)), (2, h(8, 25)))  // express, overtakes trip 1
        net.trip(3, (0, h(8, 40)), (1, h(8, 50)), (2, h(9, 10)))
        let timetable = try net.timetable()
        #expect(timetable.patternCount == 2)
        #expect(timetable.tripCount == 3)
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 2, departure: h(7, 0)))
        #expect(journeys.map(\.departure) == [h(8, 10)])
        #expect(journeys.map(\.arrival) == [h(8, 25)])
    }

    /// Two trips of one pattern that coincide at a timing point (stop 1): boarding there must switch to
    /// the earlier trip, which then runs faster (`ready <= departure`, not `<`).
    @Test func forwardTieAtATimingPointSwitchesToTheEarlierTrip() throws {
        var net = RawNetwork(stopCount: 3)
        net.trip(1, (0, h(8, 0)), (1, h(8, 20)), (2, h(8, 30)))
        net.trip(2, (0, h(8, 10)), (1, h(8, 20)), (2, h(8, 40)))
        #expect(try net.timetable().patternCount == 1)
        let query = PlanQuery(
            origins: [StopOffset(stop: 0, seconds: 300), StopOffset(stop: 1, seconds: 1200)],
            destinations: [StopOffset(stop: 2)], departure: h(8, 0))
        let journeys = try planChecked(net, query)
        #expect(journeys.map(\.arrival) == [h(8, 30)])
        #expect(journeys.first?.legs == [ride(1, 1, h(8, 20), 2, h(8, 30), events: (1, 2))])
    }

    /// Mirror image for the latest departure: alighting at the timing point must switch to the later
    /// trip, which left the origin later (`arrival <= deadline`, not `<`).
    @Test func reverseTieAtATimingPointSwitchesToTheLaterTrip() throws {
        var net = RawNetwork(stopCount: 3)
        net.trip(1, (0, h(8, 0)), (1, h(8, 20)), (2, h(8, 30)))
        net.trip(2, (0, h(8, 10)), (1, h(8, 20)), (2, h(8, 40)))
        let query = PlanQuery(
            origins: [StopOffset(stop: 0)],
            destinations: [StopOffset(stop: 2), StopOffset(stop: 1, seconds: 600)],
            departure: h(7, 55))
        let journeys = try planChecked(net, query)
        #expect(journeys.map(\.arrival) == [h(8, 30)])
        #expect(journeys.first?.departure == h(8, 10))
        #expect(journeys.first?.destinationStop == 1)
    }

    @Test func unreachableDestinationGivesNoJourney() throws {
        var net = RawNetwork(stopCount: 4)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        net.trip(2, (2, h(8, 0)), (3, h(8, 10)))
        #expect(try planChecked(net, PlanQuery(from: 0, to: 3, departure: h(7, 0))).isEmpty)
        #expect(try planChecked(net, PlanQuery(from: 1, to: 0, departure: h(7, 0))).isEmpty)
    }

    @Test func originEqualToDestinationDoesNotCrash() throws {
        var net = RawNetwork(stopCount: 2)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)))
        #expect(try planChecked(net, PlanQuery(from: 0, to: 0, departure: h(7, 0))).isEmpty)
        // With a way back, the round trip is a (silly but valid) 2-ride journey; the caller filters it.
        net.trip(2, (1, h(8, 20)), (0, h(8, 30)))
        let journeys = try planChecked(net, PlanQuery(from: 0, to: 0, departure: h(7, 0)))
        #expect(journeys.map(\.rides) == [2])
        // Empty timetable, no trips at all.
        let empty = Planner(timetable: TimetableBuilder(stopCount: 1).build())
        #expect(empty.plan(PlanQuery(from: 0, to: 0, departure: 0)).isEmpty)
    }

    @Test func loopRouteVisitingAStopTwice() throws {
        var net = RawNetwork(stopCount: 3)
        net.trip(1, (0, h(8, 0)), (1, h(8, 10)), (2, h(8, 20)), (1, h(8, 30)), (0, h(8, 40)))
        let journeys = try planChecked(net, PlanQuery(from: 2, to: 0, departure: h(8, 0)))
        #expect(journeys.first?.legs == [ride(1, 2, h(8, 20), 0, h(8, 40), events: (2, 4))])
        #expect(journeys.first.map { if case .ride(let r) = $0.legs[0] { r.stopCount } else { 0 } } == 2)
    }
}

@Suite("Timetable builder")
struct TimetableBuilderTests {
    @Test func rejectsBadInputWithContext() throws {
        var builder = TimetableBuilder(stopCount: 2)
        #expect(throws: TimetableError.stopOutOfRange(stop: 2, stopCount: 2)) {
            try builder.addTrip(
                tripRef: 9, routeRef: 0, events: [StopEvent(stop: 0, time: 0), StopEvent(stop: 2, time: 5)])
        }
        #expect(throws: TimetableError.timeTravel(tripRef: 9, eventIndex: 1)) {
            try builder.addTrip(
                tripRef: 9, routeRef: 0, events: [StopEvent(stop: 0, time: 10), StopEvent(stop: 1, time: 5)])
        }
        #expect(throws: TimetableError.timeTravel(tripRef: 9, eventIndex: 0)) {
            try builder.addTrip(tripRef: 9, routeRef: 0, events: [StopEvent(stop: 0, arrival: 10, departure: 5)])
        }
        #expect(throws: TimetableError.timeOutOfRange(time: 1 << 31)) {
            try builder.addTrip(tripRef: 9, routeRef: 0, events: [StopEvent(stop: 0, time: 1 << 31)])
        }
        #expect(throws: TimetableError.durationOutOfRange(seconds: -1)) {
            try builder.addFootpath(from: 0, to: 1, seconds: -1)
        }
        #expect(throws: TimetableError.stopOutOfRange(stop: -1, stopCount: 2)) {
            try builder.forbidTransfer(from: -1, to: 0)
        }
        // Failed and one-event trips leave nothing behind.
        try builder.addTrip(tripRef: 1, routeRef: 0, events: [StopEvent(stop: 0, time: 0)])
        let timetable = builder.build()
        #expect(timetable.tripCount == 0 && timetable.stopEventCount == 0 && timetable.patternCount == 0)
    }

    @Test func compilesPatternsWalksAndTransferRules() throws {
        var builder = TimetableBuilder(stopCount: 4, minTransferSeconds: 120)
        for (i, start) in [h(8, 0), h(8, 10), h(7, 50)].enumerated() {
            try builder.addTrip(
                tripRef: i, routeRef: 0,
                events: [
                    StopEvent(stop: 0, time: start),
                    StopEvent(stop: 1, time: start + 600),
                ])
        }
        // Same stops, different pickup rule: a separate pattern.
        try builder.addTrip(
            tripRef: 3, routeRef: 0,
            events: [
                StopEvent(stop: 0, time: h(9, 0), canBoard: false),
                StopEvent(stop: 1, time: h(9, 10)),
            ])
        try builder.addFootpath(from: 0, to: 2, seconds: 400)
        try builder.addFootpath(from: 0, to: 2, seconds: 300)
        try builder.addFootpath(from: 1, to: 1, seconds: 10)  // ignored
        try builder.setStationGroup(1, forStop: 2)
        try builder.setStationGroup(1, forStop: 3)
        try builder.setMinimumTransfer(from: 0, to: 2, seconds: 500)
        try builder.setMinimumTransfer(from: 1, to: 1, seconds: 30)
        try builder.setMinimumTransfer(from: 1, to: 3, seconds: 45)  // no walk: change only
        try builder.forbidTransfer(from: 3, to: 2)
        try builder.forbidTransfer(from: 0, to: 0)
        let t = builder.build()
        #expect(t.patternCount == 2)
        #expect(t.tripCount == 4 && t.stopEventCount == 8)
        #expect(t.walkSeconds(from: 0, to: 2) == 300)
        #expect(t.walkSeconds(from: 2, to: 3) == 120)  // implicit platform walk
        #expect(t.walkSeconds(from: 3, to: 2) == 120)
        #expect(t.walkSeconds(from: 1, to: 3) == nil)
        #expect(t.walkSeconds(from: 1, to: 1) == 0)
        #expect(t.transferSeconds(from: 0, to: 2) == 500)  // raised by the pair rule
        #expect(t.transferSeconds(from: 1, to: 3) == 45)
        #expect(t.transferSeconds(from: 3, to: 2) == nil)  // forbidden, the walk stays
        #expect(t.transferSeconds(from: 1, to: 1) == 30)
        #expect(t.transferSeconds(from: 2, to: 2) == 120)
        #expect(t.transferSeconds(from: 0, to: 0) == nil)
        #expect(t.walkCount == 3 && t.transferCount == 3)
        #expect(t.memoryFootprintBytes > 8 * 4 * 2)
        #expect(Planner(timetable: t).scratchBytes > 0)
    }
}
