import Foundation
import KioskTesting
import Realtime
import SwiftProtobuf
import Testing

/// `kiosk plan` on live data (issue 23), end to end on the sample network: the recorded live scenario
/// (assets/realtime: the 08:03 to La Y 4 minutes late, the 08:11 skipping El Ejido, an extra trip at 08:16) and
/// feeds written here. Freshness is judged at --at, so every run sees the same data as live (or stale).
@Suite struct LivePlanTests {
    static let scenario = LiveLookupTests.scenario
    /// 2026-11-25T07:59:40-05:00, the scenario's header time.
    static let header: UInt64 = 1_795_611_580

    static func plan(_ arguments: [String]) throws -> ProcessResult {
        try Programs.runKiosk(["plan", "TB-EJIDO-N", "TB-LAY"] + arguments)
    }

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        #expect(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    static func firstRide(_ plan: [String: Any]) throws -> [String: Any] {
        let options = try #require(plan["options"] as? [[String: Any]])
        let legs = try #require(options.first?["legs"] as? [[String: Any]])
        return try #require(legs.first { $0["kind"] as? String == "ride" })
    }

    @Test func aDelayedTripIsPlannedAtItsPredictedTimeAndMarkedAsTheBoardMarksIt() throws {
        let timetable = try Self.plan(["--at", "2026-11-25T08:00", "--lang", "en"])
        #expect(timetable.stdout.contains("08:03  Take TB to La Y"), "\(timetable)")
        #expect(!timetable.stdout.contains("live"))

        let text = try Self.plan(["--at", "2026-11-25T08:00", "--lang", "en", "--realtime", Self.scenario])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("● Journeys are planned on live times."), "\(text.stdout)")
        #expect(text.stdout.contains("Option 1: 08:07 → 08:25"), "\(text.stdout)")
        #expect(
            text.stdout.contains("08:07  Take TB to La Y at El Ejido [2008]  ● live +4 min (scheduled 08:03)"),
            "\(text.stdout)")
        #expect(text.stdout.contains("08:25  Get off at La Y [2013]"), "\(text.stdout)")
        let spanish = try Self.plan(["--at", "2026-11-25T08:00", "--lang", "es", "--realtime", Self.scenario])
        #expect(spanish.stdout.contains("● en vivo +4 min (programado 08:03)"), "\(spanish.stdout)")

        let plan = try Self.json(
            try Self.plan(["--at", "2026-11-25T08:00", "--json", "--realtime", Self.scenario]))
        #expect(plan["live_times_used"] as? Bool == true)
        #expect(plan["realtime_status"] as? String == "live")
        let ride = try Self.firstRide(plan)
        #expect(ride["departure"] as? String == "2026-11-25T08:03:00-05:00")  // the timetable's, as on the board
        let realtime = try #require(ride["realtime"] as? [String: Any])
        #expect(realtime["state"] as? String == "updated")
        #expect(realtime["delay_seconds"] as? Int == 240)
        #expect(realtime["predicted_departure"] as? String == "2026-11-25T08:07:00-05:00")
        #expect(realtime["predicted_arrival"] as? String == "2026-11-25T08:25:00-05:00")
        let options = try #require(plan["options"] as? [[String: Any]])
        #expect(options.first?["departure"] as? String == "2026-11-25T08:07:00-05:00")
    }

    @Test func aCancelledTripThatWouldBeBestIsNotSuggestedTheNextOneIs() throws {
        // The 08:03 from El Ejido to La Y (TB-LAB-0-0740) is cancelled: the plan takes the 08:11.
        var entity = TransitRealtime_FeedEntity()
        entity.id = "cancel"
        entity.tripUpdate.trip.tripID = "TB-LAB-0-0740"
        entity.tripUpdate.trip.startDate = "20261125"
        entity.tripUpdate.trip.scheduleRelationship = .canceled
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = Self.header
        message.entity = [entity]
        let feed = TemporaryFolder.make("live-plan").appendingPathComponent("cancel.pb")
        try message.serializedData().write(to: feed)

        let plan = try Self.json(try Self.plan(["--at", "2026-11-25T08:00", "--json", "--realtime", feed.path]))
        let ride = try Self.firstRide(plan)
        #expect(ride["trip_id"] as? String == "TB-LAB-0-0748", "\(ride)")
        #expect(ride["departure"] as? String == "2026-11-25T08:11:00-05:00")
        #expect((ride["realtime"] as? [String: Any])?["state"] as? String == "scheduled")
        // The board agrees: that departure is shown cancelled.
        let board = try Programs.runKiosk([
            "lookup", "TB-EJIDO-N", "--at", "2026-11-25T08:00", "--window", "15", "--lang", "en", "--realtime", feed.path,
        ])
        #expect(board.stdout.contains("✕ cancelled"), "\(board.stdout)")
    }

    @Test func arriveByTakesTheLatestDepartureThatMakesItNeverOneSkippingTheStop() throws {
        let timetable = try Self.plan([
            "--at", "2026-11-25T08:00", "--arrive-by", "2026-11-25T08:30", "--lang", "en",
        ])
        #expect(timetable.stdout.contains("Arriving by 25/11/2026 08:30 America/Guayaquil (leaving from 08:00)"))
        #expect(timetable.stdout.contains("Option 1: 08:11 → 08:29"), "\(timetable.stdout)")
        // Live: the 08:11 does not stop at El Ejido; the 08:03, 4 minutes late, still arrives by 08:30.
        let live = try Self.plan([
            "--at", "2026-11-25T08:00", "--arrive-by", "2026-11-25T08:30", "--lang", "en", "--realtime", Self.scenario,
        ])
        #expect(live.stdout.contains("Option 1: 08:07 → 08:25"), "\(live.stdout)")
        // The extra trip at 08:16 arrives 08:33: the latest way to be there by 08:36.
        let added = try Self.json(
            try Self.plan([
                "--at", "2026-11-25T08:00", "--arrive-by", "2026-11-25T08:36", "--json", "--realtime", Self.scenario,
            ]))
        #expect(added["arrive_by"] as? String == "2026-11-25T08:36:00-05:00")
        let ride = try Self.firstRide(added)
        #expect(ride["trip_id"] as? String == "TB-EXTRA-0816")
        #expect((ride["realtime"] as? [String: Any])?["state"] as? String == "added")
        let text = try Self.plan([
            "--at", "2026-11-25T08:00", "--arrive-by", "2026-11-25T08:36", "--lang", "en", "--realtime", Self.scenario,
        ])
        #expect(text.stdout.contains("08:16  Take TB to La Y at El Ejido [2008]  ● live, extra service"), "\(text)")
    }

    @Test func staleDataPlansOnTheTimetableAndSaysSo() throws {
        let text = try Self.plan(["--at", "2026-11-25T08:10", "--lang", "en", "--realtime", Self.scenario])
        #expect(
            text.stdout.contains("Live information unavailable since 07:59. Journeys are planned on the timetable."),
            "\(text.stdout)")
        #expect(text.stdout.contains("08:11  Take TB to La Y"), "\(text.stdout)")
        let plan = try Self.json(
            try Self.plan(["--at", "2026-11-25T08:10", "--json", "--realtime", Self.scenario]))
        #expect(plan["live_times_used"] as? Bool == false)
        #expect(plan["realtime_status"] as? String == "stale")
        #expect(plan["realtime_unavailable_since"] as? String == "2026-11-25T07:59:40-05:00")
        #expect(try Self.firstRide(plan)["realtime"] == nil)
    }

    @Test func offlineModeIsThePlainTimetablePlan() throws {
        let plain = try Self.plan(["--at", "2026-11-25T08:00", "--json"])
        let offline = try Self.plan([
            "--at", "2026-11-25T08:00", "--json", "--realtime", Self.scenario, "--realtime-mode", "offline",
        ])
        #expect(offline.status == 0 && offline.stdout == plain.stdout)
    }

    @Test func stepFreeSaysHowUnknownCountsAndOffersTheOrdinaryPlanWhenThereIsNone() throws {
        // Comité del Pueblo (wheelchair_boarding 2) → Parque Bicentenario (0): served by the A3 feeder only.
        let text = try Programs.runKiosk([
            "plan", "0704", "0702", "--at", "2026-11-25T08:00", "--lang", "en", "--wheelchair",
        ])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("Step-free journeys only"), "\(text.stdout)")
        #expect(text.stdout.contains("counts as not accessible. Walks are not known to be step-free."))
        #expect(text.stdout.contains("No step-free journey found."), "\(text.stdout)")
        #expect(text.stdout.contains("Journeys that are not known to be step-free:\n\nOption 1:"), "\(text.stdout)")
        let json = try Self.json(
            try Programs.runKiosk(["plan", "0704", "0702", "--at", "2026-11-25T08:00", "--json", "--wheelchair"]))
        #expect(json["step_free"] as? Bool == true)
        #expect((json["options"] as? [Any])?.isEmpty == true)
        #expect((json["without_step_free"] as? [Any])?.isEmpty == false)
        // Where a step-free way exists, it is the plan.
        let metro = try Self.json(
            try Programs.runKiosk(["plan", "1011", "1151", "--at", "2026-11-25T08:00", "--json", "--wheelchair"]))
        #expect((metro["options"] as? [Any])?.isEmpty == false)
        #expect(metro["without_step_free"] == nil)
    }
}
