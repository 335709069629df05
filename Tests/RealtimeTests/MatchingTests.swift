import Foundation
import Realtime
import Testing
import TransitModel
import TransitStore

/// Trip updates built with the generated types, applied to a hand-made five-stop trip (A–E, 10 min apart).
@Suite struct MatchingTests {
    typealias S = RealtimeSupport

    func apply(
        _ entities: [TransitRealtime_FeedEntity], schedules: [ScheduledTrip] = [S.trip("T1")]
    ) throws -> LiveTimetable {
        let feed = try S.feed(timestamp: UInt64(S.epoch(8, 0)), entities)
        return S.matcher.match(feed, schedules: Dictionary(uniqueKeysWithValues: schedules.map { ($0.tripID, $0) }))
    }

    func states(_ live: LiveTimetable, _ tripID: String = "T1") -> [DepartureRealtime] {
        (0..<5).map { live.realtime(for: S.departure(tripID, stopIndex: $0)).realtime }
    }

    @Test func delayPropagatesDownstreamUntilTheNextUpdate() throws {
        let live = try apply([
            S.tripUpdate("T1", [S.stop(sequence: 20, departureDelay: 120), S.stop(sequence: 40, arrivalDelay: 30)])
        ])
        let delays = states(live).map(\.delaySeconds)
        #expect(delays == [nil, 120, 120, 30, 30])  // A before the first update stays scheduled
        #expect(states(live).map(\.state) == [.scheduled, .updated, .updated, .updated, .updated])
        let c = states(live)[2]
        #expect(c.predictedTime == S.instant(8, 22))
        #expect(
            live.statistics.stopsMatched == 2 && live.statistics.tripsMatched == 1 && live.statistics.delaysOnly == 2)
    }

    @Test func absoluteTimesBecomeDelaysAgainstTheSchedule() throws {
        let live = try apply([
            S.tripUpdate("T1", [S.stop(sequence: 30, arrivalTime: S.epoch(8, 21), departureTime: S.epoch(8, 21, 30))])
        ])
        #expect(states(live).map(\.delaySeconds) == [nil, nil, 90, 90, 90])
        #expect(states(live)[4].predictedTime == S.instant(8, 41, 30))
        #expect(live.statistics.absoluteTimes == 2 && live.statistics.delaysOnly == 0)
    }

    @Test func absoluteTimeWinsOverAConflictingDelay() throws {
        var update = S.stop(sequence: 20, departureDelay: 600)
        update.departure.time = S.epoch(8, 11)  // 60 s late, while the delay field says 600
        let live = try apply([S.tripUpdate("T1", [update])])
        #expect(states(live)[1].delaySeconds == 60)
        #expect(live.statistics.timeDelayConflicts == 1)
    }

    @Test func skippedStopPassesTheDelayOn() throws {
        let live = try apply([
            S.tripUpdate(
                "T1", [S.stop(sequence: 20, departureDelay: 60), S.stop(sequence: 30, relationship: .skipped)])
        ])
        #expect(states(live).map(\.state) == [.scheduled, .updated, .skipped, .updated, .updated])
        #expect(states(live)[3].delaySeconds == 60)
        #expect(live.statistics.skippedStops == 1)
    }

    @Test func noDataStopsPropagationAndShowsTheSchedule() throws {
        let live = try apply([
            S.tripUpdate(
                "T1",
                [
                    S.stop(sequence: 10, departureDelay: 180), S.stop(sequence: 30, relationship: .noData),
                    S.stop(sequence: 50, arrivalDelay: -30),
                ])
        ])
        #expect(states(live).map(\.state) == [.updated, .updated, .scheduled, .scheduled, .updated])
        #expect(states(live).map(\.delaySeconds) == [180, 180, nil, nil, -30])
        #expect(live.statistics.noDataStops == 1)
    }

    @Test func canceledTripCancelsEveryDeparture() throws {
        let live = try apply([S.tripUpdate("T1", relationship: .canceled, [])])
        #expect(states(live).allSatisfy { $0.state == .canceled && $0.predictedTime == nil })
        #expect(live.statistics.tripsCanceled == 1)
    }

    @Test func deletedTripIsHidden() throws {
        let live = try apply([S.tripUpdate("T1", relationship: .deleted, [])])
        #expect(live.realtime(for: S.departure("T1", stopIndex: 2)).hidden)
        #expect(live.statistics.tripsDeleted == 1)
    }

    @Test func tripLevelDelayAppliesWhereNoStopUpdateDoes() throws {
        let live = try apply([S.tripUpdate("T1", delay: 240, [S.stop(sequence: 40, departureDelay: 0)])])
        #expect(states(live).map(\.delaySeconds) == [240, 240, 240, 0, 0])
    }

    @Test func otherServiceDateDoesNotMatch() throws {
        let live = try apply([S.tripUpdate("T1", startDate: "20260303", [S.stop(sequence: 20, departureDelay: 60)])])
        #expect(states(live).allSatisfy { $0.state == .scheduled })
        #expect(live.liveTrips(id: "T1").first?.serviceDate == ServiceDate(yyyymmdd: 20260303))
    }

    @Test func missingStartDateIsPlacedOnTheDayTheTripRuns() throws {
        let live = try apply([S.tripUpdate("T1", startDate: nil, [S.stop(sequence: 20, departureTime: S.epoch(8, 12))])]
        )
        #expect(live.liveTrips(id: "T1").first?.serviceDate == S.date)
        #expect(states(live)[1].delaySeconds == 120)
    }

    @Test func sequenceDisagreeingWithStopIDFollowsTheStopID() throws {
        // stop_sequence 30 is C, but the stop_id says D: the stop_id is on the trip, after the previous update.
        let live = try apply([
            S.tripUpdate(
                "T1",
                [S.stop(sequence: 20, id: "B", departureDelay: 0), S.stop(sequence: 30, id: "D", departureDelay: 300)])
        ])
        #expect(states(live).map(\.delaySeconds) == [nil, 0, 0, 300, 300])
        #expect(live.statistics.sequenceStopIDDisagreements == 1)
        #expect(live.statistics.stopsMatched == 2)
    }

    @Test func stopIDAloneMatches() throws {
        let live = try apply([S.tripUpdate("T1", [S.stop(id: "C", departureDelay: 45)])])
        #expect(states(live).map(\.delaySeconds) == [nil, nil, 45, 45, 45])
    }

    @Test func unknownTripsAndStopsAreCountedNotFatal() throws {
        let live = try apply([
            S.tripUpdate("NOPE", [S.stop(sequence: 10, departureDelay: 60)]),
            S.tripUpdate(
                "T1",
                [
                    S.stop(sequence: 99, departureDelay: 60), S.stop(id: "Z", departureDelay: 60),
                    S.stop(sequence: 20, departureDelay: 30),
                ]),
        ])
        #expect(live.statistics.tripsUnknown == 1 && live.statistics.unknownTripIDs == ["NOPE"])
        #expect(live.statistics.stopsUnknown == 2 && live.statistics.stopsMatched == 1)
        #expect(live.statistics.tripMatchRate == 0.5)
        #expect(states(live)[1].delaySeconds == 30)
    }

    @Test func frequencyTripInstanceIsMatchedByStartTime() throws {
        // A frequency template: instances start 08:00 and 08:15; only the 08:15 one is late.
        let template = S.trip("F1", frequency: true)
        let live = try apply(
            [S.tripUpdate("F1", startTime: "08:15:00", [S.stop(sequence: 20, departureDelay: 90)])],
            schedules: [template])
        var late = S.departure("F1", stopIndex: 2)
        late.time = late.time.addingTimeInterval(900)
        late.scheduledTime = GTFSTime(seconds: 8 * 3600 + 1200 + 900).description
        #expect(live.realtime(for: late).realtime.delaySeconds == 90)
        #expect(live.realtime(for: S.departure("F1", stopIndex: 2)).realtime.state == .scheduled)
    }

    @Test func addedTripDepartsWithItsOwnTimes() throws {
        let live = try apply([
            S.tripUpdate(
                "X9", relationship: .added, routeID: "R1",
                [
                    S.stop(id: "B", departureTime: S.epoch(8, 5)), S.stop(id: "C", departureTime: S.epoch(8, 14)),
                    S.stop(id: "E", arrivalTime: S.epoch(8, 30)),
                ])
        ])
        #expect(live.statistics.tripsAdded == 1 && live.statistics.tripsUnknown == 0)
        let routes = ["R1": RouteRecord(info: S.route, agencyID: "A", routeType: 3)]
        let added = live.addedDepartures(
            at: [S.stopInfo("C")], from: S.instant(8, 0), to: S.instant(9, 0), routes: routes)
        #expect(added.count == 1)
        #expect(
            added.first?.realtime?.state == .added && added.first?.time == S.instant(8, 14)
                && added.first?.route.id == "R1")
        #expect(added.first?.scheduledTime == "08:14:00")
        // Never from the trip's last stop.
        #expect(
            live.addedDepartures(at: [S.stopInfo("E")], from: S.instant(8, 0), to: S.instant(9, 0), routes: routes)
                .isEmpty)
    }
}
