// The usage example from `Planner`'s documentation, kept compiling and true.

import JourneyPlanner
import Testing

@Suite("Documentation example")
struct UsageExampleTests {
    @Test func plannerDocumentationExample() throws {
        var builder = TimetableBuilder(stopCount: 3, minTransferSeconds: 60)
        try builder.addTrip(
            tripRef: 0, routeRef: 7,
            events: [
                StopEvent(stop: 0, time: 8 * 3600),
                StopEvent(stop: 1, time: 8 * 3600 + 600),
            ])
        try builder.addFootpath(from: 1, to: 2, seconds: 120)
        let planner = Planner(timetable: builder.build())
        let journeys = planner.plan(PlanQuery(from: 0, to: 2, departure: 7 * 3600 + 3000, maxTransfers: 4))
        #expect(
            journeys == [
                Journey(
                    originStop: 0, departure: 8 * 3600, destinationStop: 2, arrival: 8 * 3600 + 720,
                    legs: [
                        .ride(
                            RideLeg(
                                tripRef: 0, routeRef: 7, boardStop: 0, boardTime: 8 * 3600, alightStop: 1,
                                alightTime: 8 * 3600 + 600, boardEventIndex: 0, alightEventIndex: 1)),
                        .walk(WalkLeg(fromStop: 1, toStop: 2, departure: 8 * 3600 + 600, arrival: 8 * 3600 + 720)),
                    ])
            ])
    }

    @Test func emptyEndpointSetsGiveNoJourney() throws {
        var builder = TimetableBuilder(stopCount: 2)
        try builder.addTrip(
            tripRef: 0, routeRef: 0, events: [StopEvent(stop: 0, time: 100), StopEvent(stop: 1, time: 200)])
        let planner = Planner(timetable: builder.build())
        #expect(planner.plan(PlanQuery(origins: [], destinations: [StopOffset(stop: 1)], departure: 0)).isEmpty)
        #expect(planner.plan(PlanQuery(origins: [StopOffset(stop: 0)], destinations: [], departure: 0)).isEmpty)
        #expect(planner.plan(PlanQuery(from: 0, to: 1, departure: 0)).count == 1)
    }
}
